package ir

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// CompressedWeight describes one compressed weight found in a model: a Const of narrow codes
// (or of f16 values) and the decompression subgraph after it, as NNCF and OpenVINO's tools
// write it (docs/SEMANTICS.md §9.5, docs/ir.md "Compressed weights").
type CompressedWeight struct {
	// Mode is NNCF's name for the layout: int8_asym, int8_sym, int4_asym, int4_sym, nf4, fp4,
	// fp8_e4m3, mxfp4, mxfp8_e4m3, nvfp4, codebook; "fp16" for a Const f16 → Convert f32 of
	// FP16 compression; "other" for codes, scales and zero points that decompress like these
	// but in a combination NNCF does not write (u8 codes without a zero point, f8e5m2 codes, ...).
	Mode string
	// Codes is the Const holding the codes (for fp16 the f16 Const; for codebook the indexes),
	// CodeType its element type.
	Codes    *Layer
	CodeType element.Type
	// Scale, Scale2 (nvfp4's second-level scale) and Zero are the Consts of the scale and zero
	// point, nil when absent.
	Scale, Scale2, Zero *Layer
	// Codebook is the codebook Const of Mode "codebook"; Codes are then the indexes into it.
	Codebook *Layer
	// Scheme is how quant.Dequantize computes the weight: the codes' type (for codebook, a type
	// whose codes the codebook's values are re-coded into), the scale's and zero point's types
	// as stored, ScalarZero for a zero point that is one value (a scalar, or a Const holding
	// the same value everywhere, as older NNCF wrote for symmetric modes), the compute type and
	// Scheme.Group elements a scale. Scheme.Group equals Group, except that a group larger than
	// quant's limit (2^20) is split into equal parts that share a scale, and that a codebook
	// whose values no 8-bit code type holds exactly is computed one element a group, its
	// values as f8e4m3 −0 minus a zero point of type C holding −value. The zero Scheme for
	// fp16.
	Scheme quant.Scheme
	// Group is the number of consecutive elements (row-major, before any Transpose) that share
	// a scale: the last axis' length of a grouped [OC, G, GS] layout, the row's length for a
	// per-row scale, the element count for a per-tensor scale; 0 for fp16.
	Group int
	// Layers are every layer of the subgraph except the consumer, the codes Const first: Consts
	// of codes, zero point, scale, second-level scale, codebook, shapes, axes and permutations,
	// and the Convert, Subtract, Multiply, Gather, Reshape, Unsqueeze and Transpose layers.
	Layers []*Layer
	// Output is the last layer of the subgraph; its output port 0 is the weight, of element
	// type Type and shape Shape.
	Output *Layer
	Type   element.Type
	Shape  []int64
	// Transpose is the permutation of a Transpose in the subgraph (applied to the row-major
	// result before it), nil without one.
	Transpose []int64
	// Consumer is the layer that consumes Output (MatMul, Gather, ...), nil if several or none.
	Consumer *Layer
	// Elements is the weight's element count; Stored is the bytes of the Consts that hold the
	// codes, scales, zero points and codebook (as their shapes need them).
	Elements, Stored int64

	codeDims, scaleDims, zeroDims []int64      // shapes, the scale's and zero point's right-aligned to codeDims (1 where they broadcast)
	transposeIn                   []int64      // the shape the Transpose permutes
	zeroValue                     float32      // the zero point's value when it is one value
	recode                        []byte       // codebook: entry → code of Scheme.Code; nil when the values are rebuilt per element (see DecompressedData)
	cbType                        element.Type // the codebook values' type after their Convert (the compute type)
}

// Decompressed returns the bytes of the decompressed weight: Elements values of Type.
func (w *CompressedWeight) Decompressed() int64 {
	n, _ := w.Type.ByteSize(w.Elements)
	return n
}

// cwGraph indexes the top-level graph's edges for the recognizer.
type cwGraph struct {
	m    *Model
	byID map[int64]*Layer
	into map[portKey]*Edge
	outs map[int64][]*Edge
	ints map[*Layer][]int64 // integer Consts read (shapes, axes, permutations)
}

func (m *Model) cwIndex() *cwGraph {
	g := &cwGraph{m: m, byID: make(map[int64]*Layer, len(m.Layers)), into: map[portKey]*Edge{}, outs: map[int64][]*Edge{}, ints: map[*Layer][]int64{}}
	for _, l := range m.Layers {
		if _, dup := g.byID[l.ID]; !dup {
			g.byID[l.ID] = l
		}
	}
	for _, e := range m.Edges {
		if _, dup := g.into[portKey{e.ToLayer, e.ToPort}]; !dup {
			g.into[portKey{e.ToLayer, e.ToPort}] = e
		}
		g.outs[e.FromLayer] = append(g.outs[e.FromLayer], e)
	}
	return g
}

// in returns the layer feeding input i (in port order) of l, or nil.
func (g *cwGraph) in(l *Layer, i int) *Layer {
	if l == nil || i >= len(l.Inputs) {
		return nil
	}
	e := g.into[portKey{l.ID, l.Inputs[i].ID}]
	if e == nil {
		return nil
	}
	return g.byID[e.FromLayer]
}

// consumers returns the edges leaving l.
func (g *cwGraph) consumers(l *Layer) []*Edge { return g.outs[l.ID] }

// errorf builds a located error about l.
func (g *cwGraph) errorf(l *Layer, format string, a ...any) *Error {
	return g.m.errorf(l.Line, l, format, a...)
}

// maxShapeConst bounds the integer Consts (shapes, axes, permutations) the recognizer reads.
const maxShapeConst = 64

// intConst reads an integer Const (i64, i32, u64, u32) of at most maxShapeConst elements.
func (g *cwGraph) intConst(l *Layer) ([]int64, error) {
	if v, ok := g.ints[l]; ok {
		return v, nil
	}
	ci, err := g.m.ConstInfo(l)
	if err != nil {
		return nil, err
	}
	if ci.Elements > maxShapeConst {
		return nil, g.errorf(l, "a shape, axes or permutation Const of %d elements (at most %d)", ci.Elements, maxShapeConst)
	}
	var w int
	switch ci.Type {
	case element.I64, element.U64:
		w = 8
	case element.I32, element.U32:
		w = 4
	default:
		return nil, g.errorf(l, "a shape, axes or permutation Const must be i64 or i32, not %s", ci.Type)
	}
	_, b, err := g.m.ConstData(l)
	if err != nil {
		return nil, err
	}
	out := make([]int64, ci.Elements)
	for i := range out {
		switch ci.Type {
		case element.I64:
			out[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
		case element.U64:
			out[i] = int64(min(binary.LittleEndian.Uint64(b[8*i:]), math.MaxInt64))
		case element.I32:
			out[i] = int64(int32(binary.LittleEndian.Uint32(b[w*i:])))
		default:
			out[i] = int64(binary.LittleEndian.Uint32(b[w*i:]))
		}
	}
	g.ints[l] = out
	return out, nil
}

// destType returns a Convert's destination_type.
func destType(l *Layer) (element.Type, bool) {
	v, ok := l.DataAttr("destination_type")
	if !ok {
		return element.Dynamic, false
	}
	t, err := parseType(v)
	return t, err == nil && t != element.Dynamic
}

// constInput returns the Const feeding input i of l, or nil.
func (g *cwGraph) constInput(l *Layer, i int) *Layer {
	if c := g.in(l, i); c != nil && c.Type == "Const" {
		return c
	}
	return nil
}

// branch is a constant input of the subgraph: a Const, at most one Convert, and Reshape and
// Unsqueeze layers with constant shapes or axes, in any order.
type branch struct {
	c      *Layer
	ci     ConstInfo
	conv   element.Type // the Convert's destination, Dynamic without one
	dims   []int64      // the shape after Reshape and Unsqueeze
	layers []*Layer     // the Const first, then the layers in data order (with shape Consts)
}

// valueType is the type the branch delivers.
func (b *branch) valueType() element.Type {
	if b.conv != element.Dynamic {
		return b.conv
	}
	return b.ci.Type
}

// maxBranch bounds the layers of a constant branch.
const maxBranch = 8

// constBranch parses the branch ending at l. ok is false when it is not of that form.
func (g *cwGraph) constBranch(l *Layer) (b *branch, ok bool, err error) {
	var ops []*Layer
	for l != nil && l.Type != "Const" {
		switch l.Type {
		case "Convert", "Reshape", "Unsqueeze":
		default:
			return nil, false, nil
		}
		if len(ops) == maxBranch {
			return nil, false, nil
		}
		ops = append(ops, l)
		l = g.in(l, 0)
	}
	if l == nil {
		return nil, false, nil
	}
	ci, err := g.m.ConstInfo(l)
	if err != nil {
		return nil, false, err
	}
	b = &branch{c: l, ci: ci, conv: element.Dynamic, dims: ci.Shape, layers: []*Layer{l}}
	for i := len(ops) - 1; i >= 0; i-- {
		op := ops[i]
		switch op.Type {
		case "Convert":
			t, tok := destType(op)
			if !tok || b.conv != element.Dynamic {
				return nil, false, nil
			}
			b.conv = t
		default:
			sc := g.constInput(op, 1)
			if sc == nil {
				return nil, false, nil
			}
			if b.dims, err = g.shapeOp(op, sc, b.dims); err != nil {
				return nil, false, err
			}
			b.layers = append(b.layers, sc)
		}
		b.layers = append(b.layers, op)
	}
	return b, true, nil
}

// shapeOp computes the output shape of a Reshape or Unsqueeze on in with its constant second
// input sc.
func (g *cwGraph) shapeOp(op, sc *Layer, in []int64) ([]int64, error) {
	v, err := g.intConst(sc)
	if err != nil {
		return nil, err
	}
	if op.Type == "Unsqueeze" {
		out, err := unsqueezeShape(in, v)
		if err != nil {
			return nil, g.errorf(op, "Unsqueeze of %s: %v", dimsString(in), err)
		}
		return out, nil
	}
	sz, _ := op.DataAttr("special_zero")
	out, err := reshapeShape(in, v, sz == "true" || sz == "1")
	if err != nil {
		return nil, g.errorf(op, "Reshape: %v", err)
	}
	return out, nil
}

// intsString formats the values of a shape Const as "[4,-1]".
func intsString(v []int64) string {
	return "[" + strings.ReplaceAll(strings.Trim(fmt.Sprint(v), "[]"), " ", ",") + "]"
}

// count is the element count of dims (dims are checked against overflow by ConstInfo and the
// shape ops).
func count(dims []int64) int64 {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	return n
}

// constant reports whether every input reaching l comes from Consts (at most depth layers up).
func (g *cwGraph) constant(l *Layer, depth int) bool {
	if l == nil || depth == 0 {
		return false
	}
	switch l.Type {
	case "Const":
		return true
	case "Parameter", "ReadValue", "Result":
		return false
	}
	if len(l.Inputs) == 0 {
		return false
	}
	for i := range l.Inputs {
		if !g.constant(g.in(l, i), depth-1) {
			return false
		}
	}
	return true
}

// codesSide is the codes input of the Multiply: Convert(Const codes), Subtract of a zero point
// from it, or a Gather of a codebook.
type codesSide struct {
	codes    *Layer
	ci       ConstInfo
	compute  element.Type // the type the codes are converted to (the codebook's values' type)
	zero     *branch
	sub      *Layer
	codebook *branch
	layers   []*Layer
}

// supportedCode reports whether quant takes t as codes.
func supportedCode(t element.Type) bool {
	switch t {
	case element.U8, element.I8, element.U4, element.I4, element.NF4, element.F4E2M1, element.F8E4M3, element.F8E5M2:
		return true
	}
	return false
}

// codeLike reports whether a Const of type t converted to a float and multiplied by a scale
// looks like compressed codes: the supported code types and the other narrow integer types.
func codeLike(t element.Type) bool {
	switch t {
	case element.U1, element.U2, element.U3, element.U6, element.I16, element.U16, element.F8E8M0:
		return true
	}
	return supportedCode(t)
}

// convertedConst parses Convert(Const) with a code-like Const converted to f16 or f32.
func (g *cwGraph) convertedConst(l *Layer) (*codesSide, error) {
	if l == nil || l.Type != "Convert" {
		return nil, nil
	}
	c := g.constInput(l, 0)
	t, ok := destType(l)
	if c == nil || !ok || t != element.F16 && t != element.F32 {
		return nil, nil
	}
	ci, err := g.m.ConstInfo(c)
	if err != nil {
		return nil, err
	}
	if !codeLike(ci.Type) {
		return nil, nil
	}
	return &codesSide{codes: c, ci: ci, compute: t, layers: []*Layer{c, l}}, nil
}

// codesInput parses the codes side of a Multiply ending at l; nil when it has none of the forms.
func (g *cwGraph) codesInput(l *Layer) (*codesSide, error) {
	if l == nil {
		return nil, nil
	}
	switch l.Type {
	case "Convert":
		return g.convertedConst(l)
	case "Subtract":
		cs, err := g.convertedConst(g.in(l, 0))
		if cs == nil || err != nil || len(l.Inputs) != 2 {
			return nil, err
		}
		z, ok, err := g.constBranch(g.in(l, 1))
		if !ok || err != nil {
			return nil, err
		}
		switch z.ci.Type {
		case element.U8, element.U4, element.I8, element.F16, element.F32:
		default:
			return nil, nil
		}
		cs.zero, cs.sub = z, l
		cs.layers = append(append(cs.layers, z.layers...), l)
		return cs, nil
	case "Gather":
		return g.codebookInput(l)
	}
	return nil, nil
}

// codebookInput parses Gather(codebook, indexes, axis 0): the codebook a rank-1 f16 or f32
// Const, possibly converted from another float type; the indexes a u8 or u16 Const, or u4
// converted to u8.
func (g *cwGraph) codebookInput(l *Layer) (*codesSide, error) {
	if len(l.Inputs) != 3 {
		return nil, nil
	}
	if bd, ok := l.DataAttr("batch_dims"); ok && strings.TrimSpace(bd) != "0" {
		return nil, nil
	}
	cb, ok, err := g.constBranch(g.in(l, 0))
	if !ok || err != nil {
		return nil, err
	}
	ct := cb.valueType()
	if len(cb.dims) != 1 || ct != element.F16 && ct != element.F32 || !cb.ci.Type.IsReal() {
		return nil, nil
	}
	// u8 and u16 indexes reach at most 2^16 entries; a larger Const is left to the
	// layer-by-layer evaluation, which counts it in its budget before reading it.
	if cb.ci.Elements > 1<<16 {
		return nil, nil
	}
	idx := g.in(l, 1)
	var layers []*Layer
	if idx != nil && idx.Type == "Convert" {
		if t, _ := destType(idx); t != element.U8 {
			return nil, nil
		}
		layers = append(layers, idx)
		idx = g.constInput(idx, 0)
	}
	axis := g.constInput(l, 2)
	if idx == nil || idx.Type != "Const" || axis == nil {
		return nil, nil
	}
	ci, err := g.m.ConstInfo(idx)
	if err != nil {
		return nil, err
	}
	if !(ci.Type == element.U8 || ci.Type == element.U16 || ci.Type == element.U4 && len(layers) == 1) {
		return nil, nil
	}
	a, err := g.intConst(axis)
	if err != nil {
		return nil, err
	}
	if len(a) != 1 || a[0] != 0 && a[0] != -1 {
		return nil, nil
	}
	cs := &codesSide{codes: idx, ci: ci, compute: ct, codebook: cb}
	cs.layers = append(append(append([]*Layer{idx}, layers...), cb.layers...), axis, l)
	return cs, nil
}

// scaleSide is the scale input of the Multiply.
type scaleSide struct {
	b      *branch
	scale2 *branch
	vt     element.Type // the type delivered to the Multiply
	layers []*Layer
}

// scaleInput parses the scale input: a constant branch, or NVFP4's Convert(Multiply(Convert
// f32 of the scale, f32 second-level scale)).
func (g *cwGraph) scaleInput(l *Layer) (*scaleSide, bool, error) {
	if l != nil && l.Type == "Convert" {
		if inner := g.in(l, 0); inner != nil && inner.Type == "Multiply" && len(inner.Inputs) == 2 {
			t, ok := destType(l)
			if !ok {
				return nil, false, nil
			}
			for side := 0; side < 2; side++ {
				s, ok1, err := g.constBranch(g.in(inner, side))
				if err != nil {
					return nil, false, err
				}
				s2, ok2, err := g.constBranch(g.in(inner, 1-side))
				if err != nil {
					return nil, false, err
				}
				if !ok1 || !ok2 || s.conv != element.F32 || s2.valueType() != element.F32 || s2.conv != element.Dynamic {
					continue
				}
				if count(s2.dims) != 1 {
					return nil, false, g.errorf(s2.c, "the second-level scale must hold one value, not shape %s", dimsString(s2.dims))
				}
				return &scaleSide{b: s, scale2: s2, vt: t, layers: append(append(append(s.layers, s2.layers...), inner), l)}, true, nil
			}
		}
	}
	b, ok, err := g.constBranch(l)
	if !ok || err != nil {
		return nil, false, err
	}
	return &scaleSide{b: b, vt: b.valueType(), layers: b.layers}, true, nil
}

// scaleType reports whether quant takes t as scales.
func scaleType(t element.Type) bool {
	switch t {
	case element.F16, element.BF16, element.F32, element.F8E8M0, element.F8E4M3:
		return true
	}
	return false
}

// CompressedWeights finds every compressed weight of the model's top-level graph (not inside
// Loop or TensorIterator bodies): the layouts docs/ir.md lists, from NNCF's current subgraph
// and its older ones, codebooks, and FP16 compression. It reads the small Consts of each
// subgraph (shapes, axes, permutations, zero points, codebooks, second-level scales) but not
// the codes or scales. A subgraph that has the form of a compressed weight but cannot be one
// (a scale or zero point whose shape does not broadcast onto the codes, a group that does not
// divide the row, a zero point outside the codes' range, codes of a type quant does not take,
// a Reshape that changes the element count, types that disagree) is an error located at its
// layer; the returned error is an Errors, and the weights found are returned with it.
func (m *Model) CompressedWeights() ([]CompressedWeight, error) {
	g := m.cwIndex()
	var found []*CompressedWeight
	var errs Errors
	add := func(err error) {
		if e, ok := err.(*Error); ok {
			errs = append(errs, e)
		} else {
			errs = append(errs, m.errorf(0, nil, "%v", err))
		}
	}
	for _, l := range m.Layers {
		if l.Type != "Multiply" || g.byID[l.ID] != l {
			continue
		}
		w, err := g.matchMultiply(l)
		if err != nil {
			add(err)
			continue
		}
		if w != nil {
			found = append(found, w)
		}
	}
	// A Multiply inside another weight's subgraph (NVFP4's scale times its second-level scale)
	// is part of that weight.
	owner := map[*Layer]*CompressedWeight{}
	for _, w := range found {
		for _, l := range w.Layers[1:] {
			owner[l] = w
		}
	}
	claimed := map[*Layer]bool{}
	var out []CompressedWeight
	for _, w := range found {
		if o := owner[w.Output]; o == nil || o == w {
			out = append(out, *w)
			for _, l := range w.Layers {
				claimed[l] = true
			}
		}
	}
	for _, l := range m.Layers {
		if l.Type != "Convert" || claimed[l] || g.byID[l.ID] != l {
			continue
		}
		w, err := g.matchFP16(l)
		if err != nil {
			add(err)
		} else if w != nil {
			out = append(out, *w)
		}
	}
	slices.SortStableFunc(out, func(a, b CompressedWeight) int { return a.Codes.Line - b.Codes.Line })
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(a, b *Error) int { return a.Line - b.Line })
		return out, errs
	}
	return out, nil
}

// matchFP16 recognizes Const f16 → Convert f32.
func (g *cwGraph) matchFP16(l *Layer) (*CompressedWeight, error) {
	c := g.constInput(l, 0)
	if t, ok := destType(l); c == nil || !ok || t != element.F32 {
		return nil, nil
	}
	ci, err := g.m.ConstInfo(c)
	if err != nil || ci.Type != element.F16 {
		return nil, err
	}
	w := &CompressedWeight{Mode: "fp16", Codes: c, CodeType: element.F16, Layers: []*Layer{c, l}, Output: l,
		Type: element.F32, Shape: ci.Shape, Elements: ci.Elements, Stored: ci.Need, codeDims: ci.Shape}
	if err := g.checkOutput(w); err != nil {
		return nil, err
	}
	w.Consumer = g.soleConsumer(l)
	return w, nil
}

// soleConsumer returns the one layer l feeds, or nil.
func (g *cwGraph) soleConsumer(l *Layer) *Layer {
	if es := g.consumers(l); len(es) == 1 {
		return g.byID[es[0].ToLayer]
	}
	return nil
}

// matchMultiply recognizes the subgraph whose Multiply is mul.
func (g *cwGraph) matchMultiply(mul *Layer) (*CompressedWeight, error) {
	if len(mul.Inputs) != 2 {
		return nil, nil
	}
	for side := 0; side < 2; side++ {
		cs, err := g.codesInput(g.in(mul, side))
		if err != nil {
			return nil, err
		}
		if cs == nil {
			continue
		}
		other := g.in(mul, 1-side)
		ss, ok, err := g.scaleInput(other)
		if err != nil {
			return nil, err
		}
		if !ok {
			if g.constant(other, 16) && (cs.zero != nil || cs.codebook != nil) {
				return nil, g.errorf(mul, "the scale (input %d) is constant but not a Const with at most one Convert and Reshape or Unsqueeze layers", 1-side)
			}
			continue
		}
		if !scaleType(ss.b.ci.Type) {
			continue
		}
		return g.build(mul, cs, ss)
	}
	return nil, nil
}

// build checks a matched subgraph and describes it.
func (g *cwGraph) build(mul *Layer, cs *codesSide, ss *scaleSide) (*CompressedWeight, error) {
	C := cs.compute
	if cs.codebook == nil && !supportedCode(cs.ci.Type) {
		return nil, g.errorf(cs.codes, "codes of type %s are not supported (u8, i8, u4, i4, nf4, f4e2m1, f8e4m3 or f8e5m2)", cs.ci.Type)
	}
	if ss.vt != C {
		return nil, g.errorf(mul, "the scale reaches the Multiply as %s but the codes as %s", ss.vt, C)
	}
	if cs.zero != nil && cs.zero.valueType() != C {
		return nil, g.errorf(cs.sub, "the zero point reaches the Subtract as %s but the codes as %s", cs.zero.valueType(), C)
	}
	w := &CompressedWeight{Codes: cs.codes, CodeType: cs.ci.Type, Scale: ss.b.c, codeDims: cs.ci.Shape}
	layers := append(append([]*Layer(nil), cs.layers...), ss.layers...)
	layers = append(layers, mul)
	w.Layers = dedupe(layers)
	if ss.scale2 != nil {
		w.Scale2 = ss.scale2.c
	}
	if cs.zero != nil {
		w.Zero = cs.zero.c
	}
	if cs.codebook != nil {
		w.Codebook = cs.codebook.c
	}
	dims := cs.ci.Shape
	n := cs.ci.Elements
	var err error
	if w.scaleDims, err = g.alignDims(mul, "scale", ss.b.dims, dims); err != nil {
		return nil, err
	}
	scalarZero := false
	if cs.zero != nil {
		if w.zeroDims, err = g.alignDims(cs.sub, "zero point", cs.zero.dims, dims); err != nil {
			return nil, err
		}
		if scalarZero, w.zeroValue, err = g.checkZero(cs); err != nil {
			return nil, err
		}
	}
	// The group is the run of trailing axes along which neither the scale nor the zero point
	// varies.
	a0 := len(dims)
	for a0 > 0 && w.scaleDims[a0-1] == 1 && (cs.zero == nil || scalarZero || w.zeroDims[a0-1] == 1) {
		a0--
	}
	group := count(dims[a0:])
	if n == 0 {
		group = 1
	}
	if group > math.MaxInt32 {
		return nil, g.errorf(mul, "a group of %d elements is too large", group)
	}
	w.Group = int(group)
	// Scales of a per-tensor group larger than quant's limit are shared by parts of it.
	qg := w.Group
	for qg > 1<<20 {
		qg = largestDivisor(w.Group, 1<<20)
	}
	w.Scheme = quant.Scheme{Code: cs.ci.Type, Scale: ss.b.ci.Type, Group: qg, Compute: C}
	if ss.scale2 != nil {
		w.Scheme.Scale2 = element.F32
	}
	if cs.zero != nil {
		w.Scheme.Zero, w.Scheme.ScalarZero = cs.zero.ci.Type, scalarZero
	}
	if cs.codebook != nil {
		if err := g.codebookScheme(w, cs); err != nil {
			return nil, err
		}
	}
	w.Mode = modeOf(w, cs)
	w.Type, w.Shape, w.Output, w.Elements = C, dims, mul, n
	w.Stored = cs.ci.Need + ss.b.ci.Need
	for _, b := range []*branch{ss.scale2, cs.zero, cs.codebook} {
		if b != nil {
			w.Stored += b.ci.Need
		}
	}
	if err := g.extend(w); err != nil {
		return nil, err
	}
	if err := g.checkOutput(w); err != nil {
		return nil, err
	}
	return w, nil
}

// largestDivisor returns the largest divisor of n that is at most k.
func largestDivisor(n, k int) int {
	for d := k; d > 1; d-- {
		if n%d == 0 {
			return d
		}
	}
	return 1
}

func dedupe(ls []*Layer) []*Layer {
	seen := map[*Layer]bool{}
	out := ls[:0]
	for _, l := range ls {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// alignDims right-aligns a scale's or zero point's dims to the codes' and checks that they
// broadcast onto them without changing the codes' shape: each dim 1 or the codes' dim.
func (g *cwGraph) alignDims(at *Layer, what string, d, codes []int64) ([]int64, error) {
	bad := func(why string) error {
		return g.errorf(at, "the %s's shape %s does not broadcast onto the codes' shape %s%s", what, dimsString(d), dimsString(codes), why)
	}
	if len(d) > len(codes) {
		for _, x := range d[:len(d)-len(codes)] {
			if x != 1 {
				return nil, bad("")
			}
		}
		d = d[len(d)-len(codes):]
	}
	out := make([]int64, len(codes))
	for i := range out {
		out[i] = 1
	}
	copy(out[len(codes)-len(d):], d)
	for i, x := range out {
		if x != 1 && x != codes[i] {
			why := ""
			if i == len(codes)-1 && x > 1 && codes[i]%x != 0 {
				why = fmt.Sprintf(": %d groups do not divide a row of %d", x, codes[i])
			}
			return nil, bad(why)
		}
	}
	return out, nil
}

// checkZero reads the zero point: it must be within the codes' integer range (and not NaN);
// it reports whether it holds one value.
func (g *cwGraph) checkZero(cs *codesSide) (one bool, v float32, err error) {
	z := cs.zero
	if z.ci.Elements == 0 {
		return false, 0, nil
	}
	if _, have, err := g.m.baseSize(); err != nil || !have && len(g.m.appended) == 0 {
		// Without constant data the values cannot be read: a zero point per group.
		return false, 0, nil
	}
	// Read block by block: Run recognises weights before it checks its memory budget, so the
	// zero points must not be held whole (a few KiB, whatever the Const's size).
	ci, err := g.m.constRange(z.c)
	if err != nil {
		return false, 0, err
	}
	const block = 1 << 12 // elements: whole bytes of any element type
	n := ci.Elements
	bs, _ := ci.Type.ByteSize(min(block, n))
	buf := make([]byte, bs)
	vals := make([]float32, block)
	lo, hi, isInt := cs.ci.Type.IntRange()
	one = true
	for off := int64(0); off < n; off += block {
		k := min(block, n-off)
		part := ci
		skip, _ := ci.Type.ByteSize(off)
		nb, _ := ci.Type.ByteSize(k)
		part.Offset += skip
		if err := g.m.readConst(z.c, part, buf[:nb]); err != nil {
			return false, 0, err
		}
		if err := kernels.Convert(kernels.AsBytes(vals[:k]), element.F32, buf[:nb], ci.Type, int(k)); err != nil {
			return false, 0, g.errorf(z.c, "zero point: %v", err)
		}
		if off == 0 {
			v = vals[0]
		}
		for i, x := range vals[:k] {
			if isInt && (x != x || float64(x) < float64(lo) || float64(x) > float64(hi)) {
				return false, 0, g.errorf(z.c, "zero point %s (element %d) is outside the range %d..%d of the %s codes", strconv.FormatFloat(float64(x), 'g', -1, 32), off+int64(i), lo, hi, cs.ci.Type)
			}
			if math.Float32bits(x) != math.Float32bits(v) {
				one = false
			}
		}
	}
	return one, v, nil
}

// codebookScheme chooses how the codebook's values are dequantized: re-coded into an 8-bit
// code type whose codes convert to exactly those values (f8e4m3 covers a codebook stored as
// f8e4m3), or, failing that, rebuilt for each element as a zero point (see DecompressedData).
func (g *cwGraph) codebookScheme(w *CompressedWeight, cs *codesSide) error {
	cb := cs.codebook
	_, data, err := g.m.ConstData(cb.c)
	if err != nil {
		return err
	}
	k := int(cb.ci.Elements)
	C := cs.compute
	vals := make([]byte, k*C.Bits()/8)
	if err := kernels.Convert(vals, C, data, cb.ci.Type, k); err != nil {
		return g.errorf(cb.c, "codebook: %v", err)
	}
	w.cbType = C
	// Out-of-range indexes gather 0 (OpenVINO's reference Gather), so +0 needs a code too.
	want := append(vals, make([]byte, C.Bits()/8)...)
	for _, t := range []element.Type{element.F8E4M3, element.F8E5M2, element.I8, element.U8} {
		table := map[string]byte{}
		one := make([]byte, C.Bits()/8)
		for c := 255; c >= 0; c-- {
			if err := kernels.Convert(one, C, []byte{byte(c)}, t, 1); err == nil {
				table[string(one)] = byte(c)
			}
		}
		recode := make([]byte, k+1)
		ok := true
		for i := 0; i <= k && ok; i++ {
			var c byte
			c, ok = table[string(want[i*len(one):(i+1)*len(one)])]
			recode[i] = c
		}
		if ok {
			w.Scheme.Code, w.recode = t, recode
			return nil
		}
	}
	// Each element becomes C(−0 − (−v)) × scale: an f8e4m3 code −0, a zero point −v of type C
	// and the scale, in groups of one.
	w.Scheme.Code, w.Scheme.Zero, w.Scheme.Group = element.F8E4M3, C, 1
	return nil
}

// modeOf names the layout as NNCF does.
func modeOf(w *CompressedWeight, cs *codesSide) string {
	if cs.codebook != nil {
		return "codebook"
	}
	s := w.Scheme
	zero := s.Zero != element.Dynamic
	switch {
	case s.Scale2 != element.Dynamic:
		if s.Code == element.F4E2M1 && s.Scale == element.F8E4M3 && !zero {
			return "nvfp4"
		}
	case s.Scale == element.F8E8M0:
		switch {
		case zero:
		case s.Code == element.F4E2M1:
			return "mxfp4"
		case s.Code == element.F8E4M3:
			return "mxfp8_e4m3"
		}
	case s.Scale == element.F8E4M3:
	case (s.Code == element.U8 || s.Code == element.U4) && zero:
		// Older NNCF stored int8_sym and int4_sym unsigned, with the zero point 2^(bits−1).
		name := "int" + strconv.Itoa(s.Code.Bits())
		if s.ScalarZero && w.zeroValue == float32(int(1)<<(s.Code.Bits()-1)) {
			return name + "_sym"
		}
		return name + "_asym"
	case zero:
	case s.Code == element.I8:
		return "int8_sym"
	case s.Code == element.I4:
		return "int4_sym"
	case s.Code == element.NF4:
		return "nf4"
	case s.Code == element.F4E2M1:
		return "fp4"
	case s.Code == element.F8E4M3:
		return "fp8_e4m3"
	}
	return "other"
}

// extend follows the Multiply's result through Reshape, Convert (to a float type) and
// Transpose layers, each the sole consumer of the layer before, and sets Output, Type, Shape,
// Transpose and Consumer.
func (g *cwGraph) extend(w *CompressedWeight) error {
	cur := w.Output
	seen := map[string]bool{}
chain:
	for {
		es := g.consumers(cur)
		if len(es) != 1 {
			break
		}
		next := g.byID[es[0].ToLayer]
		if next == nil || seen[next.Type] || len(next.Inputs) == 0 || next.Inputs[0].ID != es[0].ToPort {
			break
		}
		switch next.Type {
		case "Convert":
			t, ok := destType(next)
			if !ok || !(t == element.F32 || t == element.F16 || t == element.BF16 || t == element.F64) {
				break chain
			}
			w.Type = t
			w.Layers = append(w.Layers, next)
		case "Reshape":
			sc := g.constInput(next, 1)
			if sc == nil {
				break chain
			}
			dims, err := g.shapeOp(next, sc, w.Shape)
			if err != nil {
				return err
			}
			w.Shape = dims
			w.Layers = append(w.Layers, sc, next)
		case "Transpose":
			pc := g.constInput(next, 1)
			if pc == nil {
				break chain
			}
			perm, err := g.intConst(pc)
			if err != nil {
				return err
			}
			if perm, err = checkPerm(w.Shape, perm); err != nil {
				return g.errorf(next, "Transpose of %s: %v", dimsString(w.Shape), err)
			}
			if err := g.checkRow(next, w); err != nil {
				return err
			}
			w.transposeIn, w.Transpose = w.Shape, perm
			out := make([]int64, len(perm))
			for i, p := range perm {
				out[i] = w.transposeIn[p]
			}
			w.Shape = out
			w.Layers = append(w.Layers, pc, next)
		default:
			break chain
		}
		seen[next.Type] = true
		cur = next
	}
	w.Output = cur
	w.Layers = dedupe(w.Layers)
	if w.Transpose == nil {
		if err := g.checkRow(cur, w); err != nil {
			return err
		}
	}
	w.Consumer = g.soleConsumer(cur)
	return nil
}

// checkRow checks that the group divides the weight's rows (its last axis before any
// Transpose), or is a whole number of rows.
func (g *cwGraph) checkRow(at *Layer, w *CompressedWeight) error {
	if len(w.Shape) == 0 || w.Elements == 0 {
		return nil
	}
	row := w.Shape[len(w.Shape)-1]
	gr := int64(w.Group)
	if row%gr != 0 && gr%row != 0 {
		return g.errorf(at, "the group size %d does not divide the row of %d elements (shape %s)", gr, row, dimsString(w.Shape))
	}
	return nil
}

// checkOutput compares the Output's declared port with the computed type and shape.
func (g *cwGraph) checkOutput(w *CompressedWeight) error {
	if len(w.Output.Outputs) == 0 {
		return nil
	}
	p := w.Output.Outputs[0]
	if t, ok := p.Type(); ok && t != w.Type {
		return g.errorf(w.Output, "output port %d has precision %s but the subgraph computes %s", p.ID, p.Precision, w.Type)
	}
	if len(p.Dims) > 0 || len(w.Shape) == 0 {
		if len(p.Dims) != len(w.Shape) {
			return g.errorf(w.Output, "output port %d has dims %s but the subgraph computes %s", p.ID, dimsString(p.Dims), dimsString(w.Shape))
		}
		for i, d := range p.Dims {
			if d >= 0 && d != w.Shape[i] {
				return g.errorf(w.Output, "output port %d has dims %s but the subgraph computes %s", p.ID, dimsString(p.Dims), dimsString(w.Shape))
			}
		}
	}
	return nil
}
