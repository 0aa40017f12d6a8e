package ir

import (
	"fmt"
	"strconv"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/op"
	"github.com/convertpromote/convertpromote/promote"
)

// Output is one tensor computed by Run.
type Output struct {
	// Name is the output port's first tensor name, or "LAYER:PORT" when it has none; for a
	// Result fed by a Const or a Parameter, the Result's name.
	Name   string
	Layer  *Layer // the layer that produced it (a ConvertPromoteTypes, Convert or Result)
	Port   int64
	Tensor op.Tensor
}

// RunResult is what Run computed.
type RunResult struct {
	// Outputs lists, in topological order, every output port of an evaluated
	// ConvertPromoteTypes or Convert layer, then every Result fed directly by a Const or a
	// Parameter.
	Outputs []Output
	// Skipped lists the ConvertPromoteTypes and Convert layers that were not evaluated because an
	// input is not constant (a Parameter without a tensor, or a layer type Run does not compute).
	Skipped []*Layer
}

// evaluable are the layer types Run computes.
func evaluable(typ string) bool {
	switch typ {
	case "Const", "Parameter", "Convert", OpType, "Result":
		return true
	}
	return false
}

type portKey struct{ layer, port int64 }

// Run evaluates the model as far as its constant data and the given Parameter tensors allow:
// Const layers (loaded from the .bin), Parameters (inputs, looked up by the layer's name or one
// of its output tensor names), Convert layers (destination_type, converted with package kernels),
// ConvertPromoteTypes layers (op.ConvertPromoteTypes.Evaluate) and Results (pass-through).
// Other layer types are not computed, and neither is anything that depends on them.
//
// The model must pass Check. A Const that a computed layer needs and whose data is missing,
// short or out of range is an error naming it; a Parameter tensor of the wrong type or shape is
// an error; Consts that nothing computed needs are not read.
func (m *Model) Run(inputs map[string]op.Tensor) (*RunResult, error) {
	if _, err := m.Check(); err != nil {
		return nil, err
	}
	byID := map[int64]*Layer{}
	for _, l := range m.Layers {
		byID[l.ID] = l
	}
	order, _ := m.topoOrder(byID)
	into := map[portKey]*Edge{}
	consumers := map[int64][]*Edge{}
	for _, e := range m.Edges {
		into[portKey{e.ToLayer, e.ToPort}] = e
		consumers[e.FromLayer] = append(consumers[e.FromLayer], e)
	}
	// Which layers are worth computing: Converts and operators, the Results they feed, and the
	// evaluable layers upstream of them.
	needed := map[*Layer]bool{}
	for i := len(order) - 1; i >= 0; i-- {
		l := order[i]
		switch {
		case l.Type == "Convert" || l.Type == OpType || l.Type == "Result":
			needed[l] = true
		case evaluable(l.Type):
			for _, e := range consumers[l.ID] {
				if needed[byID[e.ToLayer]] {
					needed[l] = true
				}
			}
		}
	}
	used := map[string]bool{}
	vals := map[portKey]op.Tensor{}
	res := &RunResult{}
	input := func(l *Layer, p *Port) (op.Tensor, bool) {
		e := into[portKey{l.ID, p.ID}]
		if e == nil {
			return op.Tensor{}, false
		}
		t, ok := vals[portKey{e.FromLayer, e.FromPort}]
		return t, ok
	}
	for _, l := range order {
		if !needed[l] {
			continue
		}
		switch l.Type {
		case "Const":
			ci, data, err := m.ConstData(l)
			if err != nil {
				return nil, err
			}
			if ci.Type == element.String {
				continue // strings are not computed on
			}
			t, err := op.FromBytes(ci.Type, ci.Shape, data)
			if err != nil {
				return nil, m.errorf(l.Line, l, "%v", err)
			}
			vals[portKey{l.ID, l.Outputs[0].ID}] = t
		case "Parameter":
			t, name, ok := m.parameterInput(l, inputs)
			if !ok {
				continue
			}
			used[name] = true
			if err := m.checkParameter(l, t); err != nil {
				return nil, err
			}
			for _, p := range l.Outputs {
				vals[portKey{l.ID, p.ID}] = t
			}
		case "Convert":
			in, ok := input(l, l.Inputs[0])
			if !ok {
				res.Skipped = append(res.Skipped, l)
				continue
			}
			dst, _ := l.DataAttr("destination_type")
			to, err := parseType(dst)
			if err != nil {
				return nil, m.errorf(l.Line, l, "destination_type: %v", err)
			}
			out, err := in.Convert(to)
			if err != nil {
				return nil, m.errorf(l.Line, l, "%v", err)
			}
			p := l.Outputs[0]
			vals[portKey{l.ID, p.ID}] = out
			res.Outputs = append(res.Outputs, Output{Name: outputName(l, p), Layer: l, Port: p.ID, Tensor: out})
		case OpType:
			a, okA := input(l, l.Inputs[0])
			b, okB := input(l, l.Inputs[1])
			if !okA || !okB {
				res.Skipped = append(res.Skipped, l)
				continue
			}
			o, err := ParsePromoteAttrs(l)
			if err != nil {
				return nil, m.errorf(l.Line, l, "%v", err)
			}
			oa, ob, err := o.Evaluate(a, b)
			if err != nil {
				return nil, m.errorf(l.Line, l, "%v", err)
			}
			for i, t := range []op.Tensor{oa, ob} {
				p := l.Outputs[i]
				vals[portKey{l.ID, p.ID}] = t
				res.Outputs = append(res.Outputs, Output{Name: outputName(l, p), Layer: l, Port: p.ID, Tensor: t})
			}
		case "Result":
			if len(l.Inputs) == 0 {
				continue
			}
			e := into[portKey{l.ID, l.Inputs[0].ID}]
			if e == nil {
				continue
			}
			t, ok := vals[portKey{e.FromLayer, e.FromPort}]
			if !ok {
				continue
			}
			if src := byID[e.FromLayer]; src.Type == "Const" || src.Type == "Parameter" {
				res.Outputs = append(res.Outputs, Output{Name: l.Name, Layer: l, Port: l.Inputs[0].ID, Tensor: t})
			}
		}
	}
	for name := range inputs {
		if !used[name] {
			return nil, fmt.Errorf("%s: input %q matches no Parameter that a computed layer needs", m.File, name)
		}
	}
	return res, nil
}

// outputName is the port's first tensor name, else "LAYER:PORT".
func outputName(l *Layer, p *Port) string {
	if names := p.NameList(); len(names) > 0 && names[0] != "" {
		return names[0]
	}
	return l.Name + ":" + strconv.FormatInt(p.ID, 10)
}

// parameterInput finds the tensor for a Parameter by its layer name or a tensor name.
func (m *Model) parameterInput(l *Layer, inputs map[string]op.Tensor) (op.Tensor, string, bool) {
	if t, ok := inputs[l.Name]; ok {
		return t, l.Name, true
	}
	for _, p := range l.Outputs {
		for _, n := range p.NameList() {
			if t, ok := inputs[n]; ok {
				return t, n, true
			}
		}
	}
	return op.Tensor{}, "", false
}

// checkParameter checks a fed tensor against the Parameter's element_type and shape.
func (m *Model) checkParameter(l *Layer, t op.Tensor) error {
	if !t.Valid() {
		return m.errorf(l.Line, l, "input tensor is not valid (the zero op.Tensor)")
	}
	if v, ok := l.DataAttr("element_type"); ok {
		if want, err := element.Parse(v); err == nil && want != element.Dynamic && want != t.Type() {
			return m.errorf(l.Line, l, "input tensor has type %s, the Parameter's element_type is %s", t.Type(), want)
		}
	}
	if v, ok := l.DataAttr("shape"); ok {
		if s, err := promote.ParseShape(v); err == nil && !s.DynamicRank && !compatibleDims(t.Shape(), s) {
			return m.errorf(l.Line, l, "input tensor has shape %v, the Parameter's shape is %s", t.Shape(), s)
		}
	}
	return nil
}
