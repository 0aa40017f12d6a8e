package ir

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// TestCompressRoundTrip goes through the whole life of a compressed model for every mode
// CompressWeights writes: compress the f32/f16 test model, save and read it back, check it,
// recognise each weight with the mode and group it was written with, run it (each weight
// decompressed as one unit, equal to DecompressedData and to the layer-by-layer evaluation),
// decompress it, and run the decompressed model: every weight is then one Const holding what
// run computed from the compressed model, within the mode's error of the original weight.
func TestCompressRoundTrip(t *testing.T) {
	for _, o := range []WeightCompression{
		{Mode: "int8_asym"}, {Mode: "int8_sym"}, {Mode: "int4_asym"}, {Mode: "int4_sym"}, {Mode: "nf4"},
		{Mode: "fp4", GroupSize: 32}, {Mode: "fp8_e4m3", GroupSize: 32}, {Mode: "mxfp4"},
		{Mode: "mxfp8_e4m3"}, {Mode: "nvfp4"},
		{Mode: "int4_asym", GroupSize: 16, AllLayers: true}, {Mode: "mxfp4", AllLayers: true},
	} {
		t.Run(o.Mode+"/"+strconv.Itoa(o.GroupSize)+"/"+pyBool(o.AllLayers), func(t *testing.T) {
			orig := testModel(t)
			m := testModel(t)
			if _, err := CompressWeights(m, o); err != nil {
				t.Fatal(err)
			}
			c := saveAndRead(t, m)
			if _, err := c.Check(); err != nil {
				t.Fatalf("the compressed model does not check: %v", err)
			}
			ws, err := c.CompressedWeights()
			if err != nil {
				t.Fatal(err)
			}
			sites := expectedSites(o)
			found := map[string]*CompressedWeight{}
			for i := range ws {
				found[ws[i].Consumer.Name] = &ws[i]
			}
			for _, s := range sites {
				w := found[s.consumer]
				if w == nil {
					t.Fatalf("no compressed weight recognised before %s", s.consumer)
				}
				if w.Mode != s.mode {
					t.Errorf("%s: recognised as %s, written as %s", s.consumer, w.Mode, s.mode)
				}
				if cols := int(w.Shape[len(w.Shape)-1]); s.group > 0 && w.Group != s.group || s.group < 0 && w.Group != cols {
					t.Errorf("%s: group %d recognised, %d written (row %d)", s.consumer, w.Group, s.group, cols)
				}
			}

			fastByName, fast := runOutputs(t, c)
			slow := layerByLayerOutputs(t, c)
			weights := map[string][]byte{}
			for _, s := range sites {
				w := found[s.consumer]
				got, ok := fast[w.Output.Name]
				if !ok {
					t.Fatalf("run did not compute the weight %s", w.Output.Label())
				}
				data, err := c.DecompressedData(w)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, data) {
					t.Errorf("%s: run and DecompressedData differ", w.Output.Label())
				}
				if !bytes.Equal(got, slow[w.Output.Name]) {
					t.Errorf("%s: the one-unit weight differs from the layer-by-layer evaluation", w.Output.Label())
				}
				weights[w.Output.Name] = got
				checkCloseToOriginal(t, orig, s, w.Type, got)
			}

			d, _ := decompressChecked(t, c, DecompressOptions{}, len(ws))
			left, err := d.CompressedWeights()
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range left {
				// fc2's weight was FP16-compressed before NNCF: its f16 → f32 Convert stays.
				if w.Mode != "fp16" {
					t.Errorf("the decompressed model still has a %s weight before %s", w.Mode, w.Consumer.Label())
				}
			}
			for name, want := range weights {
				got, _ := constDataByName(t, d, name)
				if !bytes.Equal(got, want) {
					t.Errorf("the decompressed Const %s differs from run of the compressed model", name)
				}
			}
			after, _ := runOutputs(t, d)
			for name, b := range after {
				if a, ok := fastByName[name]; ok && !bytes.Equal(a, b) {
					t.Errorf("output %s differs between the compressed and the decompressed model", name)
				}
			}
		})
	}
}

// layerByLayerOutputs runs m with every layer evaluated on its own and returns each layer's
// first output by layer name.
func layerByLayerOutputs(t *testing.T, m *Model) map[string][]byte {
	t.Helper()
	res, err := m.RunWith(nil, RunOptions{layerByLayer: true})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, o := range res.Outputs {
		if _, seen := out[o.Layer.Name]; !seen {
			out[o.Layer.Name] = o.Tensor.Bytes()
		}
	}
	return out
}

// checkCloseToOriginal checks that the decompressed weight of site s (values of type typ) is
// within the quantization error of its mode of the original weight: a bound of each mode's
// coarsest step relative to its group's largest magnitude, loose enough for every rounding
// on the way (f16 scale, f16 products) and tight enough to catch a wrong scale, code or layout.
func checkCloseToOriginal(t *testing.T, orig *Model, s nncfSite, typ element.Type, got []byte) {
	t.Helper()
	w, shape := readOriginal(t, orig, s.name)
	v := make([]float32, len(w))
	if err := kernels.Convert(f32View(v), element.F32, got, typ, len(v)); err != nil {
		t.Fatal(err)
	}
	rel := map[string]float64{
		"int8_asym": 1.0 / 128, "int8_sym": 1.0 / 64, "int4_asym": 1.0 / 8, "int4_sym": 1.0 / 4,
		"nf4": 0.2, "fp4": 0.2, "fp8_e4m3": 1.0 / 16, "mxfp4": 0.4, "mxfp8_e4m3": 1.0 / 8, "nvfp4": 0.3,
	}[s.mode]
	cols := int(shape[1])
	g := s.group
	if g <= 0 {
		g = cols
	}
	for r := 0; r < int(shape[0]); r++ {
		for c0 := 0; c0 < cols; c0 += g {
			var amax float64
			for c := c0; c < c0+g; c++ {
				amax = math.Max(amax, math.Abs(float64(w[r*cols+c])))
			}
			for c := c0; c < c0+g; c++ {
				if d := math.Abs(float64(v[r*cols+c] - w[r*cols+c])); d > rel*amax+1e-6 {
					t.Fatalf("%s [%d,%d]: %g decompressed from %g (%s, group %d): off by %g, more than %g of the group's %g",
						s.name, r, c, v[r*cols+c], w[r*cols+c], s.mode, g, d, rel, amax)
				}
			}
		}
	}
}
