package bench

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/convertpromote/convertpromote/element"
)

// sampleResults are two results with known samples, made without timing anything.
func sampleResults() []Result {
	mk := func(path string, ns []time.Duration) Result {
		c := Case{From: element.F32, To: element.F16, Path: path, N: 16384, Threads: 1}
		m := Measurement{
			Op:   Samples{Iters: 100, Batches: ns},
			Copy: Samples{Iters: 100, Batches: []time.Duration{400 * time.Microsecond, 400 * time.Microsecond, 400 * time.Microsecond}},
		}
		return summarize(c, 6*16384, 6*16384, m)
	}
	rs := []Result{
		mk("avx512", []time.Duration{800 * time.Microsecond, 1000 * time.Microsecond, 900 * time.Microsecond}),
		mk("generic", []time.Duration{8 * time.Millisecond, 8 * time.Millisecond, 9 * time.Millisecond}),
	}
	FillRatioGeneric(rs)
	return rs
}

func TestSummarizeResult(t *testing.T) {
	rs := sampleResults()
	r := rs[0]
	// ns/op per batch: 8000, 10000, 9000 → 98304 bytes each: 12.288, 9.8304, 10.922… GB/s.
	if !near(r.GBpsMedian, 98304/9000.0) || !near(r.GBpsMin, 98304/10000.0) || !near(r.GBpsMax, 98304/8000.0) {
		t.Errorf("GB/s %v %v %v", r.GBpsMedian, r.GBpsMin, r.GBpsMax)
	}
	if !near(r.NsPerElem, 9000.0/16384) {
		t.Errorf("ns/elem %v, want %v", r.NsPerElem, 9000.0/16384)
	}
	if !near(r.CopyGBpsMedian, 98304/4000.0) || !near(r.RatioCopy, 4000.0/9000) {
		t.Errorf("copy %v ratio %v", r.CopyGBpsMedian, r.RatioCopy)
	}
	if r.RatioGeneric == nil || !near(*r.RatioGeneric, 80000.0/9000) || rs[1].RatioGeneric != nil {
		t.Errorf("ratio_generic %v / %v, want %v / nil", r.RatioGeneric, rs[1].RatioGeneric, 80000.0/9000)
	}
}

var benchLine = regexp.MustCompile(`^(BenchmarkConvert/[^\s]+) \t *(\d+)\t *([0-9.]+) ns/op\t *([0-9.]+) MB/s$`)

func TestWriteBenchstat(t *testing.T) {
	rs := sampleResults()
	var b bytes.Buffer
	if err := WriteBenchstat(&b, rs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	var bench []string
	for _, l := range lines {
		if strings.HasPrefix(l, "Benchmark") {
			bench = append(bench, l)
		} else if !regexp.MustCompile(`^(goos|goarch|pkg|cpu): \S`).MatchString(l) {
			t.Errorf("unexpected line %q", l)
		}
	}
	if !strings.HasPrefix(b.String(), "goos: ") {
		t.Errorf("output does not start with the goos header:\n%s", b.String())
	}
	// One line per sample: 3 + 3.
	if len(bench) != 6 {
		t.Fatalf("%d benchmark lines, want 6:\n%s", len(bench), b.String())
	}
	wantNs := []float64{8000, 10000, 9000, 80000, 80000, 90000}
	for i, l := range bench {
		m := benchLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %q is not in Go benchmark format", l)
		}
		wantName := "BenchmarkConvert/f32:f16/avx512/n=16384/threads=1"
		if i >= 3 {
			wantName = "BenchmarkConvert/f32:f16/generic/n=16384/threads=1"
		}
		ns, _ := strconv.ParseFloat(m[3], 64)
		mbs, _ := strconv.ParseFloat(m[4], 64)
		if m[1] != wantName || m[2] != "100" || ns != wantNs[i] {
			t.Errorf("line %q: name %s iters %s ns %v; want %s 100 %v", l, m[1], m[2], ns, wantName, wantNs[i])
		}
		// MB/s = 10^6 bytes/s, two decimals.
		if want := 98304 / wantNs[i] * 1e3; mbs < want-0.006 || mbs > want+0.006 {
			t.Errorf("line %q: %v MB/s, want %.2f", l, mbs, want)
		}
	}
}

func TestFormatNs(t *testing.T) {
	for ns, want := range map[float64]string{1234.4: "1234", 55.555: "55.55", 5.5: "5.500", 100: "100"} {
		if got := strings.TrimSpace(formatNs(ns)); got != want {
			t.Errorf("formatNs(%v) = %q, want %q", ns, got, want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	rs := sampleResults()
	var b bytes.Buffer
	if err := WriteTable(&b, rs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want a header and 2 rows:\n%s", len(lines), b.String())
	}
	for _, h := range []string{"pair", "path", "n", "threads", "bytes/op", "GB/s", "min", "max", "ns/elem", "copy GB/s", "×copy", "×generic", "spread"} {
		if !strings.Contains(lines[0], h) {
			t.Errorf("header %q lacks %q", lines[0], h)
		}
	}
	width := len([]rune(lines[0]))
	for _, l := range lines[1:] {
		if len([]rune(l)) != width {
			t.Errorf("rows not aligned: %q vs header width %d", l, width)
		}
	}
	f1 := strings.Fields(lines[1])
	want1 := []string{"f32:f16", "avx512", "16Ki", "1", "96", "KiB", "10.92", "9.83", "12.29", "0.549", "24.58", "0.44", "8.89", "23%"}
	if strings.Join(f1, " ") != strings.Join(want1, " ") {
		t.Errorf("row 1 = %v, want %v", f1, want1)
	}
	if f2 := strings.Fields(lines[2]); f2[len(f2)-2] != "-" {
		t.Errorf("generic row %v: ×generic should be -", f2)
	}
}
