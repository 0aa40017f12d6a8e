package bench

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// WritePlot draws the results as one PNG: one chart per pair (tiled two across, in the order the
// pairs first appear), each with throughput in GB/s (bytes read + written) against the element
// count, both on log axes; one line per path (per path and thread count when the results have
// several thread counts) plus a dashed line for the copy() bound, which is the median of the
// copy medians measured alongside that pair's cases at each size.
func WritePlot(w io.Writer, rs []Result) error {
	if len(rs) == 0 {
		return errors.New("bench: no results to plot")
	}
	var pairs []string
	threadSet := map[int]bool{}
	for _, r := range rs {
		if !slices.Contains(pairs, r.Pair) {
			pairs = append(pairs, r.Pair)
		}
		threadSet[r.Threads] = true
	}
	multiThreads := len(threadSet) > 1

	cols := min(2, len(pairs))
	rows := (len(pairs) + cols - 1) / cols
	plots := make([][]*plot.Plot, rows)
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
	}
	for i, pair := range pairs {
		p, err := pairPlot(pair, rs, multiThreads)
		if err != nil {
			return err
		}
		plots[i/cols][i%cols] = p
	}

	const tileW, tileH = 6 * vg.Inch, 4 * vg.Inch
	img := vgimg.NewWith(vgimg.UseWH(tileW*vg.Length(cols), tileH*vg.Length(rows)), vgimg.UseDPI(96))
	dc := draw.New(img)
	t := draw.Tiles{Rows: rows, Cols: cols,
		PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2,
		PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(plots, t, dc)
	for r := range plots {
		for c := range plots[r] {
			if plots[r][c] != nil {
				plots[r][c].Draw(canvases[r][c])
			}
		}
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// series is one line of a chart.
type series struct {
	label   string
	path    string
	threads int
	xys     plotter.XYs
}

func threadsLabel(t int) string {
	if t == 0 {
		return "default policy"
	}
	if t == 1 {
		return "1 thread"
	}
	return fmt.Sprintf("%d threads", t)
}

func pairPlot(pair string, rs []Result, multiThreads bool) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = pair + " conversion throughput"
	p.X.Label.Text = "elements per conversion (n)"
	p.Y.Label.Text = "GB/s (bytes read + written, 1e9 B/s)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.Add(plotter.NewGrid())

	var lines []*series
	find := func(path string, threads int) *series {
		label := path
		if multiThreads {
			label = fmt.Sprintf("%s, %s", path, threadsLabel(threads))
		}
		for _, s := range lines {
			if s.label == label {
				return s
			}
		}
		s := &series{label: label, path: path, threads: threads}
		lines = append(lines, s)
		return s
	}
	type key struct{ n, threads int }
	copies := map[key][]float64{}
	var sizes, threadList []int
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, r := range rs {
		if r.Pair != pair {
			continue
		}
		s := find(r.Path, r.Threads)
		s.xys = append(s.xys, plotter.XY{X: float64(r.N), Y: r.GBpsMedian})
		k := key{r.N, r.Threads}
		copies[k] = append(copies[k], r.CopyGBpsMedian)
		if !slices.Contains(sizes, r.N) {
			sizes = append(sizes, r.N)
		}
		if !slices.Contains(threadList, r.Threads) {
			threadList = append(threadList, r.Threads)
		}
		ymin, ymax = math.Min(ymin, math.Min(r.GBpsMedian, r.CopyGBpsMedian)), math.Max(ymax, math.Max(r.GBpsMedian, r.CopyGBpsMedian))
	}
	if !(ymin > 0) || math.IsInf(ymax, 0) {
		return nil, fmt.Errorf("bench: %s: throughput must be positive and finite to plot on a log axis", pair)
	}
	var bounds []*series
	var keys []key
	for k := range copies {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.threads != b.threads {
			return a.threads - b.threads
		}
		return a.n - b.n
	})
	for _, k := range keys {
		label := "copy() bound"
		if multiThreads {
			label = fmt.Sprintf("copy() bound, %s", threadsLabel(k.threads))
		}
		var b *series
		for _, s := range bounds {
			if s.label == label {
				b = s
			}
		}
		if b == nil {
			b = &series{label: label}
			bounds = append(bounds, b)
		}
		b.xys = append(b.xys, plotter.XY{X: float64(k.n), Y: Summarize(copies[k]).Median})
	}

	for i, s := range bounds {
		slices.SortFunc(s.xys, func(a, b plotter.XY) int { return cmpFloat(a.X, b.X) })
		l, pts, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return nil, err
		}
		shade := color.Gray{Y: uint8(min(i*60, 180))}
		l.Color = shade
		l.Width = vg.Points(1.5)
		l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		pts.Color = shade
		pts.Shape = draw.CrossGlyph{}
		p.Add(l, pts)
		p.Legend.Add(s.label, l)
	}
	slices.Sort(threadList)
	for _, s := range lines {
		slices.SortFunc(s.xys, func(a, b plotter.XY) int { return cmpFloat(a.X, b.X) })
		l, pts, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return nil, err
		}
		// The same colour and marker for a path in every chart; one dash pattern per thread count.
		c := max(slices.Index(benchcli.PathNames, s.path), 0)
		l.Color = plotutil.Color(c)
		l.Width = vg.Points(1.5)
		l.Dashes = plotutil.Dashes(slices.Index(threadList, s.threads))
		pts.Color = plotutil.Color(c)
		pts.Shape = plotutil.Shape(c)
		p.Add(l, pts)
		p.Legend.Add(s.label, l, pts)
	}
	slices.Sort(sizes)
	var xt plot.ConstantTicks
	for _, n := range sizes {
		xt = append(xt, plot.Tick{Value: float64(n), Label: benchcli.FormatSize(n)})
	}
	p.X.Tick.Marker = xt
	// Room for the legend above the data: the axis reaches 6x the top value.
	p.Y.Min, p.Y.Max = ymin/1.5, ymax*1.2
	p.Y.Tick.Marker = logTicks{}
	p.X.Min, p.X.Max = float64(sizes[0])/1.5, float64(sizes[len(sizes)-1])*1.5
	p.Legend.Top = true
	p.Legend.Left = true
	return p, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// logTicks labels 1, 2 and 5 times each power of ten in range (and marks the other integer
// multiples as minor ticks).
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * base
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = formatTick(v)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

func formatTick(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("%g", v)
	}
	return fmt.Sprintf("%.3g", v)
}
