package bench

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
	"github.com/convertpromote/convertpromote/element"
)

func plotResults(pairs []benchcli.Pair, threads []int) []Result {
	var rs []Result
	for _, p := range pairs {
		for _, n := range []int{1024, 16384, 262144} {
			for _, th := range threads {
				for i, path := range []string{"avx2", "generic"} {
					c := Case{From: p.From, To: p.To, Path: path, N: n, Threads: th}
					bpo, _, _ := Traffic(p.From, p.To, n)
					op := time.Duration(n*(i+1)) * time.Nanosecond
					m := Measurement{Op: Samples{Iters: 1, Batches: []time.Duration{op, op, op}},
						Copy: Samples{Iters: 1, Batches: []time.Duration{op / 3, op / 3, op / 3}}}
					rs = append(rs, summarize(c, bpo, bpo, m))
				}
			}
		}
	}
	return rs
}

func TestWritePlotPNG(t *testing.T) {
	f32f16 := benchcli.Pair{From: element.F32, To: element.F16}
	i8f32 := benchcli.Pair{From: element.I8, To: element.F32}
	u4f32 := benchcli.Pair{From: element.U4, To: element.F32}
	for _, tc := range []struct {
		pairs   []benchcli.Pair
		threads []int
		w, h    int // pixels: 6×4 inches a chart at 96 dpi, two charts across
	}{
		{[]benchcli.Pair{f32f16}, []int{1}, 576, 384},
		{[]benchcli.Pair{f32f16, i8f32}, []int{1, 2}, 1152, 384},
		{[]benchcli.Pair{f32f16, i8f32, u4f32}, []int{1}, 1152, 768},
	} {
		var b bytes.Buffer
		if err := WritePlot(&b, plotResults(tc.pairs, tc.threads)); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b.Bytes(), []byte("\x89PNG\r\n\x1a\n")) {
			t.Fatalf("%d pairs: output does not start with the PNG signature", len(tc.pairs))
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%d pairs: PNG does not decode: %v", len(tc.pairs), err)
		}
		if r := img.Bounds(); r.Dx() != tc.w || r.Dy() != tc.h {
			t.Errorf("%d pairs: image %dx%d, want %dx%d", len(tc.pairs), r.Dx(), r.Dy(), tc.w, tc.h)
		}
	}
	if err := WritePlot(&bytes.Buffer{}, nil); err == nil {
		t.Error("plotting no results: no error")
	}
}
