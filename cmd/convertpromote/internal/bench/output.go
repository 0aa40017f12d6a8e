package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
)

// WriteTable writes the results as an aligned text table, one row per result: the pair and
// path left-aligned, the numbers right-aligned. The last column, spread, is (max-min)/median of
// the conversion's samples in percent: a large spread means the machine was busy.
func WriteTable(w io.Writer, rs []Result) error {
	rows := [][]string{{"pair", "path", "n", "threads", "bytes/op", "GB/s", "min", "max", "ns/elem", "copy GB/s", "×copy", "×generic", "spread"}}
	for _, r := range rs {
		gen := "-"
		if r.RatioGeneric != nil {
			gen = fmt.Sprintf("%.2f", *r.RatioGeneric)
		}
		rows = append(rows, []string{r.Pair, r.Path, benchcli.FormatSize(r.N), threadsCell(r), benchcli.FormatBytes(r.BytesPerOp),
			fmt.Sprintf("%.2f", r.GBpsMedian), fmt.Sprintf("%.2f", r.GBpsMin), fmt.Sprintf("%.2f", r.GBpsMax),
			fmt.Sprintf("%.3f", r.NsPerElem), fmt.Sprintf("%.2f", r.CopyGBpsMedian), fmt.Sprintf("%.2f", r.RatioCopy), gen,
			fmt.Sprintf("%.0f%%", 100*(r.GBpsMax-r.GBpsMin)/r.GBpsMedian)})
	}
	const leftCols = 2 // pair and path
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	bw := bufio.NewWriter(w)
	for _, row := range rows {
		for i, cell := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			switch {
			case i < leftCols:
				bw.WriteString(cell + pad + "  ")
			case i == len(row)-1:
				bw.WriteString(pad + cell + "\n")
			default:
				bw.WriteString(pad + cell + "  ")
			}
		}
	}
	return bw.Flush()
}

// threadsCell is the table's threads column: the count, or for the default policy (0)
// "default=N" with the goroutines it used.
func threadsCell(r Result) string {
	if r.Threads == 0 {
		return "default=" + strconv.Itoa(r.Goroutines)
	}
	return strconv.Itoa(r.Threads)
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

// benchmarkName returns the Go benchmark name of a case:
// "BenchmarkConvert/f32:f16/avx512/n=16384/threads=1".
func benchmarkName(c Case) string {
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
	fmt.Fprintf(bw, "goos: %s\ngoarch: %s\npkg: github.com/convertpromote/convertpromote/cmd/convertpromote/internal/bench\n", runtime.GOOS, runtime.GOARCH)
	if cpu := benchcli.CPUName(); cpu != "" {
		fmt.Fprintf(bw, "cpu: %s\n", cpu)
	}
	for _, r := range rs {
		name := benchmarkName(r.Case)
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
