package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/bench"
	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/atomicfile"
	"github.com/convertpromote/convertpromote/kernels"
)

func init() {
	register("bench", "measure cast throughput against copy(), the pure-Go path and x448/float16",
		"convertpromote bench --pairs f32:f16 --sizes 16Ki --time 0.2s", runBench)
}

// defaultBenchPairs are the pairs measured when --pairs is not given.
const defaultBenchPairs = "f32:f16,f16:f32,f32:bf16,bf16:f32,i8:f32,f8e4m3:f16,u4:f32"

const benchUsage = `Usage: convertpromote bench [flags]

Measures conversion throughput for each pair, path, size and thread count, side by side with
copy() of the same bytes in the same run. Throughput counts bytes read + bytes written
(packed types rounded up to whole bytes); GB/s is 10^9 bytes/s. ×copy is the median over the
copy() median of the same traffic, measured in alternating batches; ×generic is the median over
the pure-Go path's median for the same pair, size and threads; spread is (max-min)/median of the
samples (a large spread means the machine was busy: rerun when it is idle).

Pairs name element types (f32:f16) or, on one side, a quantization scheme: a block-scaled
format, mxfp4, mxfp8e4m3, mxfp8e5m2 or nvfp4 (mxfp4:f32 decodes, f32:mxfp4 quantizes; f32, f16
and bf16 values), or an NNCF mode with its group size, which only decodes (int4_asym/128:f16,
int8_sym/4096:f16; int8_asym, int8_sym, int4_asym, int4_sym, nf4, fp4, fp8_e4m3, mxfp4,
mxfp8_e4m3, nvfp4). Their traffic counts the codes, the scales and the zero points; they run on
one goroutine, whatever --threads says.

Paths: avx512, avx2, neon (where the CPU has them and has a kernel for the pair), generic (pure
Go) and x448 (github.com/x448/float16's per-element loop, for f32:f16 and f16:f32 only).
  auto  the best SIMD path with a kernel for the pair, generic, and x448 where it applies
  all   every SIMD path of this CPU with a kernel for the pair, generic, and x448

Flags:
`

const benchExample = `
Examples:
  convertpromote bench --pairs f32:f16 --sizes 16Ki --time 0.2s --json out.json --plot out.png
  convertpromote bench --pairs int4_asym/128:f16,int8_asym/4096:f16 --sizes 16Ki --threads 1 --time 0.2s
`

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("bench", benchUsage)
	pairsFlag := fs.String("pairs", defaultBenchPairs, "comma-separated `FROM:TO` pairs")
	sizesFlag := fs.String("sizes", "1Ki,16Ki,256Ki,4Mi,64Mi", "comma-separated element counts; suffixes Ki, Mi, Gi")
	pathsFlag := fs.String("paths", "auto", "auto, all, or comma-separated paths (avx512, avx2, neon, generic, x448)")
	threadsFlag := fs.String("threads", defaultThreads(), "comma-separated goroutine counts; 0 measures the default policy")
	timeFlag := fs.String("time", "0.5s", "time budget per case (a Go duration)")
	jsonFlag := fs.String("json", "", "write the results as JSON to `FILE`")
	plotFlag := fs.String("plot", "", "draw throughput against size as a PNG chart to `FILE.png`")
	benchstatFlag := fs.Bool("benchstat", false, "print Go benchmark lines (for benchstat) instead of the table")
	rulesFlag := fs.String("rules", "openvino", "rule set of the conversions: openvino, onnx or ml_dtypes (onnx with Cast's defaults)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), benchUsage)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), benchExample)
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		failf(stderr, "bench", "unexpected argument %q (bench takes only flags)", fs.Arg(0))
		return exitUsage
	}

	cases, cfg, rules, err := benchPlan(*pairsFlag, *sizesFlag, *pathsFlag, *threadsFlag, *timeFlag, *plotFlag, *rulesFlag, stderr)
	if err != nil {
		failf(stderr, "bench", "%v", err)
		return exitUsage
	}

	// Open the outputs before the run, so that a path that cannot be written fails at once
	// rather than after minutes of measuring.
	jsonOut, plotOut, err := openBenchOutputs(*jsonFlag, *plotFlag)
	if err != nil {
		failf(stderr, "bench", "%v", err)
		return exitFail
	}
	defer jsonOut.Abort()
	defer plotOut.Abort()

	r := bench.Runner{Config: cfg, Resolve: bench.RulesResolver(rules)}
	if isTerminal(stderr) {
		r.Progress = progressBar(stderr)
	}
	results, err := r.Run(cases)
	if err != nil {
		failf(stderr, "bench", "%v", err)
		return exitFail
	}

	if *benchstatFlag {
		err = bench.WriteBenchstat(stdout, results)
	} else {
		fmt.Fprintf(stdout, "# %s, %s/%s, GOMAXPROCS=%d, --time %s per case, --rules %s\n",
			cpuOrUnknown(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), cfg.Budget, *rulesFlag)
		err = bench.WriteTable(stdout, results)
	}
	if err != nil {
		failf(stderr, "bench", "%v", err)
		return exitFail
	}
	if jsonOut != nil {
		if err := commitOutput(jsonOut, func(w io.Writer) error { return bench.WriteJSON(w, results) }); err != nil {
			failf(stderr, "bench", "--json: %v", err)
			return exitFail
		}
	}
	if plotOut != nil {
		if err := commitOutput(plotOut, func(w io.Writer) error { return bench.WritePlot(w, results) }); err != nil {
			failf(stderr, "bench", "--plot: %v", err)
			return exitFail
		}
	}
	return exitOK
}

// openBenchOutputs opens the --json and --plot outputs that are given (nil for the others).
// Creating their temporary files proves the paths can be written before any time is spent.
func openBenchOutputs(jsonPath, plotPath string) (jsonOut, plotOut *atomicfile.File, err error) {
	if jsonPath != "" && filepath.Clean(jsonPath) == filepath.Clean(plotPath) {
		return nil, nil, fmt.Errorf("--json and --plot name the same file %s", jsonPath)
	}
	if jsonPath != "" {
		if jsonOut, err = createOutput(jsonPath); err != nil {
			return nil, nil, fmt.Errorf("--json: %v", err)
		}
	}
	if plotPath != "" {
		if plotOut, err = createOutput(plotPath); err != nil {
			jsonOut.Abort()
			return nil, nil, fmt.Errorf("--plot: %v", err)
		}
	}
	return jsonOut, plotOut, nil
}

// createOutput starts writing the output path, which must not be a directory.
func createOutput(path string) (*atomicfile.File, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	return atomicfile.Create(path)
}

// commitOutput writes f with write and renames it onto its target; on an error the target is
// left as it was.
func commitOutput(f *atomicfile.File, write func(io.Writer) error) error {
	if err := write(f); err != nil {
		f.Abort()
		return fmt.Errorf("writing %s: %w", f.Path, err)
	}
	return atomicfile.Commit(f)
}

// benchPlan checks every flag and lists the cases, grouped by pair and size so that cases of one
// size share their buffers. Notes about paths left out go to stderr. Every error is bad usage.
func benchPlan(pairsS, sizesS, pathsS, threadsS, timeS, plotS, rulesS string, stderr io.Writer) (cases []bench.Case, cfg bench.Config, rules kernels.Rules, err error) {
	rules.Set, err = kernels.ParseRuleSet(strings.TrimSpace(rulesS))
	if err != nil {
		return nil, cfg, rules, fmt.Errorf("--rules: %w", err)
	}
	budget, err := time.ParseDuration(strings.TrimSpace(timeS))
	if err != nil {
		return nil, cfg, rules, fmt.Errorf("--time %q is not a duration (examples: 0.5s, 200ms, 2s)", timeS)
	}
	if budget <= 0 {
		return nil, cfg, rules, fmt.Errorf("--time %s must be positive", timeS)
	}
	cfg.Budget = budget
	sizes, err := benchcli.ParseSizes(sizesS)
	if err != nil {
		return nil, cfg, rules, fmt.Errorf("--sizes: %w", err)
	}
	threads, err := benchcli.ParseThreads(threadsS)
	if err != nil {
		return nil, cfg, rules, fmt.Errorf("--threads: %w", err)
	}
	if plotS != "" && !strings.EqualFold(filepath.Ext(plotS), ".png") {
		return nil, cfg, rules, fmt.Errorf("--plot %q: the chart is a PNG; give a file name ending in .png", plotS)
	}
	// Check the path names before the pairs (the names do not depend on the pair).
	if _, _, err := benchcli.SelectPaths(strings.TrimSpace(pathsS), element.F32, element.F16); err != nil {
		return nil, cfg, rules, fmt.Errorf("--paths: %w", err)
	}
	pairs, err := benchcli.ParsePairs(pairsS)
	if err != nil {
		return nil, cfg, rules, fmt.Errorf("--pairs: %w", err)
	}
	for _, p := range pairs {
		paths, skipped, err := benchcli.SelectPairPaths(strings.TrimSpace(pathsS), rules, p)
		if err != nil {
			return nil, cfg, rules, fmt.Errorf("--paths: %w", err)
		}
		for _, s := range skipped {
			if s == benchcli.PathX448 {
				fmt.Fprintf(stderr, "convertpromote bench: note: x448 only converts f32:f16 and f16:f32; skipped for %s\n", p)
			} else {
				fmt.Fprintf(stderr, "convertpromote bench: note: path %s has no kernel of its own for %s; skipped\n", s, p)
			}
		}
		for _, n := range sizes {
			if err := bench.CheckCaseSize(bench.Case{From: p.From, To: p.To, N: n, Block: p.Block}, 0); err != nil {
				return nil, cfg, rules, fmt.Errorf("--sizes: %w", err)
			}
			ts := threads
			if p.Block.Group > 0 {
				// Block-scaled operations run on the calling goroutine.
				ts = []int{1}
			}
			for _, t := range ts {
				for _, path := range paths {
					cases = append(cases, bench.Case{From: p.From, To: p.To, Path: path, N: n, Threads: t, Block: p.Block})
				}
			}
		}
	}
	if len(cases) == 0 {
		return nil, cfg, rules, fmt.Errorf("--paths %s: nothing to measure for the pairs given", pathsS)
	}
	return cases, cfg, rules, nil
}

// defaultThreads is "1" plus GOMAXPROCS when that is more than 1.
func defaultThreads() string {
	if n := runtime.GOMAXPROCS(0); n > 1 {
		return "1," + strconv.Itoa(n)
	}
	return "1"
}

func cpuOrUnknown() string {
	if c := benchcli.CPUName(); c != "" {
		return c
	}
	return "unknown CPU"
}

// isTerminal reports whether w is a character device (a terminal), without extra dependencies.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressBar returns a Progress callback that redraws one line on w.
func progressBar(w io.Writer) func(done, total int, next bench.Case) {
	const width = 30
	start := time.Now()
	return func(done, total int, next bench.Case) {
		if done >= total {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		fill := width * done / total
		bar := strings.Repeat("=", fill) + strings.Repeat(" ", width-fill)
		fmt.Fprintf(w, "\r\033[K[%s] %d/%d %s %s n=%s threads=%d (%s)",
			bar, done, total, next.Pair(), next.Path, benchcli.FormatSize(next.N), next.Threads,
			time.Since(start).Round(time.Second))
	}
}
