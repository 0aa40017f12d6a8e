package bench

import (
	"errors"
	"fmt"
	"time"
)

// Op performs one operation: one whole conversion, or one copy.
type Op func() error

// Timer runs op iters times in a row and returns how long that took. It stops at the first
// error. The wall-clock timer is the default; tests inject scripted timers.
type Timer func(op Op, iters int) (time.Duration, error)

// WallTimer is the Timer that reads the monotonic clock around the batch. It never returns less
// than 1ns, so rates stay finite.
func WallTimer(op Op, iters int) (time.Duration, error) {
	t0 := time.Now()
	for range iters {
		if err := op(); err != nil {
			return 0, err
		}
	}
	d := time.Since(t0)
	if d <= 0 {
		d = 1
	}
	return d, nil
}

// Config controls how long a case is measured. The zero value gets the defaults listed per field.
type Config struct {
	// Budget is the time one case may take, warm-up and copy batches included (default 0.5s).
	// A case always takes at least MinSamples samples, even past the budget.
	Budget time.Duration
	// Batch is the target length of one timed batch (default Budget/40, kept within 1ms..50ms).
	Batch time.Duration
	// Window is how many of the latest samples the stop rule looks at (default 6: benchstat
	// gives a confidence interval from 6 samples on).
	Window int
	// Tolerance is the spread (max-min)/median under which the window counts as stable
	// (default 0.05).
	Tolerance float64
	// MinSamples and MaxSamples bound the number of timed batches of each kind (defaults 3, 100).
	MinSamples, MaxSamples int
	// Timer times the batches (default WallTimer).
	Timer Timer
}

// DefaultBudget is the time budget of a case when Config.Budget is zero.
const DefaultBudget = 500 * time.Millisecond

func (c Config) withDefaults() Config {
	if c.Budget <= 0 {
		c.Budget = DefaultBudget
	}
	if c.Batch <= 0 {
		c.Batch = min(max(c.Budget/40, time.Millisecond), 50*time.Millisecond)
	}
	if c.Window <= 0 {
		c.Window = 6
	}
	if c.Tolerance <= 0 {
		c.Tolerance = 0.05
	}
	if c.MinSamples <= 0 {
		c.MinSamples = 3
	}
	if c.MaxSamples < c.MinSamples {
		c.MaxSamples = max(100, c.MinSamples)
	}
	if c.Timer == nil {
		c.Timer = WallTimer
	}
	return c
}

// Samples are the timed batches of one operation after warm-up.
type Samples struct {
	// Iters is the number of operations in each batch.
	Iters int
	// Batches are the durations of the batches.
	Batches []time.Duration
}

// NsPerOp returns the nanoseconds per operation of each batch.
func (s Samples) NsPerOp() []float64 {
	xs := make([]float64, len(s.Batches))
	for i, d := range s.Batches {
		xs[i] = float64(d.Nanoseconds()) / float64(s.Iters)
	}
	return xs
}

// Rates returns the throughput of each batch in bytes per second for an operation that moves
// bytesPerOp bytes.
func (s Samples) Rates(bytesPerOp int64) []float64 {
	xs := s.NsPerOp()
	for i, ns := range xs {
		xs[i] = float64(bytesPerOp) / ns * 1e9
	}
	return xs
}

// Measurement is the outcome of Measure: the samples of the operation and of the copy that was
// interleaved with it.
type Measurement struct {
	Op, Copy Samples
	// Spent is the total timed duration, warm-up included.
	Spent time.Duration
	// Converged reports whether the stop rule ended the case (rather than the budget or
	// MaxSamples).
	Converged bool
}

// Measure times op and copyOp in alternating batches until the stop rule of the package
// documentation ends the case. Each operation is first run once as a warm-up and then
// calibrated to a batch size near cfg.Batch; those batches are not part of the samples. An error
// from either operation stops the measurement and is returned.
func Measure(cfg Config, op, copyOp Op) (Measurement, error) {
	if op == nil || copyOp == nil {
		return Measurement{}, errors.New("bench: Measure needs an operation and a copy")
	}
	cfg = cfg.withDefaults()
	var m Measurement
	ki, spent, err := calibrate(cfg, op)
	m.Spent += spent
	if err != nil {
		return m, err
	}
	ci, spent, err := calibrate(cfg, copyOp)
	m.Spent += spent
	if err != nil {
		return m, fmt.Errorf("bench: copy: %w", err)
	}
	m.Op.Iters, m.Copy.Iters = ki, ci
	for {
		d, err := cfg.Timer(op, ki)
		if err != nil {
			return m, err
		}
		m.Spent += d
		m.Op.Batches = append(m.Op.Batches, d)
		d, err = cfg.Timer(copyOp, ci)
		if err != nil {
			return m, fmt.Errorf("bench: copy: %w", err)
		}
		m.Spent += d
		m.Copy.Batches = append(m.Copy.Batches, d)

		n := len(m.Op.Batches)
		if n < cfg.MinSamples {
			continue
		}
		if converged(m.Op.NsPerOp(), cfg.Window, cfg.Tolerance) &&
			converged(m.Copy.NsPerOp(), cfg.Window, cfg.Tolerance) {
			m.Converged = true
			return m, nil
		}
		if m.Spent >= cfg.Budget || n >= cfg.MaxSamples {
			return m, nil
		}
	}
}

// calibrate runs op once as a warm-up, then grows the batch size until a batch lasts at least
// half of cfg.Batch. It returns the batch size and the time spent.
func calibrate(cfg Config, op Op) (iters int, spent time.Duration, err error) {
	d, err := cfg.Timer(op, 1) // warm-up: first touch of the buffers, caches, branch predictors
	if err != nil {
		return 0, d, err
	}
	spent += d
	iters = 1
	for {
		d, err := cfg.Timer(op, iters)
		if err != nil {
			return 0, spent, err
		}
		spent += d
		if d >= cfg.Batch/2 || iters >= 1<<30 {
			return iters, spent, nil
		}
		// Predict the count that fills a batch from this one, growing by 2x to 100x a step.
		next := int(float64(iters) * float64(cfg.Batch) / float64(max(d, 1)))
		next = min(max(next, 2*iters), 100*iters, 1<<30)
		iters = next
	}
}
