package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/bench"
	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

func runBenchCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = runMain(append([]string{"bench"}, args...), strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

// unavailablePath is a SIMD path this CPU lacks, or "" when it has them all.
func unavailablePath() string {
	for _, name := range []string{"neon", "avx512", "avx2"} {
		p, _ := kernels.ParsePath(name)
		if !slices.Contains(kernels.Paths(), p) {
			return name
		}
	}
	return ""
}

func TestBenchUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		wantIn string
	}{
		{[]string{"--pairs", "f32:f99"}, `unknown element type "f99"`},
		{[]string{"--pairs", "f32"}, `pair "f32": want FROM:TO`},
		{[]string{"--pairs", "f32:string"}, "not supported"},
		{[]string{"--sizes", "0"}, `size "0" must be positive`},
		{[]string{"--sizes", "1Ki,-5"}, `size "-5" must be positive`},
		{[]string{"--sizes", "16KB"}, `size "16KB" is not a whole number`},
		{[]string{"--sizes", "2000Gi"}, "over the limit"},
		{[]string{"--time", "-1s"}, "--time -1s must be positive"},
		{[]string{"--time=-1s"}, "--time -1s must be positive"},
		{[]string{"--time", "0"}, "--time 0 must be positive"},
		{[]string{"--time", "fast"}, `--time "fast" is not a duration`},
		{[]string{"--paths", "sse"}, `unknown path "sse"`},
		{[]string{"--threads", "-1"}, "thread count -1"},
		{[]string{"--threads", "two"}, `thread count "two"`},
		{[]string{"--plot", "chart.svg"}, "ending in .png"},
		{[]string{"--nosuchflag"}, "nosuchflag"},
		{[]string{"f32:f16"}, `unexpected argument "f32:f16"`},
	}
	if kernels.Supported(element.F32, element.F64) {
		tests = append(tests, struct {
			args   []string
			wantIn string
		}{[]string{"--pairs", "f32:f64", "--sizes", "1Gi"}, "over the 4 GiB limit"})
	}
	if p := unavailablePath(); p != "" {
		tests = append(tests, struct {
			args   []string
			wantIn string
		}{[]string{"--paths", p}, "path " + p + " is not available on this CPU"})
	}
	for _, tc := range tests {
		code, stdout, stderr := runBenchCmd(tc.args...)
		if code != exitUsage {
			t.Errorf("bench %v: exit %d, want %d (stderr %q)", tc.args, code, exitUsage, stderr)
		}
		if !strings.Contains(stderr, tc.wantIn) {
			t.Errorf("bench %v: stderr %q does not contain %q", tc.args, stderr, tc.wantIn)
		}
		if stdout != "" {
			t.Errorf("bench %v: wrote %q to stdout on a usage error", tc.args, stdout)
		}
	}
}

func TestBenchHelp(t *testing.T) {
	code, stdout, _ := runBenchCmd("-h")
	if code != exitOK || !strings.Contains(stdout, "Usage: convertpromote bench") || !strings.Contains(stdout, "-benchstat") {
		t.Errorf("bench -h: exit %d, stdout %q", code, stdout)
	}
}

func TestDefaultThreads(t *testing.T) {
	ts, err := benchcli.ParseThreads(defaultThreads())
	if err != nil || ts[0] != 1 {
		t.Errorf("defaultThreads() = %q: %v, %v", defaultThreads(), ts, err)
	}
}

// needKernels skips a test that converts through package kernels before it has conversions.
func needKernels(t *testing.T) {
	t.Helper()
	if !kernels.Supported(element.F32, element.F16) {
		t.Skip("package kernels has no pure-Go conversions yet")
	}
}

// autoPaths lists the paths "auto" measures for the pair, from package kernels directly.
func autoPaths(from, to element.Type, x448 bool) []string {
	var out []string
	for _, p := range kernels.Paths() {
		if p != kernels.Generic && kernels.HasKernel(p, from, to) {
			out = append(out, p.String())
			break
		}
	}
	out = append(out, "generic")
	if x448 {
		out = append(out, "x448")
	}
	return out
}

func TestBenchRunJSONAndPlot(t *testing.T) {
	needKernels(t)
	dir := t.TempDir()
	js, pl := filepath.Join(dir, "out.json"), filepath.Join(dir, "out.png")
	code, stdout, stderr := runBenchCmd("--pairs", "f32:f16,i8:f32", "--sizes", "1Ki,4Ki", "--threads", "1",
		"--time", "20ms", "--json", js, "--plot", pl)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stderr != "" {
		t.Errorf("stderr is not a terminal, yet bench wrote %q", stderr)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(b, &objs); err != nil {
		t.Fatalf("invalid JSON: %v", err)
	}
	type key struct {
		pair, path string
		n          float64
	}
	var got []key
	for _, o := range objs {
		if len(o) != 12 {
			t.Errorf("object has %d fields, want 12: %v", len(o), o)
		}
		got = append(got, key{o["pair"].(string), o["path"].(string), o["n"].(float64)})
		if o["gbps_median"].(float64) <= 0 || o["copy_gbps_median"].(float64) <= 0 {
			t.Errorf("non-positive throughput in %v", o)
		}
		if (o["path"] == "generic") != (o["ratio_generic"] == nil) {
			t.Errorf("ratio_generic %v for path %v", o["ratio_generic"], o["path"])
		}
	}
	var want []key
	for _, pr := range []struct {
		s        string
		from, to element.Type
		x448     bool
	}{{"f32:f16", element.F32, element.F16, true}, {"i8:f32", element.I8, element.F32, false}} {
		for _, n := range []float64{1024, 4096} {
			for _, p := range autoPaths(pr.from, pr.to, pr.x448) {
				want = append(want, key{pr.s, p, n})
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("cases %v, want %v", got, want)
	}
	// The table: a header comment, the column header and one row per case.
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2+len(want) || !strings.HasPrefix(lines[0], "# ") {
		t.Errorf("table has %d lines, want %d:\n%s", len(lines), 2+len(want), stdout)
	}
	f, err := os.Open(pl)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("chart is not a PNG: %v", err)
	}
}

func TestBenchBenchstatOutput(t *testing.T) {
	needKernels(t)
	code, stdout, stderr := runBenchCmd("--pairs", "f32:f16", "--sizes", "1Ki", "--threads", "1", "--paths", "generic", "--time", "10ms", "--benchstat")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	line := regexp.MustCompile(`^BenchmarkConvert/f32:f16/generic/n=1024/threads=1 \t *\d+\t *[0-9.]+ ns/op\t *[0-9.]+ MB/s$`)
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if strings.HasPrefix(l, "Benchmark") {
			n++
			if !line.MatchString(l) {
				t.Errorf("line %q is not in benchmark format", l)
			}
		}
	}
	if n < 3 {
		t.Errorf("%d benchmark lines, want at least 3 (one per sample):\n%s", n, stdout)
	}
}

func TestBenchSkipsPathsWithoutKernel(t *testing.T) {
	needKernels(t)
	code, stdout, stderr := runBenchCmd("--pairs", "i8:f32", "--sizes", "1Ki", "--threads", "1", "--paths", "generic,x448", "--time", "10ms")
	if code != exitOK || !strings.Contains(stderr, "x448 only converts f32:f16 and f16:f32; skipped for i8:f32") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if strings.Contains(stdout, "x448") {
		t.Errorf("x448 measured for i8:f32:\n%s", stdout)
	}
	code, _, stderr = runBenchCmd("--pairs", "i8:f32", "--sizes", "1Ki", "--paths", "x448", "--time", "10ms")
	if code != exitUsage || !strings.Contains(stderr, "nothing to measure") {
		t.Errorf("only x448 for i8:f32: exit %d, stderr %q; want exit 2, nothing to measure", code, stderr)
	}
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	p := progressBar(&b)
	p(3, 12, bench.Case{From: element.F32, To: element.F16, Path: "avx512", N: 16384, Threads: 2})
	got := b.String()
	// A quarter of the 30-column bar is filled.
	want := "\r\033[K[" + strings.Repeat("=", 7) + strings.Repeat(" ", 23) + "] 3/12 f32:f16 avx512 n=16Ki threads=2 ("
	if !strings.HasPrefix(got, want) || strings.Contains(got, "\n") {
		t.Errorf("progress line %q, want prefix %q and no newline", got, want)
	}
	b.Reset()
	p(12, 12, bench.Case{})
	if b.String() != "\r\033[K" {
		t.Errorf("final progress call wrote %q, want the line cleared", b.String())
	}
	if isTerminal(&b) {
		t.Error("a buffer counted as a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file counted as a terminal")
	}
}

// TestBenchOutputsCheckedBeforeRun: a --json or --plot path that cannot be written fails with
// exit 1 before anything is measured, and leaves existing files as they were.
func TestBenchOutputsCheckedBeforeRun(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte("previous results\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no", "such", "dir")
	run := []string{"--pairs", "f32:f16", "--sizes", "1Ki", "--threads", "1", "--paths", "generic", "--time", "10ms"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--json", filepath.Join(missing, "out.json")}, "--json: cannot write " + filepath.Join(missing, "out.json")},
		{[]string{"--plot", filepath.Join(missing, "out.png")}, "--plot: cannot write " + filepath.Join(missing, "out.png")},
		{[]string{"--json", dir}, "--json: " + dir + " is a directory"},
		{[]string{"--json", old, "--plot", filepath.Join(missing, "out.png")}, "--plot: cannot write"},
		{[]string{"--json", filepath.Join(dir, "x.png"), "--plot", filepath.Join(dir, "x.png")}, "name the same file"},
	}
	for _, c := range cases {
		code, stdout, stderr := runBenchCmd(append(slices.Clone(run), c.args...)...)
		if code != exitFail || stdout != "" || !strings.HasPrefix(stderr, "convertpromote bench: ") || !strings.Contains(stderr, c.want) {
			t.Errorf("bench %v: exit %d, stdout %q, stderr %q; want exit 1 before the run, naming %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if b, _ := os.ReadFile(old); string(b) != "previous results\n" {
		t.Errorf("a failed bench changed %s to %q", old, b)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"old.json"}) {
		t.Errorf("after the failed runs the directory holds %v, want only old.json", names)
	}
}

// TestBenchOutputsReplaced: the outputs replace existing files whole (a symlink at the name is
// replaced, not followed) and leave no temporary files.
func TestBenchOutputsReplaced(t *testing.T) {
	needKernels(t)
	dir := t.TempDir()
	js, pl, target := filepath.Join(dir, "out.json"), filepath.Join(dir, "out.png"), filepath.Join(dir, "target")
	os.WriteFile(js, []byte("previous results\n"), 0o644)
	os.WriteFile(target, []byte("not to be touched\n"), 0o644)
	if err := os.Symlink(target, pl); err != nil {
		t.Skip("no symlinks here:", err)
	}
	code, _, stderr := runBenchCmd("--pairs", "f32:f16", "--sizes", "1Ki", "--threads", "1", "--paths", "generic",
		"--time", "10ms", "--json", js, "--plot", pl)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var objs []map[string]any
	if b, _ := os.ReadFile(js); json.Unmarshal(b, &objs) != nil || len(objs) != 1 {
		t.Errorf("%s holds %.200q, want the JSON of one case", js, b)
	}
	if st, err := os.Lstat(pl); err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o644 {
		t.Errorf("%s: %v, %v; want a regular file, mode 0644, in place of the symlink", pl, st.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "not to be touched\n" {
		t.Errorf("the symlink's target was written (%d bytes)", len(b))
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"out.json", "out.png", "target"}) {
		t.Errorf("the directory holds %v, want out.json, out.png and target", names)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestBenchRulesAndFNUZ: --rules is accepted (and named in the header), the FNUZ types are
// accepted in pairs, and a bad rule set is bad usage.
func TestBenchRulesAndFNUZ(t *testing.T) {
	needKernels(t)
	code, stdout, stderr := runBenchCmd("--pairs", "f32:f8e4m3fnuz,f8e5m2fnuz:f32,f32:f8e4m3", "--sizes", "1Ki", "--threads", "1",
		"--paths", "generic", "--time", "10ms", "--rules", "ml_dtypes")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, s := range []string{"--rules ml_dtypes", "f32:f8e4m3fnuz", "f8e5m2fnuz:f32", "f32:f8e4m3"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("output lacks %q:\n%s", s, stdout)
		}
	}
	code, _, stderr = runBenchCmd("--rules", "tflite", "--time", "10ms")
	if code != exitUsage || !strings.Contains(stderr, `unknown rule set "tflite"`) {
		t.Errorf("--rules tflite: exit %d, stderr %q", code, stderr)
	}
}

// TestBenchBlockPairs: block-scaled pairs measure quant.Dequantize and quant.Quantize beside
// copy() of the same traffic (codes, scales and values), on one goroutine whatever --threads
// says; a block format with a type it does not decode to is bad usage.
func TestBenchBlockPairs(t *testing.T) {
	needKernels(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "b.json")
	code, stdout, stderr := runBenchCmd("--pairs", "mxfp4:f32,f32:mxfp4,nvfp4:bf16,mxfp8e4m3:f32", "--sizes", "1Ki",
		"--threads", "1,2", "--paths", "generic", "--time", "10ms", "--json", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rs []bench.Result
	if err := json.Unmarshal(b, &rs); err != nil {
		t.Fatal(err)
	}
	// Codes (n/2 or n bytes) + scales (n/32 or n/16) + values.
	want := map[string]int64{"mxfp4:f32": 512 + 32 + 4096, "f32:mxfp4": 4096 + 512 + 32, "nvfp4:bf16": 512 + 64 + 2048, "mxfp8e4m3:f32": 1024 + 32 + 4096}
	if len(rs) != len(want) {
		t.Fatalf("%d results, want one per pair at one goroutine:\n%s", len(rs), stdout)
	}
	for _, r := range rs {
		if r.BytesPerOp != want[r.Pair] || r.Threads != 1 || r.CopyGBpsMedian <= 0 {
			t.Errorf("%s: %d bytes/op at %d threads, copy %g GB/s; want %d bytes at 1 thread", r.Pair, r.BytesPerOp, r.Threads, r.CopyGBpsMedian, want[r.Pair])
		}
	}
	for _, bad := range []struct{ pair, want string }{
		{"mxfp4:i8", "decodes to f32, f16 or bf16"},
		{"u8:nvfp4", "quantizes f32, f16 or bf16"},
		{"mxfp4:f99", `unknown element type "f99"`},
	} {
		code, _, stderr := runBenchCmd("--pairs", bad.pair, "--sizes", "1Ki", "--time", "10ms")
		if code != exitUsage || !strings.Contains(stderr, bad.want) {
			t.Errorf("--pairs %s: exit %d, stderr %q; want exit 2 mentioning %q", bad.pair, code, stderr, bad.want)
		}
	}
}
