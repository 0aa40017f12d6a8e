package ir

import (
	"errors"
	"fmt"
	"slices"

	"github.com/convertpromote/convertpromote/op"
)

// fastSet holds the compressed weights that Run and Fold compute as one unit each, through
// DecompressedData (package quant's group kernels), instead of layer by layer: the same values,
// bit for bit (docs/SEMANTICS.md §9.5), without the intermediate tensors.
type fastSet struct {
	m     *Model
	ws    []*CompressedWeight
	out   map[*Layer]*CompressedWeight // by Output
	inner map[*Layer]*CompressedWeight // the subgraphs' other layers
	// load marks the inner Consts that a layer outside the subgraphs needs: they are loaded
	// and counted as usual.
	load map[*Layer]bool
}

// fastWeights recognises the model's compressed weights and returns those that Run can compute
// as one unit, or nil when there are none. A subgraph that has the form of a compressed weight
// but is malformed is an error (the Errors of CompressedWeights), as `ir check` reports it: a
// layer-by-layer evaluation would either fail on it too or compute something that is no weight.
func (m *Model) fastWeights() (*fastSet, error) {
	ws, err := m.CompressedWeights()
	if err != nil {
		return nil, err
	}
	ptrs := make([]*CompressedWeight, len(ws))
	for i := range ws {
		ptrs[i] = &ws[i]
	}
	return m.newFastSet(ptrs), nil
}

// newFastSet keeps the weights of ws whose subgraph can be replaced by one computation: every
// layer is one Run computes (or a Const), is fed only from inside the subgraph, and feeds only
// layers inside it, except the Output; no layer other than a Const belongs to two weights. A
// codebook read by a Gather-1 or Gather-7 is left to the layer-by-layer evaluation, which
// reports an index past the codebook as those opsets require (DecompressedData gives 0 there,
// as Gather-8 does).
func (m *Model) newFastSet(ws []*CompressedWeight) *fastSet {
	into := map[portKey]*Edge{}
	from := map[int64][]*Edge{}
	byID := map[int64]*Layer{}
	for _, l := range m.Layers {
		byID[l.ID] = l
	}
	for _, e := range m.Edges {
		into[portKey{e.ToLayer, e.ToPort}] = e
		from[e.FromLayer] = append(from[e.FromLayer], e)
	}
	fs := &fastSet{m: m, out: map[*Layer]*CompressedWeight{}, inner: map[*Layer]*CompressedWeight{}}
	taken := map[*Layer]bool{}
	for _, w := range ws {
		if !eligible(w, byID, into, from, taken) {
			continue
		}
		fs.ws = append(fs.ws, w)
		fs.out[w.Output] = w
		for _, l := range w.Layers {
			if l != w.Output {
				fs.inner[l] = w
			}
			if l.Type != "Const" {
				taken[l] = true
			}
		}
	}
	if len(fs.ws) == 0 {
		return nil
	}
	return fs
}

// eligible reports whether w's subgraph can be computed as one unit (see newFastSet).
func eligible(w *CompressedWeight, byID map[int64]*Layer, into map[portKey]*Edge, from map[int64][]*Edge, taken map[*Layer]bool) bool {
	if w.Output == nil || len(w.Output.Outputs) != 1 || !computes(w.Output) {
		return false
	}
	set := map[*Layer]bool{w.Output: true}
	for _, l := range w.Layers {
		set[l] = true
	}
	for l := range set {
		if l.Type == "Const" {
			continue
		}
		if !computes(l) || taken[l] || l.Type == "Gather" && opsetVersion(l) < 8 {
			return false
		}
		for _, p := range l.Inputs {
			e := into[portKey{l.ID, p.ID}]
			if e == nil || !set[byID[e.FromLayer]] {
				return false
			}
		}
		if l == w.Output {
			continue
		}
		for _, e := range from[l.ID] {
			if !set[byID[e.ToLayer]] {
				return false
			}
		}
	}
	return true
}

// prepare marks the inner Consts that a needed layer outside the subgraphs consumes.
func (fs *fastSet) prepare(needed map[*Layer]bool, consumers map[int64][]*Edge, byID map[int64]*Layer) {
	fs.load = map[*Layer]bool{}
	for l := range fs.inner {
		if l.Type != "Const" {
			continue
		}
		for _, e := range consumers[l.ID] {
			c := byID[e.ToLayer]
			if needed[c] && fs.inner[c] == nil && fs.out[c] == nil {
				fs.load[l] = true
			}
		}
	}
}

// without returns the set without weight w.
func (fs *fastSet) without(w *CompressedWeight) *fastSet {
	var ws []*CompressedWeight
	for _, x := range fs.ws {
		if x != w {
			ws = append(ws, x)
		}
	}
	return fs.m.newFastSet(ws)
}

// fastSkipped reports a weight whose subgraph a dry walk could not evaluate layer by layer: it
// is then left to the layer-by-layer evaluation, which lists what it skips.
type fastSkipped struct{ w *CompressedWeight }

func (e *fastSkipped) Error() string {
	return fmt.Sprintf("compressed weight at %s not evaluated", e.w.Output.Label())
}

// walkMark is the state of a walk's lists and sums, to undo the steps of a dry walk through a
// subgraph computed as one unit.
type walkMark struct {
	outputs, skipped         int
	consts, inputs, outBytes int64
}

func (w *walk) mark() walkMark {
	return walkMark{len(w.outputs), len(w.skipped), w.consts, w.inputs, w.outBytes}
}

func (w *walk) restore(k walkMark) {
	w.outputs, w.skipped = w.outputs[:k.outputs], w.skipped[:k.skipped]
	w.consts, w.inputs, w.outBytes = k.consts, k.inputs, k.outBytes
}

// step walks layer l with the weights of fs computed as one unit. A dry walk still works out
// every layer of their subgraphs, so that it finds the errors the layer-by-layer evaluation
// finds without data (declared precisions and dims, shapes, Const ranges), but counts and lists
// only the weight: its Consts as loaded data (Stored), its output, and the scratch memory
// DecompressedData holds. The other walk computes the weight with DecompressedData and skips
// the rest of the subgraph.
func (fs *fastSet) step(w *walk, l *Layer, dry bool, step func(*Layer) error, output func(value)) error {
	cw := fs.out[l]
	if cw == nil {
		if fs.inner[l] == nil || fs.load[l] {
			return step(l)
		}
		if !dry {
			return nil
		}
		k := w.mark()
		if err := step(l); err != nil {
			return err
		}
		if len(w.skipped) > k.skipped {
			return &fastSkipped{fs.inner[l]}
		}
		w.restore(k)
		return nil
	}
	var v value
	if dry {
		k := w.mark()
		if err := step(l); err != nil {
			return err
		}
		if len(w.outputs) != k.outputs+1 {
			return &fastSkipped{cw}
		}
		v = w.outputs[k.outputs].value
		w.restore(k)
		if v.typ != cw.Type || !slices.Equal(v.shape, cw.Shape) {
			return fs.m.errorf(l.Line, l, "the compressed weight is recognised as %s %s but evaluates to %s %s", cw.Type, dimsString(cw.Shape), v.typ, dimsString(v.shape))
		}
		addBytes(&w.consts, cw.Stored)
		addBytes(&w.outBytes, cw.Decompressed())
		addBytes(&w.outBytes, fs.m.decompressScratch(cw))
	} else {
		data, err := fs.m.DecompressedData(cw)
		if err != nil {
			return err
		}
		t, err := op.View(cw.Type, cw.Shape, data)
		if err != nil {
			return fs.m.errorf(l.Line, l, "%v", err)
		}
		v = value{typ: cw.Type, shape: cw.Shape, t: t}
	}
	output(v)
	w.outputs[len(w.outputs)-1].weight = cw
	return nil
}

// fastWalks runs the dry walk and, unless dry only, the computing walk, with the weights of fs
// computed as one unit; a weight whose subgraph the dry walk cannot evaluate is left to the
// layer-by-layer evaluation. check, when not nil, is called between the two walks (the budget).
func (m *Model) fastWalks(inputs map[string]op.Tensor, fold, dryOnly bool, fs *fastSet, check func(*walk) error) (*walk, error) {
	for {
		dry, err := m.walk(inputs, true, fold, fs)
		var sk *fastSkipped
		if errors.As(err, &sk) {
			fs = fs.without(sk.w)
			continue
		}
		if err != nil || dryOnly {
			return dry, err
		}
		if check != nil {
			if err := check(dry); err != nil {
				return nil, err
			}
		}
		return m.walk(inputs, false, fold, fs)
	}
}
