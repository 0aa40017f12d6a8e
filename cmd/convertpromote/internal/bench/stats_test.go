package bench

import (
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		xs               []float64
		median, min, max float64
	}{
		{[]float64{5}, 5, 5, 5},
		{[]float64{3, 1, 2}, 2, 1, 3},
		// Even count: the lower of the two middle samples (an observed value).
		{[]float64{4, 1, 3, 2}, 2, 1, 4},
		{[]float64{10, 10, 10, 10, 10}, 10, 10, 10},
		{[]float64{9, 1, 8, 2, 7}, 7, 1, 9},
	}
	for _, tc := range tests {
		in := append([]float64(nil), tc.xs...)
		s := Summarize(tc.xs)
		if s.Median != tc.median || s.Min != tc.min || s.Max != tc.max {
			t.Errorf("Summarize(%v) = %+v, want median %v min %v max %v", tc.xs, s, tc.median, tc.min, tc.max)
		}
		for i := range in {
			if in[i] != tc.xs[i] {
				t.Fatalf("Summarize reordered its input: %v, was %v", tc.xs, in)
			}
		}
	}
	if s := Summarize(nil); !math.IsNaN(s.Median) || !math.IsNaN(s.Min) || !math.IsNaN(s.Max) {
		t.Errorf("Summarize(nil) = %+v, want NaNs", s)
	}
}

func TestSpread(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{[]float64{100, 100, 100}, 0},
		{[]float64{100, 104, 96}, 0.08},       // (104-96)/100
		{[]float64{10, 11, 12, 13}, 3.0 / 11}, // (13-10)/11 (lower median)
		{[]float64{0, 0, 5}, math.Inf(1)},     // median 0, samples differ
	}
	for _, tc := range tests {
		if got := Spread(tc.xs); math.Abs(got-tc.want) > 1e-12 && !(math.IsInf(got, 1) && math.IsInf(tc.want, 1)) {
			t.Errorf("Spread(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
	if got := Spread(nil); !math.IsNaN(got) {
		t.Errorf("Spread(nil) = %v, want NaN", got)
	}
}

func TestConverged(t *testing.T) {
	tests := []struct {
		xs     []float64
		window int
		tol    float64
		want   bool
	}{
		{[]float64{1, 1, 1, 1}, 5, 0.05, false},              // fewer samples than the window
		{[]float64{1, 1, 1, 1, 1}, 5, 0.05, true},            // exactly a window, identical
		{[]float64{2, 1, 1, 1, 1, 1}, 5, 0.05, true},         // the outlier is outside the window
		{[]float64{1, 1, 1, 1, 2, 1}, 5, 0.05, false},        // the outlier is inside it
		{[]float64{100, 102, 101, 105, 100}, 5, 0.05, true},  // 5/101 < 0.05
		{[]float64{100, 102, 101, 106, 100}, 5, 0.05, false}, // 6/101
		{[]float64{1, 1, 1}, 0, 0.05, false},                 // a window of 0 never converges
	}
	for _, tc := range tests {
		if got := converged(tc.xs, tc.window, tc.tol); got != tc.want {
			t.Errorf("converged(%v, %d, %v) = %v, want %v", tc.xs, tc.window, tc.tol, got, tc.want)
		}
	}
}
