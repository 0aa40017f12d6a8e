package ir

import (
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/op"
)

// Fold replaces every ConvertPromoteTypes layer whose inputs are constant (computable by Run
// from Const layers alone) by two Const layers holding its outputs, as OpenVINO's constant
// folding does:
//   - Const i is named "<op name>.i" (OpenVINO's name for output i of a folded multi-output
//     node), has the common element type, input i's shape, output 2+i's tensor names and port
//     rt_info, and a copy of the operator's layer rt_info; its data is appended to the model's
//     constant data (Save writes it to the .bin);
//   - edges from output 2+i now leave Const i's port 0;
//   - the operator is removed, and so are the Const and Convert layers that fed only it.
//
// It returns the number of operators folded. Const data that a fold needs and that is missing,
// short or out of range is an error, as in Run. Fold is FoldWith with the default options (a
// memory budget of DefaultMaxMemory).
func (m *Model) Fold() (int, error) {
	return m.FoldWith(RunOptions{})
}

// FoldWith is Fold under the options o: before loading or computing anything it adds up the
// tensor data the fold holds (the Const data it loads, the operators' outputs and their copies
// in the model's constant data) and returns a *BudgetError when the sum exceeds o.MaxMemory.
func (m *Model) FoldWith(o RunOptions) (int, error) {
	w, err := m.evaluate(nil, o, true)
	if err != nil {
		return 0, err
	}
	computed := map[portKey]op.Tensor{}
	var total int
	for _, o := range w.outputs {
		computed[portKey{o.layer.ID, o.port}] = o.t
		if o.layer.Type == OpType {
			total += len(o.t.Bytes())
		}
	}
	// One allocation for all the folded data: growing the slice output by output would hold
	// the old and the new backing array at once, beyond the budget.
	if cap(m.appended)-len(m.appended) < total {
		grown := make([]byte, len(m.appended), len(m.appended)+total)
		copy(grown, m.appended)
		m.appended = grown
	}
	hadConsumers := map[int64]bool{}
	for _, e := range m.Edges {
		hadConsumers[e.FromLayer] = true
	}
	next := m.nextLayerID()
	folded := map[int64][2]*Layer{}
	for _, l := range m.Layers {
		if l.Type != OpType {
			continue
		}
		a, okA := computed[portKey{l.ID, l.Outputs[0].ID}]
		b, okB := computed[portKey{l.ID, l.Outputs[1].ID}]
		if !okA || !okB {
			continue
		}
		var pair [2]*Layer
		for i, t := range []op.Tensor{a, b} {
			out := l.Outputs[i]
			off, err := m.appendWeights(t.Bytes())
			if err != nil {
				return 0, err
			}
			shape := t.Shape()
			dims := make([]string, len(shape))
			for k, d := range shape {
				dims[k] = strconv.FormatInt(d, 10)
			}
			c := &Layer{
				ID: next, Name: l.Name + "." + strconv.Itoa(i), Type: "Const", Version: "opset1",
				Data: &Node{Kind: ElementNode, Name: "data", Attrs: []Attr{
					{"element_type", t.Type().String()},
					{"shape", strings.Join(dims, ", ")},
					{"offset", strconv.FormatInt(off, 10)},
					{"size", strconv.Itoa(len(t.Bytes()))},
				}},
				HasOutput: true,
			}
			next++
			for _, h := range l.Head {
				if h.Kind == ElementNode && h.Name == "rt_info" {
					c.Head = append(c.Head, h.Clone())
				}
			}
			prec := out.Precision
			if pt, ok := out.Type(); !ok || pt != t.Type() {
				prec = t.Type().IRPrecision()
			}
			p := &Port{ID: 0, Precision: prec, Names: out.Names, HasNames: out.HasNames,
				Attrs: append([]Attr(nil), out.Attrs...), Dims: shape}
			for _, x := range out.Extra {
				p.Extra = append(p.Extra, x.Clone())
			}
			c.Outputs = []*Port{p}
			pair[i] = c
		}
		folded[l.ID] = pair
	}
	if len(folded) == 0 {
		return 0, nil
	}
	// Rewire, drop the edges into folded operators, then the layers left without consumers.
	byID := map[int64]*Layer{}
	for _, l := range m.Layers {
		byID[l.ID] = l
	}
	edges := m.Edges[:0]
	for _, e := range m.Edges {
		if _, ok := folded[e.ToLayer]; ok {
			continue
		}
		if pair, ok := folded[e.FromLayer]; ok {
			src := byID[e.FromLayer]
			for i := range pair {
				if src.Outputs[i].ID == e.FromPort {
					e.FromLayer, e.FromPort = pair[i].ID, 0
				}
			}
		}
		edges = append(edges, e)
	}
	m.Edges = edges
	layers := make([]*Layer, 0, len(m.Layers)+len(folded))
	for _, l := range m.Layers {
		if pair, ok := folded[l.ID]; ok {
			layers = append(layers, pair[0], pair[1])
			continue
		}
		layers = append(layers, l)
	}
	m.Layers = layers
	m.pruneDangling(hadConsumers)
	return len(folded), nil
}

// pruneDangling removes Const and Convert layers that had consumers before a rewrite and have
// none now, and then those whose only consumers were removed (a Convert's Const), with a work
// list so that long chains cost linear time.
func (m *Model) pruneDangling(hadConsumers map[int64]bool) {
	byID := map[int64]*Layer{}
	for _, l := range m.Layers {
		byID[l.ID] = l
	}
	consumers := map[int64]int{}
	producers := map[int64][]int64{}
	for _, e := range m.Edges {
		consumers[e.FromLayer]++
		producers[e.ToLayer] = append(producers[e.ToLayer], e.FromLayer)
	}
	prunable := func(id int64) bool {
		l := byID[id]
		return l != nil && (l.Type == "Const" || l.Type == "Convert") && hadConsumers[id] && consumers[id] == 0
	}
	drop := map[int64]bool{}
	var work []int64
	for _, l := range m.Layers {
		if prunable(l.ID) {
			work = append(work, l.ID)
		}
	}
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		if drop[id] {
			continue
		}
		drop[id] = true
		for _, p := range producers[id] {
			consumers[p]--
			if !drop[p] && prunable(p) {
				work = append(work, p)
			}
		}
	}
	if len(drop) == 0 {
		return
	}
	layers := m.Layers[:0]
	for _, l := range m.Layers {
		if !drop[l.ID] {
			layers = append(layers, l)
		}
	}
	m.Layers = layers
	edges := m.Edges[:0]
	for _, e := range m.Edges {
		if !drop[e.ToLayer] {
			edges = append(edges, e)
		}
	}
	m.Edges = edges
}
