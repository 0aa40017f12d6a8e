package ir

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/testkit"
	"github.com/convertpromote/convertpromote/quant"
)

var layerByLayer = RunOptions{layerByLayer: true}

// fastFixtures are the models whose compressed weights the fast path is compared on.
func fastFixtures(t *testing.T) []string {
	files, err := filepath.Glob("../testdata/ir/compressed/*.xml")
	if err != nil {
		t.Fatal(err)
	}
	return append(files, "../testdata/ir/eval_ops.xml")
}

// compareFast runs m with the compressed weights computed as one unit and layer by layer, and
// checks that every output of the first is, bit for bit, the output of the same port in the
// second, and that the outputs the first leaves out are the inner layers of its weights. It
// returns the number of weights computed as one unit.
func compareFast(t *testing.T, name string, m *Model) int {
	t.Helper()
	slow, err := m.RunWith(nil, layerByLayer)
	if err != nil {
		t.Fatalf("%s: layer by layer: %v", name, err)
	}
	fast, err := m.Run(nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	byPort := map[portKey]Output{}
	for _, o := range slow.Outputs {
		byPort[portKey{o.Layer.ID, o.Port}] = o
	}
	inner := map[*Layer]bool{}
	weights := 0
	for _, o := range fast.Outputs {
		s, ok := byPort[portKey{o.Layer.ID, o.Port}]
		if !ok {
			t.Errorf("%s: output %s is not computed layer by layer", name, o.Name)
			continue
		}
		delete(byPort, portKey{o.Layer.ID, o.Port})
		if o.Name != s.Name || o.Tensor.Type() != s.Tensor.Type() || !slices.Equal(o.Tensor.Shape(), s.Tensor.Shape()) ||
			!bytes.Equal(o.Tensor.Bytes(), s.Tensor.Bytes()) {
			t.Errorf("%s: output %s: %s%v differs from layer by layer %s %s%v", name, o.Name, o.Tensor.Type(), o.Tensor.Shape(), s.Name, s.Tensor.Type(), s.Tensor.Shape())
		}
		if w := o.Weight; w != nil {
			weights++
			if w.Output != o.Layer {
				t.Errorf("%s: output %s is of %s, its weight ends at %s", name, o.Name, o.Layer.Label(), w.Output.Label())
			}
			for _, l := range w.Layers {
				if l != w.Output {
					inner[l] = true
				}
			}
		}
	}
	for _, s := range byPort {
		if !inner[s.Layer] {
			t.Errorf("%s: output %s is missing, and its layer is in no weight computed as one unit", name, s.Name)
		}
	}
	if !slices.Equal(fast.Skipped, slow.Skipped) || !slices.Equal(fast.Missing, slow.Missing) {
		t.Errorf("%s: skipped %d, missing %d; layer by layer %d, %d", name, len(fast.Skipped), len(fast.Missing), len(slow.Skipped), len(slow.Missing))
	}
	// Plan lists what Run returns.
	p, err := m.Plan(nil)
	if err != nil {
		t.Fatalf("%s: Plan: %v", name, err)
	}
	if len(p.Outputs) != len(fast.Outputs) {
		t.Fatalf("%s: Plan has %d outputs, Run %d", name, len(p.Outputs), len(fast.Outputs))
	}
	for i, po := range p.Outputs {
		o := fast.Outputs[i]
		if po.Name != o.Name || po.Type != o.Tensor.Type() || !slices.Equal(po.Shape, o.Tensor.Shape()) || po.Weight != nil != (o.Weight != nil) {
			t.Errorf("%s: planned %s %s%v, computed %s %s%v", name, po.Name, po.Type, po.Shape, o.Name, o.Tensor.Type(), o.Tensor.Shape())
		}
	}
	return weights
}

// TestRunFastFixtures: on every fixture of compressed weights, Run computes each recognised
// weight as one unit, bit for bit what the layer-by-layer evaluation gives, and Fold produces
// the same model either way.
func TestRunFastFixtures(t *testing.T) {
	for _, f := range fastFixtures(t) {
		m, err := Read(f)
		if err != nil {
			t.Fatal(err)
		}
		ws, err := m.CompressedWeights()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		n := compareFast(t, f, m)
		t.Logf("%s: %d of %d recognised weights computed as one unit", f, n, len(ws))
		if n == 0 || n > len(ws) {
			t.Errorf("%s: %d weights computed as one unit, %d recognised", f, n, len(ws))
		}
		fast, slow := foldBoth(t, f)
		if fast != slow {
			t.Errorf("%s: folded models differ:\n%s\nlayer by layer:\n%s", f, fast, slow)
		}
	}
}

// foldBoth folds the model of file f with the weights computed as one unit and layer by layer,
// and returns both models' XML with every Const's data appended.
func foldBoth(t *testing.T, f string) (fast, slow string) {
	t.Helper()
	var out [2]string
	for i, o := range []RunOptions{{}, layerByLayer} {
		m, err := Read(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.FoldWith(o); err != nil {
			t.Fatalf("%s: FoldWith(%+v): %v", f, o, err)
		}
		var b strings.Builder
		if err := m.Write(&b); err != nil {
			t.Fatal(err)
		}
		for _, l := range m.Layers {
			if l.Type == "Const" {
				_, data, err := m.ConstData(l)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				b.WriteString(l.Name + " " + string(data) + "\n")
			}
		}
		out[i] = b.String()
	}
	return out[0], out[1]
}

// TestRunFastChains: the decompression subgraphs of every NNCF mode and the older layouts with
// random codes, scales and zero points (NaN, infinite and subnormal scales included) give the
// same weight computed as one unit; a subgraph that CompressedWeights finds malformed (here a
// random f32 zero point outside the codes' range) is an error of Run and Fold located at its
// layer, not a silent return to the layer-by-layer evaluation.
func TestRunFastChains(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	malformed := 0
	for _, c := range chainCases(t) {
		for rep := range 4 {
			m, _, _ := chainModel(t, r, c)
			_, cwErr := m.CompressedWeights()
			if cwErr == nil {
				if n := compareFast(t, c.name, m); n != 1 {
					t.Errorf("%s: %d weights computed as one unit", c.name, n)
				}
				continue
			}
			malformed++
			var errs Errors
			if !errors.As(cwErr, &errs) || len(errs) == 0 {
				t.Fatalf("%s: CompressedWeights: %v is not an Errors", c.name, cwErr)
			}
			_, err := m.Run(nil)
			if err == nil || err.Error() != cwErr.Error() || !strings.HasPrefix(err.Error(), "t.xml:") {
				t.Errorf("%s #%d: Run = %v, CompressedWeights = %v", c.name, rep, err, cwErr)
			}
			if _, err := m.Plan(nil); err == nil || err.Error() != cwErr.Error() {
				t.Errorf("%s: Plan = %v", c.name, err)
			}
			if _, err := m.Fold(); err == nil || err.Error() != cwErr.Error() {
				t.Errorf("%s: Fold = %v", c.name, err)
			}
			if _, err := m.RunWith(nil, layerByLayer); err != nil {
				t.Errorf("%s: layer by layer: %v", c.name, err)
			}
		}
	}
	if malformed == 0 {
		t.Error("no malformed subgraph among the chains: the error path is untested")
	}
}

// TestRunFastShared: a subgraph whose intermediate layer also feeds a layer outside it is
// evaluated layer by layer (its intermediate tensor is needed), with the same values.
func TestRunFastShared(t *testing.T) {
	ls := []gl{
		cst("codes", element.U8, []int64{2, 4}, []byte{1, 2, 3, 4, 5, 6, 7, 8}),
		lay("Convert", "codes/convert", element.F16, []int64{2, 4}, "codes").with("destination_type", "f16"),
		cst("scale", element.F16, []int64{2, 1}, f16s(0.5, 2)),
		lay("Multiply", "w", element.F16, []int64{2, 4}, "codes/convert", "scale"),
		lay("Convert", "other", element.F32, []int64{2, 4}, "codes/convert").with("destination_type", "f32"),
	}
	m := buildModel(t, ls, "w", "other")
	ws, err := m.CompressedWeights()
	if err != nil || len(ws) != 1 {
		t.Fatalf("CompressedWeights = %d, %v", len(ws), err)
	}
	if n := compareFast(t, "shared", m); n != 0 {
		t.Errorf("%d weights computed as one unit; the Convert feeds another layer", n)
	}
	// Without the other consumer it is one unit.
	m = buildModel(t, ls[:4], "w")
	if n := compareFast(t, "alone", m); n != 1 {
		t.Errorf("%d weights computed as one unit", n)
	}
}

// TestRunFastMemory: an int4_asym weight of 4096×4096 in groups of 128 (codes 8 MiB, f16 scales
// and u4 zero points 256 KiB and 64 KiB, the f32 weight 64 MiB) runs within a budget just above
// its Consts and weight computed as one unit, while the layer-by-layer evaluation, which holds
// every intermediate tensor (f16 codes, difference, product), needs more than twice that.
func TestRunFastMemory(t *testing.T) {
	oc, g := int64(4096), int64(32)
	if testing.Short() {
		oc = 256
	}
	s, err := quant.NNCF("int4_asym", 128)
	if err != nil {
		t.Fatal(err)
	}
	m, q, n := chainModel(t, rand.New(rand.NewPCG(9, 9)), chainCase{scheme: s, oc: oc, g: g})
	stored := int64(len(q.Codes) + len(q.Scales) + len(q.Zeros))
	weight := int64(4 * n)
	budget := stored + weight + 1<<20
	p, err := m.Plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.ConstBytes != stored || p.OutputBytes < weight || p.Bytes() > budget {
		t.Errorf("Plan: Consts %d (want %d), outputs %d (weight %d), total %d > budget %d", p.ConstBytes, stored, p.OutputBytes, weight, p.Bytes(), budget)
	}
	var res *RunResult
	allocated := testkit.Allocated(func() { res, err = m.RunWith(nil, RunOptions{MaxMemory: budget}) })
	if err != nil {
		t.Fatal(err)
	}
	if allocated > uint64(p.Bytes())+256<<10 {
		t.Errorf("Run allocated %d bytes, more than the Plan's %d + 256 KiB", allocated, p.Bytes())
	}
	t.Logf("budget %d: Run allocated %d bytes, the Plan counts %d", budget, allocated, p.Bytes())
	if len(res.Outputs) != 1 || res.Outputs[0].Weight == nil || res.Outputs[0].Tensor.Type() != element.F32 {
		t.Fatalf("outputs %+v", res.Outputs)
	}
	want := make([]byte, 4*n)
	if err := quant.Dequantize(want, element.F32, q, s, n); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.Outputs[0].Tensor.Bytes(), want) {
		t.Error("the weight differs from quant.Dequantize")
	}
	slow, err := m.plan(nil, layerByLayer)
	if err != nil {
		t.Fatal(err)
	}
	if slow.Bytes() < 2*p.Bytes() {
		t.Errorf("layer by layer needs %d bytes, one unit %d", slow.Bytes(), p.Bytes())
	}
	_, err = m.RunWith(nil, RunOptions{MaxMemory: budget, layerByLayer: true})
	var be *BudgetError
	if !errors.As(err, &be) || be.Need != slow.Bytes() {
		t.Errorf("layer by layer within %d bytes: %v", budget, err)
	}
	// Fold counts the weight twice (its copy in the constant data) and nothing else.
	if _, err := m.FoldWith(RunOptions{MaxMemory: stored + 2*weight + 1<<20}); err != nil {
		t.Error(err)
	}
	if c := m.CountByType(); c["Const"] != 1 || len(m.Layers) != 2 {
		t.Errorf("folded: %v", c)
	}
}

// codebookModel is a codebook weight: f16 codebook [8] → Gather (version, axis 0) by u8
// indexes [4, 8] → × f16 scale [4, 1] → Convert f32.
func codebookModel(t *testing.T, version string, idx []byte) *Model {
	return buildModel(t, []gl{
		cst("cb", element.F16, []int64{8}, f16s(-3, -1.5, -0.5, -0, 0.25, 1, 2, 4)),
		cst("idx", element.U8, []int64{4, 8}, idx),
		cst("axis", element.I64, nil, i64s(0)),
		lay("Gather", "cb/gather", element.F16, []int64{4, 8}, "cb", "idx", "axis").ver(version),
		cst("scale", element.F16, []int64{4, 1}, f16s(0.5, -2, 65504, 3e-8)),
		lay("Multiply", "w", element.F16, []int64{4, 8}, "cb/gather", "scale"),
		lay("Convert", "w/convert", element.F32, []int64{4, 8}, "w").with("destination_type", "f32"),
	}, "w/convert")
}

// TestRunFastCodebook: a codebook read by Gather-8 is computed as one unit, an index past the
// codebook giving 0 as in the layer-by-layer evaluation; with Gather-1 and Gather-7 the subgraph
// is evaluated layer by layer, which reports such an index as an error.
func TestRunFastCodebook(t *testing.T) {
	inRange, past := make([]byte, 32), make([]byte, 32)
	for i := range inRange {
		inRange[i] = byte(i % 8)
		past[i] = byte(i % 11) // 8, 9, 10 are past the codebook
	}
	for _, c := range []struct {
		version string
		idx     []byte
		fast    int
		err     string
	}{
		{"opset8", inRange, 1, ""}, {"opset8", past, 1, ""},
		{"opset1", inRange, 0, ""}, {"opset7", inRange, 0, ""},
		{"opset1", past, 0, "out of range"}, {"opset7", past, 0, "out of range"},
	} {
		m := codebookModel(t, c.version, c.idx)
		if ws, err := m.CompressedWeights(); err != nil || len(ws) != 1 || ws[0].Mode != "codebook" {
			t.Fatalf("%s: CompressedWeights = %+v, %v", c.version, ws, err)
		}
		if c.err != "" {
			_, err := m.Run(nil)
			if err == nil || !strings.Contains(err.Error(), "layer 3 (cb/gather)") || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: Run = %v, want the Gather's error %q", c.version, err, c.err)
			}
			continue
		}
		if n := compareFast(t, c.version, m); n != c.fast {
			t.Errorf("%s: %d weights computed as one unit, want %d", c.version, n, c.fast)
		}
	}
}

// TestRunFastTransposeAllocs: a weight ending in a Transpose (u4 codes [256, 8, 128], u4 zero
// points, f16 scales, Reshape to [256, 1024], Transpose, Convert f32) is computed as one unit;
// Run allocates no more than the Plan counts (beyond a fixed amount for the model's maps), and
// the Plan counts less than the layer-by-layer one.
func TestRunFastTransposeAllocs(t *testing.T) {
	const oc, g, gs = 256, 8, 128
	r := rand.New(rand.NewPCG(13, 14))
	codes, zeros, scales := randBytes(r, oc*g*gs/2), randBytes(r, oc*g/2), make([]byte, 0, 2*oc*g)
	for range oc * g {
		scales = append(scales, f16s(float32(r.Float64()*0.01))...)
	}
	m := buildModel(t, []gl{
		cst("codes", element.U4, []int64{oc, g, gs}, codes),
		lay("Convert", "codes/convert", element.F16, []int64{oc, g, gs}, "codes").with("destination_type", "f16"),
		cst("zp", element.U4, []int64{oc, g, 1}, zeros),
		lay("Convert", "zp/convert", element.F16, []int64{oc, g, 1}, "zp").with("destination_type", "f16"),
		lay("Subtract", "sub", element.F16, []int64{oc, g, gs}, "codes/convert", "zp/convert"),
		cst("scale", element.F16, []int64{oc, g, 1}, scales),
		lay("Multiply", "mul", element.F16, []int64{oc, g, gs}, "sub", "scale"),
		cst("shape", element.I64, []int64{2}, i64s(oc, g*gs)),
		lay("Reshape", "reshape", element.F16, []int64{oc, g * gs}, "mul", "shape").with("special_zero", "false"),
		cst("perm", element.I64, []int64{2}, i64s(1, 0)),
		lay("Transpose", "transpose", element.F16, []int64{g * gs, oc}, "reshape", "perm"),
		lay("Convert", "w", element.F32, []int64{g * gs, oc}, "transpose").with("destination_type", "f32"),
	}, "w")
	if n := compareFast(t, "transpose", m); n != 1 {
		t.Fatalf("%d weights computed as one unit", n)
	}
	p, err := m.Plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := m.plan(nil, layerByLayer)
	if err != nil {
		t.Fatal(err)
	}
	stored := int64(len(codes) + len(zeros) + len(scales))
	if p.ConstBytes != stored || p.Bytes() >= slow.Bytes() {
		t.Errorf("Plan: Consts %d (stored %d), total %d; layer by layer %d", p.ConstBytes, stored, p.Bytes(), slow.Bytes())
	}
	var runErr error
	got := testkit.Allocated(func() { _, runErr = m.Run(nil) })
	if runErr != nil {
		t.Fatal(runErr)
	}
	if got > uint64(p.Bytes())+256<<10 {
		t.Errorf("Run allocated %d bytes, the Plan counts %d", got, p.Bytes())
	}
	t.Logf("Run allocated %d bytes, the Plan counts %d, layer by layer %d", got, p.Bytes(), slow.Bytes())
}

// TestRunFastSharedConst: a Const of the subgraph that a layer outside it also needs (the codes
// converted elsewhere) is loaded for that layer as usual; the weight is still one unit.
func TestRunFastSharedConst(t *testing.T) {
	m := buildModel(t, []gl{
		cst("codes", element.I8, []int64{2, 4}, []byte{1, 0xFF, 3, 4, 0x80, 6, 7, 8}),
		lay("Convert", "codes/convert", element.F16, []int64{2, 4}, "codes").with("destination_type", "f16"),
		cst("scale", element.F16, []int64{2, 1}, f16s(0.5, 2)),
		lay("Multiply", "w", element.F16, []int64{2, 4}, "codes/convert", "scale"),
		lay("Convert", "other", element.I32, []int64{2, 4}, "codes").with("destination_type", "i32"),
	}, "w", "other")
	if n := compareFast(t, "shared const", m); n != 1 {
		t.Fatalf("%d weights computed as one unit", n)
	}
	p, err := m.Plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	// codes and scale for the weight, codes once more for "other"; the f16 weight and the i32.
	if p.ConstBytes != 8+4+8 || p.OutputBytes != 16+32 {
		t.Errorf("Plan: Consts %d, outputs %d", p.ConstBytes, p.OutputBytes)
	}
}

// TestRunFastBigCodebook: a codebook larger than u16 indexes reach is not read by the recognizer
// (Run recognises before it checks its budget): the subgraph is evaluated layer by layer.
func TestRunFastBigCodebook(t *testing.T) {
	const k = 1<<16 + 1
	m := buildModel(t, []gl{
		cst("cb", element.F16, []int64{k}, make([]byte, 2*k)),
		cst("idx", element.U8, []int64{2, 4}, []byte{0, 1, 2, 3, 4, 5, 6, 255}),
		cst("axis", element.I64, nil, i64s(0)),
		lay("Gather", "cb/gather", element.F16, []int64{2, 4}, "cb", "idx", "axis").ver("opset8"),
		cst("scale", element.F16, []int64{2, 1}, f16s(0.5, 2)),
		lay("Multiply", "w", element.F16, []int64{2, 4}, "cb/gather", "scale"),
	}, "w")
	if ws, err := m.CompressedWeights(); err != nil || len(ws) != 0 {
		t.Fatalf("CompressedWeights = %d, %v", len(ws), err)
	}
	if n := compareFast(t, "big codebook", m); n != 0 {
		t.Errorf("%d weights computed as one unit", n)
	}
}

// TestRunFastFallback: a weight whose subgraph the dry walk cannot evaluate (here a Convert of
// an unfed Parameter, put in the set by hand: CompressedWeights finds no such weight) is left to
// the layer-by-layer evaluation, which lists the layer as skipped.
func TestRunFastFallback(t *testing.T) {
	m := buildModel(t, []gl{
		{name: "x", typ: "Parameter", out: element.F16, shape: []int64{2}},
		lay("Convert", "x/convert", element.F32, []int64{2}, "x").with("destination_type", "f32"),
		cst("c", element.F16, []int64{2}, f16s(1, 2)),
		lay("Convert", "c/convert", element.F32, []int64{2}, "c").with("destination_type", "f32"),
	}, "x/convert", "c/convert")
	conv := m.LayerByName("x/convert")
	fs := &fastSet{m: m, ws: []*CompressedWeight{{Output: conv, Layers: []*Layer{conv}, Type: element.F32, Shape: []int64{2}}}}
	fs.out = map[*Layer]*CompressedWeight{conv: fs.ws[0]}
	fs.inner = map[*Layer]*CompressedWeight{}
	w, err := m.fastWalks(nil, false, false, fs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.skipped) != 1 || w.skipped[0] != conv || len(w.outputs) != 1 || w.outputs[0].layer.Name != "c/convert" || w.outputs[0].weight != nil {
		t.Errorf("skipped %v, outputs %+v", w.skipped, w.outputs)
	}
}
