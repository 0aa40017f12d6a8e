package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// Case is one measurement: a pair, a path, a size in elements and a thread count.
type Case struct {
	From, To element.Type
	Path     string // "avx512", "avx2", "neon", "generic" or "x448"
	N        int    // elements per operation
	Threads  int    // goroutines; 0 for package kernels' default policy
	// Block, when set (Block.Group > 0), makes the case a block-scaled one (see Pair.Block):
	// quant.Dequantize from Block (From is its code type) or quant.Quantize into it (To is its
	// code type). Those run on one goroutine whatever Threads says.
	Block quant.Scheme
}

// Goroutines returns the goroutines the case's conversion uses: Threads, or for 0 the count
// package kernels' default policy chooses for the pair and size at the time of the call (after a
// split that did not pay, 1 for the next few conversions; see kernels.SetThreads). A result
// records it after the measurement.
func (c Case) Goroutines() int {
	if c.Block.Group > 0 {
		return 1
	}
	if c.Threads > 0 {
		return c.Threads
	}
	return max(1, kernels.Converter{}.Goroutines(c.From, c.To, c.N))
}

// Pair returns the pair as "from:to" with canonical type names, e.g. "f32:f16".
func (c Case) Pair() string { return c.pair().String() }

// pair is the case's pair.
func (c Case) pair() benchcli.Pair { return benchcli.Pair{From: c.From, To: c.To, Block: c.Block} }

// Result is the outcome of one case. The JSON form has exactly the fields listed in the
// package's contract; the samples are kept for the benchstat output.
type Result struct {
	Pair           string   `json:"pair"`
	Path           string   `json:"path"`
	N              int      `json:"n"`
	Threads        int      `json:"threads"`
	BytesPerOp     int64    `json:"bytes_per_op"`     // bytes read + bytes written per operation
	GBpsMedian     float64  `json:"gbps_median"`      // 10^9 bytes/s, median over the samples
	GBpsMin        float64  `json:"gbps_min"`         // slowest sample
	GBpsMax        float64  `json:"gbps_max"`         // fastest sample
	NsPerElem      float64  `json:"ns_per_elem"`      // at the median throughput
	CopyGBpsMedian float64  `json:"copy_gbps_median"` // copy() of the same traffic, same run
	RatioCopy      float64  `json:"ratio_copy"`       // GBpsMedian / CopyGBpsMedian
	RatioGeneric   *float64 `json:"ratio_generic"`    // GBpsMedian / generic's; nil for generic

	// Case is the measured case.
	Case Case `json:"-"`
	// Samples are the timed batches of the conversion, Copy those of the copy.
	Samples, Copy Samples `json:"-"`
	// Converged reports whether the stop rule (not the budget) ended the case.
	Converged bool `json:"-"`
	// Goroutines is the number of goroutines the conversion used (Case.Goroutines).
	Goroutines int `json:"-"`
}

// DefaultMaxBytes is the default limit on the buffers of one case: source, destination and the
// copy's two buffers together.
const DefaultMaxBytes = 4 << 30

// Traffic returns the bytes one conversion of n elements reads plus writes, and the buffer
// bytes a case allocates for it (twice the traffic: the conversion's buffers and the copy's).
func Traffic(from, to element.Type, n int) (bytesPerOp, buffers int64, err error) {
	sb, err := from.ByteSize(int64(n))
	if err != nil {
		return 0, 0, fmt.Errorf("%s source of %d elements: %w", from, n, err)
	}
	db, err := to.ByteSize(int64(n))
	if err != nil {
		return 0, 0, fmt.Errorf("%s destination of %d elements: %w", to, n, err)
	}
	if sb > math.MaxInt64/4-db {
		return 0, 0, fmt.Errorf("%d elements of %s:%s overflow the byte count", n, from, to)
	}
	bpo := sb + db
	return bpo, bpo + 2*((bpo+1)/2), nil
}

// Runner measures a list of cases.
type Runner struct {
	Config
	// Resolve gives each case's conversion (default KernelResolver).
	Resolve Resolver
	// MaxBytes limits the buffers of one case (default DefaultMaxBytes).
	MaxBytes int64
	// DataKey selects the random source data: the same key gives the same data.
	DataKey uint64
	// Progress, if set, is called before each case with the number of cases done and the total.
	Progress func(done, total int, next Case)
}

// CheckSize returns an error when a case of n elements of the pair would need more buffer bytes
// than limit (DefaultMaxBytes when limit ≤ 0).
func CheckSize(from, to element.Type, n int, limit int64) error {
	return CheckCaseSize(Case{From: from, To: to, N: n}, limit)
}

// CheckCaseSize is CheckSize for a case's pair (block-scaled or not) and size.
func CheckCaseSize(c Case, limit int64) error {
	from, to, n := c.From, c.To, c.N
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if n <= 0 {
		return fmt.Errorf("size %d: the element count must be positive", n)
	}
	_, buf, err := Traffic(from, to, n)
	if c.Block.Group > 0 {
		_, buf, err = blockTraffic(c.pair(), n)
	}
	if err != nil {
		return err
	}
	if buf > limit {
		return fmt.Errorf("size %s for %s needs %s of buffers (source, destination and the copy's), over the %s limit",
			benchcli.FormatSize(n), c.Pair(), benchcli.FormatBytes(buf), benchcli.FormatBytes(limit))
	}
	return nil
}

// buffers are the allocations shared by the cases of one pair and size.
type buffers struct {
	from, to element.Type
	block    quant.Scheme
	n        int
	src, dst []byte
	csrc     []byte
	cdst     []byte
}

// Run measures the cases in order and returns one Result each, with RatioGeneric filled in from
// the generic case of the same pair, size and threads when the list has one. Consecutive cases
// of the same pair and size share their buffers, so list the cases grouped that way.
func (r *Runner) Run(cases []Case) ([]Result, error) {
	resolve := r.Resolve
	if resolve == nil {
		resolve = KernelResolver
	}
	rng := rand.New(rand.NewPCG(r.DataKey, r.DataKey^0x9E3779B97F4A7C15))
	var buf *buffers
	results := make([]Result, 0, len(cases))
	for i, c := range cases {
		if r.Progress != nil {
			r.Progress(i, len(cases), c)
		}
		if c.N <= 0 {
			return results, fmt.Errorf("case %s %s: element count %d is not positive", c.Pair(), c.Path, c.N)
		}
		if c.Threads < 0 {
			return results, fmt.Errorf("case %s %s: thread count %d is negative", c.Pair(), c.Path, c.Threads)
		}
		if err := CheckCaseSize(c, r.MaxBytes); err != nil {
			return results, err
		}
		if buf == nil || buf.from != c.From || buf.to != c.To || buf.block != c.Block || buf.n != c.N {
			buf = nil
			runtime.GC() // free the previous size's buffers before allocating the next
			if c.Block.Group > 0 {
				buf = newBlockBuffers(c, rng)
			} else {
				buf = newBuffers(c.From, c.To, c.N, rng)
			}
		}
		f, err := resolve(c)
		if err != nil {
			return results, fmt.Errorf("%s %s: %w", c.Pair(), c.Path, err)
		}
		res, err := r.measure(c, f, buf)
		if err != nil {
			return results, fmt.Errorf("%s %s n=%d threads=%d: %w", c.Pair(), c.Path, c.N, c.Threads, err)
		}
		results = append(results, res)
	}
	if r.Progress != nil {
		r.Progress(len(cases), len(cases), Case{})
	}
	FillRatioGeneric(results)
	return results, nil
}

func newBuffers(from, to element.Type, n int, rng *rand.Rand) *buffers {
	sb, _ := from.ByteSize(int64(n))
	db, _ := to.ByteSize(int64(n))
	half := (sb + db + 1) / 2
	b := &buffers{from: from, to: to, n: n,
		src: alignedBytes(sb), dst: alignedBytes(db),
		csrc: alignedBytes(half), cdst: alignedBytes(half)}
	Fill(b.src, from, to, n, rng)
	fillBytes(b.csrc, rng)
	return b
}

func (r *Runner) measure(c Case, f ConvertFunc, b *buffers) (Result, error) {
	src, dst, n := b.src, b.dst, c.N
	m, err := Measure(r.Config, func() error { return f(dst, src, n) }, copyOp(b.cdst, b.csrc, c.Goroutines()))
	if err != nil {
		return Result{}, err
	}
	bpo := int64(len(b.src) + len(b.dst))
	return summarize(c, bpo, int64(2*len(b.csrc)), m), nil
}

// summarize turns a measurement into a Result: copyBytes is the traffic of one copy.
func summarize(c Case, bytesPerOp, copyBytes int64, m Measurement) Result {
	k := Summarize(m.Op.Rates(bytesPerOp))
	cp := Summarize(m.Copy.Rates(copyBytes))
	return Result{
		Pair:           c.Pair(),
		Path:           c.Path,
		N:              c.N,
		Threads:        c.Threads,
		BytesPerOp:     bytesPerOp,
		GBpsMedian:     k.Median / 1e9,
		GBpsMin:        k.Min / 1e9,
		GBpsMax:        k.Max / 1e9,
		NsPerElem:      float64(bytesPerOp) / k.Median * 1e9 / float64(c.N),
		CopyGBpsMedian: cp.Median / 1e9,
		RatioCopy:      k.Median / cp.Median,
		Case:           c,
		Samples:        m.Op,
		Copy:           m.Copy,
		Converged:      m.Converged,
		Goroutines:     c.Goroutines(),
	}
}

// FillRatioGeneric sets each result's RatioGeneric to its median over the median of the generic
// result with the same pair, size and threads; it stays nil for generic results and where there
// is no generic result.
func FillRatioGeneric(rs []Result) {
	type key struct {
		pair       string
		n, threads int
	}
	gen := map[key]float64{}
	for _, r := range rs {
		if r.Path == "generic" {
			gen[key{r.Pair, r.N, r.Threads}] = r.GBpsMedian
		}
	}
	for i := range rs {
		rs[i].RatioGeneric = nil
		if rs[i].Path == "generic" {
			continue
		}
		if g, ok := gen[key{rs[i].Pair, rs[i].N, rs[i].Threads}]; ok && g > 0 {
			v := rs[i].GBpsMedian / g
			rs[i].RatioGeneric = &v
		}
	}
}
