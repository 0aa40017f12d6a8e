package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// fakeRun measures cases with a fake conversion per path and scripted timings: a conversion
// takes nsPerElem[path] per element, a copy 0.1 ns per copied byte, every sample alike.
type fakeRun struct {
	t         *testing.T
	nsPerElem map[string]float64
	current   string // the path of the op run last, "copy" for the copy
	lastN     int
	calls     map[string]int
}

func (f *fakeRun) resolve(c Case) (ConvertFunc, error) {
	if _, ok := f.nsPerElem[c.Path]; !ok {
		return nil, fmt.Errorf("no fake for path %s", c.Path)
	}
	sb, _ := c.From.ByteSize(int64(c.N))
	db, _ := c.To.ByteSize(int64(c.N))
	return func(dst, src []byte, n int) error {
		if n != c.N || int64(len(src)) != sb || int64(len(dst)) != db {
			f.t.Errorf("%s: converted n=%d with %d/%d bytes; want n=%d with %d/%d", c.Path, n, len(src), len(dst), c.N, sb, db)
		}
		if uintptr(unsafe.Pointer(&src[0]))%64 != 0 || uintptr(unsafe.Pointer(&dst[0]))%64 != 0 {
			f.t.Errorf("%s: buffers not 64-byte aligned", c.Path)
		}
		f.current, f.lastN = c.Path, n
		f.calls[c.Path]++
		return nil
	}, nil
}

func (f *fakeRun) timer(op Op, iters int) (time.Duration, error) {
	f.current = "copy"
	if err := op(); err != nil {
		return 0, err
	}
	if f.current == "copy" {
		return time.Duration(float64(iters) * 1000), nil // 1µs per copy, whatever its size
	}
	return time.Duration(float64(iters) * f.nsPerElem[f.current] * float64(f.lastN)), nil
}

func runFake(t *testing.T, nsPerElem map[string]float64, cases []Case) []Result {
	t.Helper()
	f := &fakeRun{t: t, nsPerElem: nsPerElem, calls: map[string]int{}}
	r := Runner{Config: Config{Budget: time.Second, Batch: time.Millisecond, Timer: f.timer}, Resolve: f.resolve}
	var progress []int
	r.Progress = func(done, total int, _ Case) {
		if total != len(cases) {
			t.Errorf("progress total %d, want %d", total, len(cases))
		}
		progress = append(progress, done)
	}
	rs, err := r.Run(cases)
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for i := range len(cases) + 1 {
		want = append(want, i)
	}
	if !slices.Equal(progress, want) {
		t.Errorf("progress calls %v, want %v", progress, want)
	}
	for _, c := range cases {
		if f.calls[c.Path] == 0 {
			t.Errorf("path %s never ran", c.Path)
		}
	}
	return rs
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

func TestRunnerResults(t *testing.T) {
	f32, f16 := element.F32, element.F16
	const n = 4096
	cases := []Case{
		{From: f32, To: f16, Path: "avx512", N: n, Threads: 1},
		{From: f32, To: f16, Path: "generic", N: n, Threads: 1},
		{From: f32, To: f16, Path: "x448", N: n, Threads: 1},
		{From: f32, To: f16, Path: "avx512", N: n, Threads: 2}, // no generic at 2 threads: ratio_generic stays null
	}
	rs := runFake(t, map[string]float64{"avx512": 0.25, "generic": 1, "x448": 2}, cases)
	if len(rs) != len(cases) {
		t.Fatalf("%d results for %d cases", len(rs), len(cases))
	}
	// f32:f16 moves 4+2 bytes an element; the copy moves ceil(6n/2) bytes each way = 6n bytes.
	bpo := int64(6 * n)
	copyGBps := float64(bpo) / 1000 // 6n bytes per µs = 6n/1000 GB/s
	for i, r := range rs {
		c := cases[i]
		ns := map[string]float64{"avx512": 0.25, "generic": 1, "x448": 2}[c.Path]
		gbps := 6 / ns // 6 bytes an element every ns ns
		if r.Pair != "f32:f16" || r.Path != c.Path || r.N != n || r.Threads != c.Threads || r.BytesPerOp != bpo {
			t.Errorf("case %d: identity %+v", i, r)
		}
		if !near(r.GBpsMedian, gbps) || !near(r.GBpsMin, gbps) || !near(r.GBpsMax, gbps) || !near(r.NsPerElem, ns) {
			t.Errorf("%s: GB/s %v/%v/%v ns/elem %v; want %v and %v", c.Path, r.GBpsMedian, r.GBpsMin, r.GBpsMax, r.NsPerElem, gbps, ns)
		}
		if !near(r.CopyGBpsMedian, copyGBps) || !near(r.RatioCopy, gbps/copyGBps) {
			t.Errorf("%s: copy %v GB/s ratio %v; want %v and %v", c.Path, r.CopyGBpsMedian, r.RatioCopy, copyGBps, gbps/copyGBps)
		}
		switch {
		case c.Path == "generic" || c.Threads == 2:
			if r.RatioGeneric != nil {
				t.Errorf("%s threads %d: ratio_generic %v, want null", c.Path, c.Threads, *r.RatioGeneric)
			}
		case r.RatioGeneric == nil || !near(*r.RatioGeneric, 1/ns):
			t.Errorf("%s: ratio_generic %v, want %v", c.Path, r.RatioGeneric, 1/ns)
		}
		if !r.Converged || len(r.Samples.Batches) != 6 {
			t.Errorf("%s: %d samples, converged %v; constant timings converge after one window", c.Path, len(r.Samples.Batches), r.Converged)
		}
	}
}

func TestRunnerPackedBytesRoundUp(t *testing.T) {
	// 1001 u4 elements take 501 bytes; as f32, 4004. Traffic 4505; the copy moves 2·2253.
	rs := runFake(t, map[string]float64{"generic": 1}, []Case{{From: element.U4, To: element.F32, Path: "generic", N: 1001, Threads: 1}})
	if rs[0].BytesPerOp != 4505 {
		t.Errorf("bytes_per_op = %d, want 4505", rs[0].BytesPerOp)
	}
	if want := 4506.0 / 1000; !near(rs[0].CopyGBpsMedian, want) {
		t.Errorf("copy GB/s = %v, want %v", rs[0].CopyGBpsMedian, want)
	}
}

func TestRunnerRejectsBadCases(t *testing.T) {
	f := &fakeRun{t: t, nsPerElem: map[string]float64{"generic": 1}, calls: map[string]int{}}
	r := Runner{Config: Config{Timer: f.timer}, Resolve: f.resolve, MaxBytes: 1 << 20}
	for _, c := range []Case{
		{From: element.F32, To: element.F16, Path: "generic", N: 0, Threads: 1},
		{From: element.F32, To: element.F16, Path: "generic", N: 10, Threads: -1},
		{From: element.F32, To: element.F16, Path: "generic", N: 1 << 20, Threads: 1}, // 6 MiB of traffic, 12 MiB of buffers
		{From: element.F32, To: element.F16, Path: "nosuch", N: 10, Threads: 1},
	} {
		if _, err := r.Run([]Case{c}); err == nil {
			t.Errorf("Run(%+v): no error", c)
		}
	}
}

func TestCheckSize(t *testing.T) {
	// f32:f64 at 2^28 elements: 1 GiB + 2 GiB of traffic, twice that in buffers.
	if err := CheckSize(element.F32, element.F64, 1<<28, 0); err == nil {
		t.Error("6 GiB of buffers passed the default 4 GiB limit")
	}
	if err := CheckSize(element.F32, element.F16, 64<<20, 0); err != nil {
		t.Errorf("64Mi f32:f16 (768 MiB of buffers): %v", err)
	}
	if err := CheckSize(element.F32, element.F16, 1<<20, 12<<20); err != nil {
		t.Errorf("exactly at the limit: %v", err)
	}
	if err := CheckSize(element.F32, element.F16, 1<<20+1, 12<<20); err == nil {
		t.Error("one element over the limit passed")
	}
}

func TestJSONFieldsExact(t *testing.T) {
	rs := runFake(t, map[string]float64{"generic": 1, "avx2": 0.5}, []Case{
		{From: element.I8, To: element.F32, Path: "avx2", N: 1024, Threads: 1},
		{From: element.I8, To: element.F32, Path: "generic", N: 1024, Threads: 1},
	})
	var b bytes.Buffer
	if err := WriteJSON(&b, rs); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, b.String())
	}
	want := []string{"pair", "path", "n", "threads", "bytes_per_op", "gbps_median", "gbps_min", "gbps_max",
		"ns_per_elem", "copy_gbps_median", "ratio_copy", "ratio_generic"}
	slices.Sort(want)
	if len(got) != 2 {
		t.Fatalf("%d objects, want 2", len(got))
	}
	for i, obj := range got {
		var keys []string
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, want) {
			t.Errorf("object %d keys %v, want %v", i, keys, want)
		}
	}
	if got[0]["pair"] != "i8:f32" || got[0]["path"] != "avx2" || got[0]["n"] != 1024.0 || got[0]["bytes_per_op"] != 5120.0 {
		t.Errorf("object 0 = %v", got[0])
	}
	if r, ok := got[0]["ratio_generic"].(float64); !ok || !near(r, 2) {
		t.Errorf("avx2 ratio_generic = %v, want 2", got[0]["ratio_generic"])
	}
	if v, ok := got[1]["ratio_generic"]; !ok || v != nil {
		t.Errorf("generic ratio_generic = %v (present %v), want null", v, ok)
	}
	b.Reset()
	if err := WriteJSON(&b, nil); err != nil || bytes.TrimSpace(b.Bytes())[0] != '[' {
		t.Errorf("no results: %q, %v; want an empty array", b.String(), err)
	}
}

// TestRunnerDefaultPolicy: a case of 0 threads measures the default policy, and its result and
// table row say how many goroutines the policy used.
func TestRunnerDefaultPolicy(t *testing.T) {
	f := &fakeRun{t: t, nsPerElem: map[string]float64{"generic": 1}, calls: map[string]int{}}
	r := Runner{Config: Config{Timer: f.timer}, Resolve: f.resolve}
	rs, err := r.Run([]Case{{From: element.F32, To: element.F16, Path: "generic", N: 1000, Threads: 0}})
	if err != nil {
		t.Fatal(err)
	}
	want := kernels.Converter{}.Goroutines(element.F32, element.F16, 1000)
	if rs[0].Threads != 0 || rs[0].Goroutines != want || want != 1 {
		t.Errorf("threads %d, goroutines %d; the default uses %d", rs[0].Threads, rs[0].Goroutines, want)
	}
	var b strings.Builder
	if err := WriteTable(&b, rs); err != nil || !strings.Contains(b.String(), " default=1 ") {
		t.Errorf("table does not name the default's goroutines: %v\n%s", err, b.String())
	}
	if c := (Case{From: element.F32, To: element.F16, N: 1000, Threads: 3}); c.Goroutines() != 3 {
		t.Errorf("explicit threads: Goroutines() = %d", c.Goroutines())
	}
}

func TestBlockTraffic(t *testing.T) {
	c := Case{From: element.F4E2M1, To: element.F32, N: 64, Block: quant.MXFP4}
	if bpo, buf, err := blockTraffic(c.pair(), 64); err != nil || bpo != 32+2+256 || buf != 2*(32+2+256) {
		t.Errorf("mxfp4:f32 traffic and buffers for 64 elements: %d %d, %v", bpo, buf, err)
	}
	if err := CheckCaseSize(Case{From: element.F32, To: element.F4E2M1, N: 1 << 20, Block: quant.MXFP4}, 4<<20); err == nil {
		t.Error("f32:mxfp4 of 1Mi elements fits in 4 MiB of buffers")
	}
}

// TestBlockCaseRuns checks that a block-scaled case runs quant.Dequantize and
// quant.Quantize on its buffers (the codes followed by the scales), not a plain conversion.
func TestBlockCaseRuns(t *testing.T) {
	n := 64
	dec := Case{From: element.F4E2M1, To: element.BF16, Path: "generic", N: n, Block: quant.MXFP4}
	f, err := KernelResolver(dec)
	if err != nil {
		t.Fatal(err)
	}
	src := make([]byte, n/2+2)
	for i := range src {
		src[i] = byte(i*37 + 1)
	}
	src[n/2], src[n/2+1] = 0x80, 0x7E // scales 2 and 1/2
	got := make([]byte, 2*n)
	if err := f(got, src, n); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 2*n)
	if err := quant.Dequantize(want, element.BF16, quant.Data{Codes: src[:n/2], Scales: src[n/2:]}, quant.MXFP4, n); err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("mxfp4:bf16 case: got %x, want Dequantize's %x", got, want)
	}
	enc := Case{From: element.F32, To: element.F4E2M1, Path: "generic", N: n, Block: quant.MXFP4}
	if f, err = KernelResolver(enc); err != nil {
		t.Fatal(err)
	}
	vals := make([]float32, n)
	for i := range vals {
		vals[i] = float32(i) - 20
	}
	packed := make([]byte, n/2+2)
	if err := f(packed, kernels.AsBytes(vals), n); err != nil {
		t.Fatal(err)
	}
	wc, ws := make([]byte, n/2), make([]byte, 2)
	if err := quant.QuantizeF32s(quant.Data{Codes: wc, Scales: ws}, quant.MXFP4, vals); err != nil {
		t.Fatal(err)
	}
	if string(packed) != string(append(wc, ws...)) {
		t.Errorf("f32:mxfp4 case: got %x, want Quantize's %x %x", packed, wc, ws)
	}
}
