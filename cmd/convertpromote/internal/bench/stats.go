package bench

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Summary is the median, minimum and maximum of a set of samples.
type Summary struct {
	Median, Min, Max float64
}

// Summarize returns the median (stat.Quantile at 0.5 with stat.Empirical: an observed sample,
// the lower middle one for an even count), minimum and maximum of xs. An empty xs gives NaNs.
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{math.NaN(), math.NaN(), math.NaN()}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return Summary{
		Median: stat.Quantile(0.5, stat.Empirical, s, nil),
		Min:    s[0],
		Max:    s[len(s)-1],
	}
}

// Spread returns (max-min)/median of xs: 0 for identical samples, +Inf when the median is 0 and
// the samples differ, NaN for an empty xs.
func Spread(xs []float64) float64 {
	s := Summarize(xs)
	if len(xs) == 0 {
		return math.NaN()
	}
	d := s.Max - s.Min
	if d == 0 {
		return 0
	}
	if s.Median == 0 {
		return math.Inf(1)
	}
	return d / math.Abs(s.Median)
}

// converged reports whether the last window samples of xs have a Spread below tol. It is false
// while xs has fewer than window samples.
func converged(xs []float64, window int, tol float64) bool {
	if window < 1 || len(xs) < window {
		return false
	}
	return Spread(xs[len(xs)-window:]) < tol
}
