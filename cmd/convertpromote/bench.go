package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/convertpromote/convertpromote/bench"
	"github.com/convertpromote/convertpromote/element"
)

func init() {
	register("bench", "measure cast throughput against copy(), the pure-Go path and x448/float16", runBench)
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

Paths: avx512, avx2, neon (where the CPU has them and has a kernel for the pair), generic (pure
Go) and x448 (github.com/x448/float16's per-element loop, for f32:f16 and f16:f32 only).
  auto  the best SIMD path with a kernel for the pair, generic, and x448 where it applies
  all   every SIMD path of this CPU with a kernel for the pair, generic, and x448

Flags:
`

const benchExample = `
Example:
  convertpromote bench --pairs f32:f16 --sizes 16Ki --time 0.2s --json out.json --plot out.png
`

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pairsFlag := fs.String("pairs", defaultBenchPairs, "comma-separated `FROM:TO` pairs")
	sizesFlag := fs.String("sizes", "1Ki,16Ki,256Ki,4Mi,64Mi", "comma-separated element counts; suffixes Ki, Mi, Gi")
	pathsFlag := fs.String("paths", "auto", "auto, all, or comma-separated paths (avx512, avx2, neon, generic, x448)")
	threadsFlag := fs.String("threads", defaultThreads(), "comma-separated goroutine counts; 0 measures the default policy")
	timeFlag := fs.String("time", "0.5s", "time budget per case (a Go duration)")
	jsonFlag := fs.String("json", "", "write the results as JSON to `FILE`")
	plotFlag := fs.String("plot", "", "draw throughput against size as a PNG chart to `FILE.png`")
	benchstatFlag := fs.Bool("benchstat", false, "print Go benchmark lines (for benchstat) instead of the table")
	printUsage := func(w io.Writer) {
		fmt.Fprint(w, benchUsage)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		fmt.Fprint(w, benchExample)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return exitOK
		}
		fmt.Fprintf(stderr, "convertpromote bench: %v\n", err)
		printUsage(stderr)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "convertpromote bench: unexpected argument %q (bench takes only flags)\n", fs.Arg(0))
		return exitUsage
	}

	cases, cfg, err := benchPlan(*pairsFlag, *sizesFlag, *pathsFlag, *threadsFlag, *timeFlag, *plotFlag, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "convertpromote bench: %v\n", err)
		return exitUsage
	}

	r := bench.Runner{Config: cfg}
	if isTerminal(stderr) {
		r.Progress = progressBar(stderr)
	}
	results, err := r.Run(cases)
	if err != nil {
		fmt.Fprintf(stderr, "convertpromote bench: %v\n", err)
		return exitFail
	}

	if *benchstatFlag {
		err = bench.WriteBenchstat(stdout, results)
	} else {
		fmt.Fprintf(stdout, "# %s, %s/%s, GOMAXPROCS=%d, --time %s per case\n",
			cpuOrUnknown(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), cfg.Budget)
		err = bench.WriteTable(stdout, results)
	}
	if err != nil {
		fmt.Fprintf(stderr, "convertpromote bench: %v\n", err)
		return exitFail
	}
	if *jsonFlag != "" {
		var b bytes.Buffer
		if err := bench.WriteJSON(&b, results); err == nil {
			err = os.WriteFile(*jsonFlag, b.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "convertpromote bench: writing JSON: %v\n", err)
			return exitFail
		}
	}
	if *plotFlag != "" {
		var b bytes.Buffer
		if err := bench.WritePlot(&b, results); err == nil {
			err = os.WriteFile(*plotFlag, b.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "convertpromote bench: writing the chart: %v\n", err)
			return exitFail
		}
	}
	return exitOK
}

// benchPlan checks every flag and lists the cases, grouped by pair and size so that cases of one
// size share their buffers. Notes about paths left out go to stderr. Every error is bad usage.
func benchPlan(pairsS, sizesS, pathsS, threadsS, timeS, plotS string, stderr io.Writer) ([]bench.Case, bench.Config, error) {
	var cfg bench.Config
	budget, err := time.ParseDuration(strings.TrimSpace(timeS))
	if err != nil {
		return nil, cfg, fmt.Errorf("--time %q is not a duration (examples: 0.5s, 200ms, 2s)", timeS)
	}
	if budget <= 0 {
		return nil, cfg, fmt.Errorf("--time %s must be positive", timeS)
	}
	cfg.Budget = budget
	sizes, err := bench.ParseSizes(sizesS)
	if err != nil {
		return nil, cfg, fmt.Errorf("--sizes: %w", err)
	}
	threads, err := bench.ParseThreads(threadsS)
	if err != nil {
		return nil, cfg, fmt.Errorf("--threads: %w", err)
	}
	if plotS != "" && !strings.EqualFold(filepath.Ext(plotS), ".png") {
		return nil, cfg, fmt.Errorf("--plot %q: the chart is a PNG; give a file name ending in .png", plotS)
	}
	// Check the path names before the pairs (the names do not depend on the pair).
	if _, _, err := bench.SelectPaths(strings.TrimSpace(pathsS), element.F32, element.F16); err != nil {
		return nil, cfg, fmt.Errorf("--paths: %w", err)
	}
	pairs, err := bench.ParsePairs(pairsS)
	if err != nil {
		return nil, cfg, fmt.Errorf("--pairs: %w", err)
	}
	var cases []bench.Case
	for _, p := range pairs {
		paths, skipped, err := bench.SelectPaths(strings.TrimSpace(pathsS), p.From, p.To)
		if err != nil {
			return nil, cfg, fmt.Errorf("--paths: %w", err)
		}
		for _, s := range skipped {
			if s == bench.PathX448 {
				fmt.Fprintf(stderr, "convertpromote bench: note: x448 only converts f32:f16 and f16:f32; skipped for %s\n", p)
			} else {
				fmt.Fprintf(stderr, "convertpromote bench: note: path %s has no kernel of its own for %s; skipped\n", s, p)
			}
		}
		for _, n := range sizes {
			if err := bench.CheckSize(p.From, p.To, n, 0); err != nil {
				return nil, cfg, fmt.Errorf("--sizes: %w", err)
			}
			for _, t := range threads {
				for _, path := range paths {
					cases = append(cases, bench.Case{From: p.From, To: p.To, Path: path, N: n, Threads: t})
				}
			}
		}
	}
	if len(cases) == 0 {
		return nil, cfg, fmt.Errorf("--paths %s: nothing to measure for the pairs given", pathsS)
	}
	return cases, cfg, nil
}

// defaultThreads is "1" plus GOMAXPROCS when that is more than 1.
func defaultThreads() string {
	if n := runtime.GOMAXPROCS(0); n > 1 {
		return "1," + strconv.Itoa(n)
	}
	return "1"
}

func cpuOrUnknown() string {
	if c := bench.CPUName(); c != "" {
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
			bar, done, total, next.Pair(), next.Path, bench.FormatSize(next.N), next.Threads,
			time.Since(start).Round(time.Second))
	}
}
