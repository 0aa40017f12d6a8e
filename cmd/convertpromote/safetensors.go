package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/convertpromote/convertpromote/checkpoint"
	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
)

func init() {
	register("safetensors", "inspect, convert, dequantize or quantize a Hugging Face safetensors checkpoint",
		"convertpromote safetensors convert testdata/safetensors/deepseek-fp8 --to bf16 -o /tmp/deepseek-bf16", runSafetensors)
}

// safetensorsSubcommands are the subcommands of "safetensors", each in its own file.
var safetensorsSubcommands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"info":     safetensorsInfo,
	"convert":  safetensorsConvert,
	"quantize": safetensorsQuantize,
}

const safetensorsUsage = `Usage: convertpromote safetensors SUBCOMMAND [flags] PATH

A checkpoint PATH is a directory (with model.safetensors.index.json, or with .safetensors
files), an index file, or one .safetensors file (docs/safetensors.md).

Subcommands:
  info      shards, tensors, bytes per dtype and quantization scheme of a checkpoint
  convert   cast a checkpoint's float tensors and dequantize its quantized weights
  quantize  quantize a checkpoint's linear weights (FP8 in 128 × 128 blocks)

Run 'convertpromote safetensors SUBCOMMAND -h' for one's flags and examples.
`

func runSafetensors(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, safetensorsUsage)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help", "-help", "help":
		fmt.Fprint(stdout, safetensorsUsage)
		return exitOK
	}
	run, ok := safetensorsSubcommands[args[0]]
	if !ok && strings.HasPrefix(args[0], "-") {
		name, _, _ := strings.Cut(args[0], "=")
		failf(stderr, "safetensors", "unknown flag %s; run 'convertpromote safetensors -h'", name)
		return exitUsage
	}
	if !ok {
		failf(stderr, "safetensors", "unknown subcommand %q (valid: info, convert, quantize); run 'convertpromote safetensors -h'", args[0])
		return exitUsage
	}
	return run(args[1:], stdout, stderr)
}

// skipFlags collects repeated --skip GLOB flags.
type skipFlags []string

func (f *skipFlags) String() string { return strings.Join(*f, " ") }

func (f *skipFlags) Set(v string) error {
	if _, err := path.Match(v, ""); err != nil {
		return fmt.Errorf("--skip %q: %v", v, err)
	}
	*f = append(*f, v)
	return nil
}

// checkpointExit reports a conversion's error: the output would overwrite the input is bad usage
// (exit 2), anything else a failure (exit 1).
func checkpointExit(stderr io.Writer, cmd string, err error) int {
	failf(stderr, cmd, "%v", err)
	if errors.Is(err, checkpoint.ErrSameDir) || isUsage(err) {
		return exitUsage
	}
	return exitFail
}

// progressLine draws a conversion's progress on w, one line rewritten in place at most four
// times a second: bytes done of the total, the rate and the time left. end finishes the line.
type progressLine struct {
	w     io.Writer
	start time.Time
	now   func() time.Time
	mu    sync.Mutex
	last  time.Time
	drawn bool
}

func newProgressLine(w io.Writer, now func() time.Time) *progressLine {
	return &progressLine{w: w, start: now(), now: now}
}

// update is a checkpoint.Progress.
func (p *progressLine) update(done, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.now()
	if p.drawn && t.Sub(p.last) < 250*time.Millisecond && done < total {
		return
	}
	p.last, p.drawn = t, true
	fmt.Fprintf(p.w, "\r%s", progressText(done, total, t.Sub(p.start)))
}

// end ends the line, if one was drawn.
func (p *progressLine) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}

// progressText is the text of the progress line: "1.20 / 4.00 GB (30%)  2.10 GB/s  1s left".
func progressText(done, total int64, elapsed time.Duration) string {
	pct := 100.0
	if total > 0 {
		pct = 100 * float64(done) / float64(total)
	}
	s := fmt.Sprintf("%.2f / %.2f GB (%3.0f%%)", float64(done)/1e9, float64(total)/1e9, pct)
	if sec := elapsed.Seconds(); sec > 0 && done > 0 {
		rate := float64(done) / sec
		left := time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second)
		s += fmt.Sprintf("  %.2f GB/s  %s left", rate/1e9, left)
	}
	return s + "   "
}

// progressFor returns the progress callback of a command: a progress line on stderr when it is
// a terminal and quiet is not set, nil otherwise; end finishes the line.
func progressFor(stderr io.Writer, quiet bool, terminal func(io.Writer) bool) (checkpoint.Progress, func()) {
	if quiet || !terminal(stderr) {
		return nil, func() {}
	}
	p := newProgressLine(stderr, time.Now)
	return p.update, p.end
}

// outputDir checks the -o flag.
func outputDir(o string) error {
	if o == "" {
		return usageErrorf("no output directory: give -o OUTDIR")
	}
	if fi, err := os.Stat(o); err == nil && !fi.IsDir() {
		return usageErrorf("-o %s is not a directory", o)
	}
	return nil
}

// writeFlags are the flags convert and quantize share.
type writeFlags struct {
	out     *string
	threads *int
	quiet   *bool
	skip    skipFlags
}

// addWriteFlags defines -o, --threads, --quiet and --skip (whose help is skipHelp) on fs.
func addWriteFlags(fs *flag.FlagSet, skipHelp string) *writeFlags {
	w := &writeFlags{
		out:     fs.String("o", "", "output directory (created if missing)"),
		threads: fs.Int("threads", convertThreads(), "goroutines converting at once (default: the CPUs, at most 4)"),
		quiet:   fs.Bool("quiet", false, "no progress line"),
	}
	fs.Var(&w.skip, "skip", skipHelp)
	return w
}

// convertThreads is the number of CPUs Go may use, at most 4: a second thread overlaps reading,
// converting and writing, and more add little once the kernel's writes of one file are the
// bound (docs/perf §16), while each takes 16 MiB of buffers.
func convertThreads() int { return min(runtime.GOMAXPROCS(0), 4) }

// writeValueFlags are the flags of convert and quantize that take a value.
var writeValueFlags = map[string]bool{"to": true, "scheme": true, "o": true, "threads": true, "skip": true}

// runWrite checks the positional PATH and the shared flags, runs write with a progress
// callback, and reports what it wrote: the end of convert and quantize.
func runWrite(cmd string, pos []string, w *writeFlags, stdout, stderr io.Writer, write func(path string, progress checkpoint.Progress) (checkpoint.Report, error)) int {
	if len(pos) != 1 {
		failf(stderr, cmd, "give one checkpoint PATH; run 'convertpromote %s -h'", cmd)
		return exitUsage
	}
	if err := outputDir(*w.out); err != nil {
		return checkpointExit(stderr, cmd, err)
	}
	if *w.threads < 1 || *w.threads > 256 {
		failf(stderr, cmd, "--threads %d: give 1 to 256", *w.threads)
		return exitUsage
	}
	progress, end := progressFor(stderr, *w.quiet, isTerminal)
	rep, err := write(pos[0], progress)
	end()
	if err != nil {
		return checkpointExit(stderr, cmd, err)
	}
	fmt.Fprintf(stdout, "wrote %s: %s, %s (%s of tensor data from %s), %s\n", *w.out, count(rep.Shards, "shard"), count(rep.Tensors, "tensor"), benchcli.FormatBytes(rep.OutBytes), benchcli.FormatBytes(rep.InBytes), count(len(rep.Files), "file"))
	return exitOK
}
