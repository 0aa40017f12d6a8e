package bench

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// script is a fake clock for Measure: each op reports its name when run, and a batch of iters
// operations "takes" iters × perOp[name] × the next factor of that op's script (1 once the
// script is used up). The first calls of each op are its warm-up and calibration batches.
type script struct {
	t       *testing.T
	perOp   map[string]time.Duration
	factors map[string][]float64
	calls   map[string]int
	ran     map[string]int // operations actually run
	errAt   map[string]int // call index at which the op fails
	current string
}

func newScript(t *testing.T) *script {
	return &script{t: t,
		perOp:   map[string]time.Duration{"op": time.Millisecond, "copy": 500 * time.Microsecond},
		factors: map[string][]float64{}, calls: map[string]int{}, ran: map[string]int{}, errAt: map[string]int{}}
}

var errFake = errors.New("fake failure")

func (s *script) op(name string) Op {
	return func() error {
		s.current = name
		s.ran[name]++
		return nil
	}
}

func (s *script) timer(op Op, iters int) (time.Duration, error) {
	if iters < 1 {
		s.t.Fatalf("timer called with %d iterations", iters)
	}
	for range iters {
		if err := op(); err != nil {
			return 0, err
		}
	}
	name := s.current
	i := s.calls[name]
	s.calls[name]++
	if at, ok := s.errAt[name]; ok && at == i {
		return 0, errFake
	}
	f := 1.0
	if fs := s.factors[name]; i < len(fs) {
		f = fs[i]
	}
	return time.Duration(float64(iters) * float64(s.perOp[name]) * f), nil
}

// calib is the number of calls each op spends on warm-up and calibration in these tests
// (warm-up, 1 iteration, then the calibrated count).
const calib = 3

func samplesFactors(fs ...float64) []float64 { return append([]float64{1, 1, 1}, fs...) }

func (s *script) cfg(budget time.Duration) Config {
	return Config{Budget: budget, Batch: 10 * time.Millisecond, Window: 5, Tolerance: 0.05,
		MinSamples: 3, MaxSamples: 100, Timer: s.timer}
}

func TestMeasureStableConvergesAfterOneWindow(t *testing.T) {
	s := newScript(t)
	m, err := Measure(s.cfg(time.Second), s.op("op"), s.op("copy"))
	if err != nil {
		t.Fatal(err)
	}
	// op: 1ms/op → warm-up 1ms, 1 op = 1ms < Batch/2, predicted 10 ops = 10ms. copy: 0.5ms/op → 20.
	if m.Op.Iters != 10 || m.Copy.Iters != 20 {
		t.Errorf("batch sizes %d, %d; want 10, 20", m.Op.Iters, m.Copy.Iters)
	}
	if len(m.Op.Batches) != 5 || len(m.Copy.Batches) != 5 || !m.Converged {
		t.Errorf("got %d/%d samples, converged %v; want 5/5 samples (one window), converged", len(m.Op.Batches), len(m.Copy.Batches), m.Converged)
	}
	// Calibration 12ms + 11ms, then 5 × (10ms + 10ms).
	if want := 123 * time.Millisecond; m.Spent != want {
		t.Errorf("Spent = %v, want %v", m.Spent, want)
	}
	if want := 1 + 1 + 10 + 5*10; s.ran["op"] != want {
		t.Errorf("op ran %d times, want %d", s.ran["op"], want)
	}
	if got := m.Op.NsPerOp(); !slices.Equal(got, []float64{1e6, 1e6, 1e6, 1e6, 1e6}) {
		t.Errorf("op ns/op = %v", got)
	}
	if got := m.Copy.NsPerOp(); !slices.Equal(got, []float64{5e5, 5e5, 5e5, 5e5, 5e5}) {
		t.Errorf("copy ns/op = %v", got)
	}
}

func TestMeasureNoisyStopsAtBudget(t *testing.T) {
	s := newScript(t)
	s.factors["op"] = samplesFactors(1, 1.2, 1, 1.2, 1, 1.2, 1, 1.2)
	m, err := Measure(s.cfg(100*time.Millisecond), s.op("op"), s.op("copy"))
	if err != nil {
		t.Fatal(err)
	}
	// Spent after each sample: 23+20=43, +22=65, +20=85, +22=107 ≥ 100: four samples.
	if len(m.Op.Batches) != 4 || m.Converged {
		t.Errorf("got %d samples, converged %v; want 4, not converged", len(m.Op.Batches), m.Converged)
	}
	if want := 107 * time.Millisecond; m.Spent != want {
		t.Errorf("Spent = %v, want %v", m.Spent, want)
	}
	if got := m.Op.NsPerOp(); !slices.Equal(got, []float64{1e6, 1.2e6, 1e6, 1.2e6}) {
		t.Errorf("op ns/op = %v", got)
	}
}

func TestMeasureKeepsMinSamplesPastBudget(t *testing.T) {
	s := newScript(t)
	m, err := Measure(s.cfg(time.Millisecond), s.op("op"), s.op("copy"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Op.Batches) != 3 || len(m.Copy.Batches) != 3 || m.Converged {
		t.Errorf("got %d/%d samples, converged %v; want 3/3 (MinSamples), not converged", len(m.Op.Batches), len(m.Copy.Batches), m.Converged)
	}
}

func TestMeasureStopsAtMaxSamples(t *testing.T) {
	s := newScript(t)
	var fs []float64
	for i := range 50 {
		fs = append(fs, 1+0.2*float64(i%2))
	}
	s.factors["op"] = samplesFactors(fs...)
	cfg := s.cfg(time.Hour)
	cfg.MaxSamples = 8
	m, err := Measure(cfg, s.op("op"), s.op("copy"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Op.Batches) != 8 || m.Converged {
		t.Errorf("got %d samples, converged %v; want 8, not converged", len(m.Op.Batches), m.Converged)
	}
}

func TestMeasureConvergesAfterTransient(t *testing.T) {
	s := newScript(t)
	s.factors["op"] = samplesFactors(1.5, 0.7, 1, 1, 1, 1, 1)
	m, err := Measure(s.cfg(time.Hour), s.op("op"), s.op("copy"))
	if err != nil {
		t.Fatal(err)
	}
	// Samples 3..7 are the first window without the two outliers.
	if len(m.Op.Batches) != 7 || !m.Converged {
		t.Errorf("got %d samples, converged %v; want 7, converged", len(m.Op.Batches), m.Converged)
	}
}

func TestMeasureNeedsCopyStableToo(t *testing.T) {
	s := newScript(t)
	var fs []float64
	for i := range 50 {
		fs = append(fs, 1+0.2*float64(i%2))
	}
	s.factors["copy"] = samplesFactors(fs...)
	m, err := Measure(s.cfg(200*time.Millisecond), s.op("op"), s.op("copy"))
	if err != nil {
		t.Fatal(err)
	}
	// Each sample costs 10ms + 10 or 12ms after 23ms of calibration: 43, 65, 85, 107, 127, 149,
	// 169, 191, 211 ≥ 200 → nine samples, never converged although op is stable.
	if len(m.Op.Batches) != 9 || m.Converged {
		t.Errorf("got %d samples, converged %v; want 9, not converged", len(m.Op.Batches), m.Converged)
	}
}

func TestMeasureCalibrationGrowth(t *testing.T) {
	s := newScript(t)
	s.perOp["op"] = time.Microsecond        // needs 10000 ops per 10ms batch: 1 → 100 → 10000
	s.perOp["copy"] = 20 * time.Millisecond // one op already exceeds a batch
	m, err := Measure(s.cfg(time.Second), s.op("op"), s.op("copy"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Op.Iters != 10000 || m.Copy.Iters != 1 {
		t.Errorf("batch sizes %d, %d; want 10000, 1", m.Op.Iters, m.Copy.Iters)
	}
}

func TestMeasureErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   int
	}{{"op", 0}, {"op", 1}, {"op", calib + 2}, {"copy", 0}, {"copy", calib + 1}} {
		s := newScript(t)
		s.errAt[tc.name] = tc.at
		_, err := Measure(s.cfg(time.Second), s.op("op"), s.op("copy"))
		if !errors.Is(err, errFake) {
			t.Errorf("failure of %s at call %d: err = %v, want the fake failure", tc.name, tc.at, err)
		}
	}
	if _, err := Measure(Config{}, nil, func() error { return nil }); err == nil {
		t.Error("Measure with a nil op: no error")
	}
}

func TestConfigDefaults(t *testing.T) {
	c := Config{}.withDefaults()
	if c.Budget != 500*time.Millisecond || c.Batch != 12500*time.Microsecond || c.Window != 6 ||
		c.Tolerance != 0.05 || c.MinSamples != 3 || c.MaxSamples != 100 || c.Timer == nil {
		t.Errorf("defaults = %+v", c)
	}
	if c := (Config{Budget: 10 * time.Millisecond}).withDefaults(); c.Batch != time.Millisecond {
		t.Errorf("Batch for a 10ms budget = %v, want the 1ms floor", c.Batch)
	}
	if c := (Config{Budget: 10 * time.Second}).withDefaults(); c.Batch != 50*time.Millisecond {
		t.Errorf("Batch for a 10s budget = %v, want the 50ms cap", c.Batch)
	}
}

func TestWallTimerRunsEveryIteration(t *testing.T) {
	n := 0
	d, err := WallTimer(func() error { n++; return nil }, 7)
	if err != nil || n != 7 || d <= 0 {
		t.Errorf("WallTimer: %d runs, d=%v, err=%v; want 7 runs, d > 0, no error", n, d, err)
	}
	n = 0
	_, err = WallTimer(func() error {
		n++
		if n == 3 {
			return errFake
		}
		return nil
	}, 10)
	if !errors.Is(err, errFake) || n != 3 {
		t.Errorf("WallTimer with a failing op: %d runs, err=%v; want it to stop at run 3", n, err)
	}
}

func TestSamplesRates(t *testing.T) {
	s := Samples{Iters: 4, Batches: []time.Duration{4 * time.Microsecond, 8 * time.Microsecond}}
	if got := s.NsPerOp(); !slices.Equal(got, []float64{1000, 2000}) {
		t.Errorf("NsPerOp = %v, want [1000 2000]", got)
	}
	// 6000 bytes in 1µs = 6e9 B/s; in 2µs = 3e9 B/s.
	if got := s.Rates(6000); !slices.Equal(got, []float64{6e9, 3e9}) {
		t.Errorf("Rates = %v, want [6e9 3e9]", got)
	}
}
