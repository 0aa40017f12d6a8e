package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the results as an aligned text table, one row per result.
func WriteTable(w io.Writer, rs []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "pair\tpath\tn\tthreads\tbytes/op\tGB/s\tmin\tmax\tns/elem\tcopy GB/s\t×copy\t×generic\t")
	for _, r := range rs {
		gen := "-"
		if r.RatioGeneric != nil {
			gen = fmt.Sprintf("%.2f", *r.RatioGeneric)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%.2f\t%.2f\t%.2f\t%.3f\t%.2f\t%.2f\t%s\t\n",
			r.Pair, r.Path, FormatSize(r.N), r.Threads, formatBytes(r.BytesPerOp),
			r.GBpsMedian, r.GBpsMin, r.GBpsMax, r.NsPerElem, r.CopyGBpsMedian, r.RatioCopy, gen)
	}
	return tw.Flush()
}

// WriteJSON writes the results as an indented JSON array of objects with exactly the fields
// pair, path, n, threads, bytes_per_op, gbps_median, gbps_min, gbps_max, ns_per_elem,
// copy_gbps_median, ratio_copy and ratio_generic (null for the generic path).
func WriteJSON(w io.Writer, rs []Result) error {
	if rs == nil {
		rs = []Result{}
	}
	b, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// BenchmarkName returns the Go benchmark name of a case:
// "BenchmarkConvert/f32:f16/avx512/n=16384/threads=1".
func BenchmarkName(c Case) string {
	return fmt.Sprintf("BenchmarkConvert/%s/%s/n=%d/threads=%d", c.Pair(), c.Path, c.N, c.Threads)
}

// WriteBenchstat writes the results in Go's benchmark format, which benchstat reads: a header
// (goos, goarch, pkg, cpu), then one line per timed batch of each case,
//
//	BenchmarkConvert/f32:f16/avx512/n=16384/threads=1 	     512	     10234 ns/op	 9605.12 MB/s
//
// with the batch's operation count, its nanoseconds per operation and its throughput in MB/s
// (10^6 bytes read + written per second).
func WriteBenchstat(w io.Writer, rs []Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "goos: %s\ngoarch: %s\npkg: github.com/convertpromote/convertpromote/bench\n", runtime.GOOS, runtime.GOARCH)
	if cpu := CPUName(); cpu != "" {
		fmt.Fprintf(bw, "cpu: %s\n", cpu)
	}
	for _, r := range rs {
		name := BenchmarkName(r.Case)
		for _, ns := range r.Samples.NsPerOp() {
			fmt.Fprintf(bw, "%s \t%8d\t%s ns/op\t%8.2f MB/s\n",
				name, r.Samples.Iters, formatNs(ns), float64(r.BytesPerOp)/ns*1e3)
		}
	}
	return bw.Flush()
}

// formatNs writes ns/op as Go's testing package does: whole numbers from 100 ns up, more
// decimals below.
func formatNs(ns float64) string {
	prec := 0
	switch {
	case ns < 10:
		prec = 3
	case ns < 100:
		prec = 2
	}
	return fmt.Sprintf("%10s", strconv.FormatFloat(ns, 'f', prec, 64))
}

// CPUName returns the processor's model name from /proc/cpuinfo, or "" where that is not
// readable.
func CPUName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
