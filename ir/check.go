package ir

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/op"
	"github.com/convertpromote/convertpromote/promote"
)

// OpType is the layer type of the operator this package is about.
const OpType = "ConvertPromoteTypes"

// PromoteLayer is what Check found about one ConvertPromoteTypes layer.
type PromoteLayer struct {
	Layer *Layer
	// Body is the layer (Loop, TensorIterator) whose <body> holds Layer, the innermost one for
	// nested bodies; nil for a layer of the model's own graph.
	Body *Layer
	// Op holds the parsed attributes.
	Op op.ConvertPromoteTypes
	// In are the input types and shapes (a type from the input port's precision, else from the
	// producing port's; InKnown[i] is false when neither gives one).
	In      [2]op.Port
	InKnown [2]bool
	// Common is the inferred common type (valid when Err is nil and both inputs are known).
	Common element.Type
	// Err is the inference error, if any.
	Err error
}

// Report summarizes a checked model.
type Report struct {
	// Bin says whether Const offsets and sizes were checked against the .bin: BinChecked is false
	// when the model has no .bin (BinName is then the path that was looked for).
	BinChecked bool
	BinName    string
	BinSize    int64
	// Consts is the number of Const layers.
	Consts int
	// Promotes lists the ConvertPromoteTypes layers in file order.
	Promotes []PromoteLayer
}

// Check validates the model and returns a summary and, when there are problems, an Errors
// listing each as "FILE:LINE: layer ID (NAME): message". It checks:
//   - layer ids and port ids are unique;
//   - every edge goes from an existing output port to an existing input port, every input port
//     has at most one producer, and the precisions at both ends of an edge into a
//     ConvertPromoteTypes input agree;
//   - the graph has no cycle;
//   - static port shapes have an element count that fits int64;
//   - Const layers: element_type, shape, offset and size parse, size covers the shape, the output
//     port agrees, and (when the .bin exists) [offset, offset+size) lies within the .bin;
//   - Parameter and Convert element types parse and agree with their output port;
//   - ConvertPromoteTypes layers: two inputs with ids 0 and 1, two outputs with ids 2 and 3, both
//     inputs connected, attributes known and well-formed, and the declared output precisions and
//     dims equal to what package op infers from the inputs.
//
// The bodies of Loop, TensorIterator and other layers with a <body> are checked the same way
// (their errors end with "[in the body of layer ID (NAME)]"), and their ConvertPromoteTypes
// layers are listed in the report. Run, Fold and Decompose work on the top-level graph only.
func (m *Model) Check() (*Report, error) {
	c := &checker{m: m, rep: &Report{BinName: m.weightsName()}}
	c.run()
	if len(c.errs) > 0 {
		return c.rep, c.errs
	}
	return c.rep, nil
}

type checker struct {
	m     *Model
	rep   *Report
	errs  Errors
	byID  map[int64]*Layer
	bad   map[*Layer]bool // layers whose ports are inconsistent (skip deeper checks)
	feeds map[[2]int64]*Edge
	// ins and outs index every port by (layer id, port id), so that lookups stay O(1) however
	// many ports a layer has.
	ins, outs map[[2]int64]*Port
}

func (c *checker) add(line int, l *Layer, format string, a ...any) {
	c.errs = append(c.errs, c.m.errorf(line, l, format, a...))
}

func (c *checker) addErr(err error) {
	if e, ok := err.(*Error); ok {
		c.errs = append(c.errs, e)
		return
	}
	c.errs = append(c.errs, &Error{File: c.m.File, Msg: err.Error(), Err: err})
}

func (c *checker) run() {
	m := c.m
	c.byID = make(map[int64]*Layer, len(m.Layers))
	c.bad = map[*Layer]bool{}
	c.ins, c.outs = map[[2]int64]*Port{}, map[[2]int64]*Port{}
	for _, l := range m.Layers {
		if first, dup := c.byID[l.ID]; dup {
			c.add(l.Line, l, "duplicate layer id %d (also on line %d)", l.ID, first.Line)
			c.bad[l] = true
			continue
		}
		c.byID[l.ID] = l
		for _, p := range l.Inputs {
			c.ins[[2]int64{l.ID, p.ID}] = p
		}
		for _, p := range l.Outputs {
			c.outs[[2]int64{l.ID, p.ID}] = p
		}
		seen := map[int64]int{}
		for _, p := range append(append([]*Port(nil), l.Inputs...), l.Outputs...) {
			if line, dup := seen[p.ID]; dup {
				c.add(p.Line, l, "duplicate port id %d (also on line %d)", p.ID, line)
				c.bad[l] = true
			}
			seen[p.ID] = p.Line
			if shapeStatic(p.Dims) && len(p.Dims) > 0 {
				if _, err := promote.NumElements(p.Dims); err != nil {
					c.add(p.Line, l, "port %d: %v", p.ID, err)
				}
			}
		}
	}
	c.edges()
	c.cycles()
	size, haveBin, binErr := m.weightsSize()
	if binErr != nil {
		c.add(0, nil, "cannot read %s: %v", m.weightsName(), binErr)
	}
	c.rep.BinChecked, c.rep.BinSize = haveBin, size
	for _, l := range m.Layers {
		switch l.Type {
		case "Const":
			c.rep.Consts++
			c.constLayer(l, haveBin, size)
		case "Parameter":
			c.typedOutput(l, "element_type")
		case "Convert":
			c.typedOutput(l, "destination_type")
		case OpType:
			c.promoteLayer(l)
		}
		c.body(l)
	}
	sort.SliceStable(c.errs, func(i, j int) bool { return c.errs[i].Line < c.errs[j].Line })
}

func shapeStatic(dims []int64) bool {
	for _, d := range dims {
		if d < 0 {
			return false
		}
	}
	return true
}

func (c *checker) edges() {
	c.feeds = map[[2]int64]*Edge{}
	for _, e := range c.m.Edges {
		desc := fmt.Sprintf("edge %d:%d -> %d:%d", e.FromLayer, e.FromPort, e.ToLayer, e.ToPort)
		from, to := c.byID[e.FromLayer], c.byID[e.ToLayer]
		var fromPort, toPort *Port
		if from == nil {
			c.add(e.Line, to, "%s: no layer with id %d", desc, e.FromLayer)
		} else if fromPort = c.outs[[2]int64{e.FromLayer, e.FromPort}]; fromPort == nil {
			if c.ins[[2]int64{e.FromLayer, e.FromPort}] != nil {
				c.add(e.Line, from, "%s: port %d is an input port; an edge must start at an output port", desc, e.FromPort)
			} else {
				c.add(e.Line, from, "%s: the layer has no output port %d", desc, e.FromPort)
			}
		}
		if to == nil {
			c.add(e.Line, from, "%s: no layer with id %d", desc, e.ToLayer)
		} else if toPort = c.ins[[2]int64{e.ToLayer, e.ToPort}]; toPort == nil {
			if c.outs[[2]int64{e.ToLayer, e.ToPort}] != nil {
				c.add(e.Line, to, "%s: port %d is an output port; an edge must end at an input port", desc, e.ToPort)
			} else {
				c.add(e.Line, to, "%s: the layer has no input port %d", desc, e.ToPort)
			}
		}
		if toPort == nil {
			continue
		}
		key := [2]int64{e.ToLayer, e.ToPort}
		if prev, dup := c.feeds[key]; dup {
			c.add(e.Line, to, "input port %d has two producers (edges on lines %d and %d)", e.ToPort, prev.Line, e.Line)
			continue
		}
		c.feeds[key] = e
		if fromPort == nil {
			continue
		}
		ft, fok := fromPort.Type()
		tt, tok := toPort.Type()
		// OpenVINO itself ignores input port precisions; for ConvertPromoteTypes they are the
		// inference's inputs, so there they must agree with the producer.
		if to.Type == OpType && fok && tok && ft != tt {
			c.add(e.Line, to, "%s: input port %d has precision %s but layer %d (%s) port %d produces %s",
				desc, e.ToPort, toPort.Precision, from.ID, from.Name, e.FromPort, fromPort.Precision)
		}
	}
}

// cycles reports the layers that lie on a cycle (Kahn's algorithm: what cannot be sorted).
func (c *checker) cycles() {
	order, rest := c.m.topoOrder(c.byID)
	_ = order
	if len(rest) == 0 {
		return
	}
	names := make([]string, 0, len(rest))
	for i, l := range rest {
		if i == 8 {
			names = append(names, fmt.Sprintf("... (%d layers)", len(rest)))
			break
		}
		names = append(names, strconv.FormatInt(l.ID, 10)+" ("+l.Name+")")
	}
	c.add(rest[0].Line, rest[0], "the graph has a cycle through layers %s", strings.Join(names, ", "))
}

// topoOrder sorts the layers (of byID) so that producers come before consumers, keeping file
// order among independent layers. rest lists layers that cannot be placed (on or after a cycle).
func (m *Model) topoOrder(byID map[int64]*Layer) (order, rest []*Layer) {
	indeg := map[int64]int{}
	out := map[int64][]int64{}
	for _, e := range m.Edges {
		if byID[e.FromLayer] == nil || byID[e.ToLayer] == nil {
			continue
		}
		indeg[e.ToLayer]++
		out[e.FromLayer] = append(out[e.FromLayer], e.ToLayer)
	}
	var queue []*Layer
	for _, l := range m.Layers {
		if byID[l.ID] == l && indeg[l.ID] == 0 {
			queue = append(queue, l)
		}
	}
	placed := map[int64]bool{}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		order = append(order, l)
		placed[l.ID] = true
		for _, t := range out[l.ID] {
			indeg[t]--
			if indeg[t] == 0 {
				queue = append(queue, byID[t])
			}
		}
	}
	for _, l := range m.Layers {
		if byID[l.ID] == l && !placed[l.ID] {
			rest = append(rest, l)
		}
	}
	return order, rest
}

func (c *checker) constLayer(l *Layer, haveBin bool, binSize int64) {
	ci, err := c.m.ConstInfo(l)
	if err != nil {
		c.addErr(err)
		return
	}
	if len(l.Inputs) != 0 || len(l.Outputs) != 1 {
		c.add(l.Line, l, "a Const has no inputs and one output (found %d and %d)", len(l.Inputs), len(l.Outputs))
		return
	}
	out := l.Outputs[0]
	if t, ok := out.Type(); ok && t != ci.Type {
		c.add(out.Line, l, "output port %d has precision %s but element_type is %s", out.ID, out.Precision, ci.Type)
	}
	if !slices.Equal(out.Dims, ci.Shape) {
		c.add(out.Line, l, "output port %d has dims %s but shape is %s", out.ID, dimsString(out.Dims), dimsString(ci.Shape))
	}
	if haveBin && ci.Offset+ci.Size > binSize {
		c.add(l.Line, l, "Const data [%d, %d) runs past the end of %s (%d bytes)", ci.Offset, ci.Offset+ci.Size, c.m.weightsName(), binSize)
	}
}

// typedOutput checks a Parameter's element_type or a Convert's destination_type against its
// output ports (and a Parameter's shape against its port dims).
func (c *checker) typedOutput(l *Layer, attr string) {
	v, ok := l.DataAttr(attr)
	if !ok {
		c.add(l.Line, l, "%s has no %s attribute", l.Type, attr)
		return
	}
	t, err := parseType(v)
	if err != nil {
		c.add(l.Line, l, "%s: %v", attr, err)
		return
	}
	for _, p := range l.Outputs {
		if pt, ok := p.Type(); ok && pt != t && t != element.Dynamic && pt != element.Dynamic {
			c.add(p.Line, l, "output port %d has precision %s but %s is %s", p.ID, p.Precision, attr, t)
		}
	}
	if l.Type == "Parameter" {
		sv, ok := l.DataAttr("shape")
		if !ok {
			return
		}
		s, err := promote.ParseShape(sv)
		if err != nil {
			c.add(l.Line, l, "shape: %v", err)
			return
		}
		for _, p := range l.Outputs {
			if !s.DynamicRank && !compatibleDims(p.Dims, s) {
				c.add(p.Line, l, "output port %d has dims %s but shape is %s", p.ID, dimsString(p.Dims), s)
			}
		}
	}
}

// compatibleDims reports whether port dims can describe shape s: same rank, and a static port
// dim lies within the shape's interval.
func compatibleDims(dims []int64, s promote.Shape) bool {
	if len(dims) != len(s.Dims) {
		return false
	}
	for i, d := range dims {
		if d < 0 {
			continue
		}
		sd := s.Dims[i]
		if d < sd.Min || (sd.Max >= 0 && d > sd.Max) {
			return false
		}
	}
	return true
}

func dimsString(d []int64) string {
	parts := make([]string, len(d))
	for i, v := range d {
		if v < 0 {
			parts[i] = "?"
		} else {
			parts[i] = strconv.FormatInt(v, 10)
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// parsePromoteAttrs reads a ConvertPromoteTypes layer's <data>: promote_unsafe and
// pytorch_scalar_promotion (true, false, 1 or 0) and u64_integer_promotion_target (a lowercase
// element type name); missing attributes take the operator's defaults. An unknown attribute or
// a bad value is an error naming it.
func parsePromoteAttrs(l *Layer) (op.ConvertPromoteTypes, error) {
	o := op.New()
	if l.Data == nil {
		return o, nil
	}
	for _, a := range l.Data.Attrs {
		switch a.Name {
		case "promote_unsafe", "pytorch_scalar_promotion":
			var b bool
			switch a.Value {
			case "true", "1":
				b = true
			case "false", "0":
			default:
				return o, fmt.Errorf("attribute %s=%q is not a boolean (true, false, 1 or 0)", a.Name, a.Value)
			}
			if a.Name == "promote_unsafe" {
				o.PromoteUnsafe = b
			} else {
				o.PyTorchScalarPromotion = b
			}
		case "u64_integer_promotion_target":
			t, err := parseType(a.Value)
			if err != nil {
				return o, fmt.Errorf("attribute %s: %v", a.Name, err)
			}
			if a.Value != t.String() && a.Value != "undefined" {
				return o, fmt.Errorf("attribute %s=%q: element type attributes use the lowercase names (%s)", a.Name, a.Value, t)
			}
			o.U64IntegerPromotionTarget = t
		default:
			return o, fmt.Errorf("unknown attribute %s=%q (ConvertPromoteTypes has promote_unsafe, pytorch_scalar_promotion and u64_integer_promotion_target)", a.Name, clip(a.Value))
		}
	}
	return o, nil
}

// inputOf returns the type and shape that flow into input port p of layer l: the port's own
// precision, else the producing port's; the port's dims, where a port without <dim> is rank 0
// unless its producer is a Parameter of dynamic rank (shape="...").
func (m *Model) inputOf(p *Port, e *Edge, byID map[int64]*Layer, outs map[[2]int64]*Port) (op.Port, bool) {
	t, known := p.Type()
	shape := p.Shape()
	if e != nil {
		if src := byID[e.FromLayer]; src != nil {
			if sp := outs[[2]int64{e.FromLayer, e.FromPort}]; sp != nil {
				if !known {
					t, known = sp.Type()
				}
				if len(p.Dims) == 0 {
					shape = m.outputShape(src, sp)
				}
			}
		}
	}
	return op.Port{Type: t, Shape: shape}, known
}

// outputShape is an output port's shape, with the dynamic rank of a Parameter declared
// shape="..." (which has no <dim>) restored.
func (m *Model) outputShape(l *Layer, p *Port) promote.Shape {
	if len(p.Dims) == 0 && l.Type == "Parameter" {
		if sv, ok := l.DataAttr("shape"); ok {
			if s, err := promote.ParseShape(sv); err == nil && s.DynamicRank {
				return s
			}
		}
	}
	return p.Shape()
}

func (c *checker) promoteLayer(l *Layer) {
	pl := PromoteLayer{Layer: l}
	defer func() { c.rep.Promotes = append(c.rep.Promotes, pl) }()
	o, err := parsePromoteAttrs(l)
	pl.Op = o
	if err != nil {
		pl.Err = err
		line := l.Line
		if l.Data != nil {
			line = l.Data.Line
		}
		c.add(line, l, "%v", err)
		return
	}
	if len(l.Inputs) != 2 || l.Inputs[0].ID != 0 || l.Inputs[1].ID != 1 {
		pl.Err = fmt.Errorf("bad inputs")
		c.add(l.Line, l, "ConvertPromoteTypes needs two input ports with ids 0 and 1 (found %s)", portIDs(l.Inputs))
		return
	}
	if len(l.Outputs) != 2 || l.Outputs[0].ID != 2 || l.Outputs[1].ID != 3 {
		pl.Err = fmt.Errorf("bad outputs")
		c.add(l.Line, l, "ConvertPromoteTypes needs two output ports with ids 2 and 3 (found %s)", portIDs(l.Outputs))
		return
	}
	connected := true
	for i, p := range l.Inputs {
		e := c.feeds[[2]int64{l.ID, p.ID}]
		if e == nil {
			c.add(p.Line, l, "input %d is not connected", i)
			connected = false
		}
		pl.In[i], pl.InKnown[i] = c.m.inputOf(p, e, c.byID, c.outs)
	}
	if !connected {
		pl.Err = fmt.Errorf("input not connected")
		return
	}
	var outs [2]op.Port
	outs[0], outs[1], err = o.Infer(pl.In[0], pl.In[1])
	if err != nil {
		pl.Err = err
		c.add(l.Line, l, "%v", err)
		return
	}
	pl.Common = outs[0].Type
	for i, p := range l.Outputs {
		if pl.InKnown[0] && pl.InKnown[1] {
			if pt, ok := p.Type(); !ok {
				if pl.Common != element.Dynamic {
					c.add(p.Line, l, "output port %d has no precision; %s is inferred", p.ID, pl.Common)
				}
			} else if pt != pl.Common {
				c.add(p.Line, l, "output port %d has precision %s but the inputs (%s, %s) promote to %s",
					p.ID, p.Precision, pl.In[0].Type, pl.In[1].Type, pl.Common)
			}
		}
		if in := l.Inputs[i]; !slices.Equal(p.Dims, in.Dims) {
			c.add(p.Line, l, "output port %d has dims %s but input %d has dims %s (output i keeps input i's shape)",
				p.ID, dimsString(p.Dims), i, dimsString(in.Dims))
		}
	}
}

func portIDs(ps []*Port) string {
	if len(ps) == 0 {
		return "none"
	}
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = strconv.FormatInt(p.ID, 10)
	}
	return strings.Join(ids, ", ")
}

// Body returns the graph in a layer's <body> (Loop, TensorIterator) as a model that shares the
// file and constant data of m, or nil when the layer has none.
func (m *Model) Body(l *Layer) (*Model, error) {
	for _, n := range l.Tail {
		if n.Kind != ElementNode || n.Name != "body" {
			continue
		}
		net := &Node{Kind: ElementNode, Name: "net", Line: n.Line,
			Attrs: []Attr{{"version", strconv.Itoa(m.Version)}}, Children: n.Children}
		sub := &Model{File: m.File, weights: m.weights, appended: m.appended}
		if err := sub.interpret(net); err != nil {
			return nil, err
		}
		return sub, nil
	}
	return nil, nil
}

// body checks the layer's body graph, if it has one.
func (c *checker) body(l *Layer) {
	sub, err := c.m.Body(l)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Msg += " [in the body of " + l.Label() + "]"
		}
		c.addErr(err)
		return
	}
	if sub == nil {
		return
	}
	rep, err := sub.Check()
	c.rep.Consts += rep.Consts
	for _, pl := range rep.Promotes {
		if pl.Body == nil {
			pl.Body = l
		}
		c.rep.Promotes = append(c.rep.Promotes, pl)
	}
	if es, ok := err.(Errors); ok {
		for _, e := range es {
			e.Msg += " [in the body of " + l.Label() + "]"
			c.errs = append(c.errs, e)
		}
	}
}
