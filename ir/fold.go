package ir

import (
	"slices"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/op"
)

// Fold replaces by Consts the layers that Run computes from constant data alone (Const layers,
// no Parameter), as OpenVINO's constant folding does, node by node as Run computes them:
//   - each computed layer that feeds a layer Fold does not replace (a Result, a MatMul, a layer
//     with a Parameter input) is replaced by one Const per connected output, named as OpenVINO
//     names folded constants: the layer's name for a single output, "<name>.i" for output i of
//     a layer with several (ConvertPromoteTypes: "<op>.0", "<op>.1"). The Const has the output's
//     element type and shape, the output port's tensor names and port rt_info, and a copy of
//     the layer's rt_info; its data is appended to the model's constant data (Save writes it
//     to the .bin);
//   - edges from the replaced outputs now leave the Consts' port 0;
//   - the replaced layers are removed, and so are the layers Run computes or reads (Const,
//     Convert, Subtract, …) that fed only removed layers;
//   - a compressed weight that Run computes as one unit becomes one Const, the weight, named
//     after the subgraph's last layer, and the rest of the subgraph is removed (the same model
//     as folding it layer by layer gives).
//
// It returns the number of layers replaced by Consts. Const data that a fold needs and that is
// missing, short or out of range is an error, as in Run, and so is a malformed compressed
// weight (the Errors of CompressedWeights). Fold is FoldWith with the default
// options (a memory budget of DefaultMaxMemory).
func (m *Model) Fold() (int, error) {
	return m.FoldWith(RunOptions{})
}

// FoldWith is Fold under the options o: before loading or computing anything it adds up the
// tensor data the fold holds (the Const data it loads, every computed output, and the copies
// of the replaced layers' outputs in the model's constant data) and returns a *BudgetError
// when the sum exceeds o.MaxMemory.
func (m *Model) FoldWith(o RunOptions) (int, error) {
	w, err := m.evaluate(nil, o, true)
	if err != nil {
		return 0, err
	}
	var total int
	var outs []walkOutput
	for _, o := range w.outputs {
		if w.frontier[portKey{o.layer.ID, o.port}] {
			outs = append(outs, o)
			total += len(o.t.Bytes())
		}
	}
	if len(outs) == 0 {
		return 0, nil
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
	consts := map[portKey]*Layer{}
	folded := map[int64][]*Layer{} // each replaced layer's Consts, in output order
	for _, o := range outs {
		l := o.layer
		name := l.Name
		if len(l.Outputs) > 1 {
			name += "." + strconv.Itoa(slices.IndexFunc(l.Outputs, func(p *Port) bool { return p.ID == o.port }))
		}
		c, err := m.foldedConst(l, l.Output(o.port), o.t, name, next)
		if err != nil {
			return 0, err
		}
		next++
		hadConsumers[c.ID] = true
		consts[portKey{l.ID, o.port}] = c
		folded[l.ID] = append(folded[l.ID], c)
	}
	// Rewire, drop the edges into replaced layers, then the layers left without consumers.
	edges := m.Edges[:0]
	for _, e := range m.Edges {
		if _, ok := folded[e.ToLayer]; ok {
			continue
		}
		if c, ok := consts[portKey{e.FromLayer, e.FromPort}]; ok {
			e.FromLayer, e.FromPort = c.ID, 0
		}
		edges = append(edges, e)
	}
	m.Edges = edges
	layers := make([]*Layer, 0, len(m.Layers)+len(outs))
	for _, l := range m.Layers {
		if cs, ok := folded[l.ID]; ok {
			layers = append(layers, cs...)
			continue
		}
		layers = append(layers, l)
	}
	m.Layers = layers
	m.pruneDangling(hadConsumers)
	return len(folded), nil
}

// foldedConst builds the Const layer with id that replaces output port out of layer l, holding
// t, and appends t's data to the model's constant data.
func (m *Model) foldedConst(l *Layer, out *Port, t op.Tensor, name string, id int64) (*Layer, error) {
	off, err := m.appendWeights(t.Bytes())
	if err != nil {
		return nil, err
	}
	shape := t.Shape()
	dims := make([]string, len(shape))
	for k, d := range shape {
		dims[k] = strconv.FormatInt(d, 10)
	}
	c := &Layer{
		ID: id, Name: name, Type: "Const", Version: "opset1",
		Data: &Node{Kind: ElementNode, Name: "data", Attrs: []Attr{
			{"element_type", t.Type().String()},
			{"shape", strings.Join(dims, ", ")},
			{"offset", strconv.FormatInt(off, 10)},
			{"size", strconv.Itoa(len(t.Bytes()))},
		}},
		HasOutput: true,
	}
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
	return c, nil
}

// pruneDangling removes the layers that Run reads or computes other than Parameter and Result
// (Const, Convert, Subtract, …) that had consumers before a rewrite and have none now, and then
// those whose only consumers were removed (a Convert's Const), with a work list so that long
// chains cost linear time.
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
		return l != nil && (l.Type == "Const" || computes(l)) && hadConsumers[id] && consumers[id] == 0
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
