package ir

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// F16Report says what CompressToF16Report did: the Consts it compressed, and the f32 and f64
// Consts it left as they are, by reason. Each list holds layer names in file order.
type F16Report struct {
	// Optimized is non-empty when the model already holds compressed weights (OpenVINO's
	// is_model_optimized): it names the layer that shows it, and nothing was changed.
	Optimized string
	// Compressed are the Consts replaced by NAME_compressed (f16) → Convert NAME.
	Compressed []string
	// Precise are the Consts marked precise in their rt_info by the model itself.
	Precise []string
	// ShapePath are the Consts on a shape path (see CompressToF16), marked precise here.
	ShapePath []string
	// OutOfRange are the Consts with at least 75% of their values outside f16's range.
	OutOfRange []string
	// Empty are the Consts with no elements.
	Empty []string
}

// f16Max is the largest finite f16, 65504, and f16MinSub its smallest positive subnormal, 2^-24:
// the bounds of the range OpenVINO's CompressFloatConstants counts values against.
const (
	f16Max    = 65504
	f16MinSub = 0x1p-24
)

// f16KeepThreshold is the share of out-of-range values at which a Const stays as it is.
const f16KeepThreshold float32 = 0.75

// CompressToF16 is CompressToF16Report returning the number of Consts compressed.
func CompressToF16(m *Model) (int, error) {
	rep, err := CompressToF16Report(m)
	return len(rep.Compressed), err
}

// CompressToF16Report compresses the model's f32 and f64 Consts to f16 as OpenVINO 2025.x and
// 2026.0 do when they save a model with compress_to_fp16 (the default of ovc and save_model):
// the function compress_model_to_f16 and its passes MarkPrecisionSensitiveConstants and
// CompressFloatConstants (openvinotoolkit/openvino,
// src/common/transformations/src/transformations/common_optimizations/compress_float_constants.cpp;
// the rules below are those of its x86-64 build). Later versions veto more Consts: a
// single-element Const whose f16 value is more than a relative 1e-4 off stays f32 (PR #34110),
// and newer ones also keep tensors with an element more than 1.0 or a relative 1e-3 off (PRs
// #35415, #36005); those vetoes are not applied here.
//
// When the model already holds compressed weights, nothing changes and rep.Optimized says why
// (OpenVINO's is_model_optimized): a FakeQuantize or FakeConvert layer, or a Const of type i4,
// u4, i8, u8, nf4, f8e4m3 or f8e5m2 → Convert → [Subtract(·, Const or Convert(Const))] →
// Multiply(·, Const), in either order of the Multiply's inputs.
//
// Like OpenVINO's passes, which go into subgraphs, everything below applies to the model's
// graph and, each on its own, to the bodies of its Loop, TensorIterator and other layers with a
// <body> (nested ones too), and a body that holds compressed weights makes the model count as
// holding them.
//
// Otherwise, first, every Const on a shape path gets the rt_info attribute precise, as
// MarkPrecisionSensitiveConstants sets it: a Const from which a precision-sensitive input can be
// reached without passing through a ShapeOf. The precision-sensitive inputs are those OpenVINO's
// operators mark: input 1 of Reshape, Broadcast, Tile, TopK and OneHot; inputs 1 and 2 of Pad;
// inputs 1, 2 and 3 of StridedSlice, BatchToSpace and SpaceToBatch; input 2 of
// ConvolutionBackpropData and GroupConvolutionBackpropData; input 1 of Interpolate-1 and -11, and
// inputs 1 and 2 of Interpolate-4. (Squeeze, Unsqueeze, Transpose, Gather, Slice and the Reduce
// operators take integer axes, indices or orders and mark nothing.) OpenVINO walks only from
// layers that reach a Result or a sink; every layer counts here.
//
// Then each Const is replaced when it is f32 or f64, has at least one element, carries no precise attribute, and fewer than
// 75% of its values are out of f16's range: |v| > 65504 or 0 < |v| < 2^-24 (NaN is not counted;
// the share is computed in float32, count/size ≥ 0.75, as OpenVINO computes it). The Const
// becomes a Const named NAME_compressed holding the values in f16, followed by a Convert
// (opset1, destination_type the original type) named NAME, which keeps the Const's layer id,
// output tensor names, port rt_info and layer rt_info and gains the rt_info attribute
// decompression; consumers and Results read the Convert, so they are unchanged.
//
// Values are converted by package kernels after a clamp to [-65504, 65504]:
//   - f32: ±Inf and finite values beyond ±65504 become ±65504, and NaN (of either sign) becomes
//     +65504, as the AVX2 code of OpenVINO's convert_from_f32_to_f16_with_clamp (vminps with
//     65504, then vmaxps with -65504) gives; then f32 → f16 rounds to nearest even
//     (docs/SEMANTICS.md §3.4), so values below 2^-25 in magnitude become ±0 and those in
//     (2^-25, 2^-24) become ±2^-24.
//   - f64: ±Inf and values beyond ±65504 become ±65504 and NaN stays NaN, as OpenVINO's element
//     loop for f64 does; values then go f64 → f32 → f16, each step to nearest even. (OpenVINO's
//     loop leaves values with 0 < |v| < 2^-24 unwritten in a fresh buffer; here they round like
//     the others.)
//
// The f16 data is not held in memory: the model's constant data becomes its data as it stood
// followed by the f16 data, which is computed again from the f32 or f64 data, a chunk of 64 Ki
// elements at a time, whenever it is read (ConstData, Run, Save). CompressToF16Report itself
// reads each candidate Const once, a chunk at a time, to count its values out of range. Save
// writes the f16 data after the .bin's bytes; CompactWeights drops the f32 and f64 data that no
// Const uses any more. Consts that share a range share their f16 data.
//
// The model must pass Check. A Const whose data cannot be read is an error naming it, and so
// is f16 data that would be larger than the model's constant data (which only Consts over
// overlapping ranges can cause); the model is then left unchanged.
func CompressToF16Report(m *Model) (F16Report, error) {
	var rep F16Report
	if _, err := m.Check(); err != nil {
		return rep, err
	}
	why, err := optimizedIn(m)
	if err != nil || why != "" {
		rep.Optimized = why
		return rep, err
	}
	src, total := m.dataReader(), int64(0)
	if size, _, err := m.weightsSize(); err == nil {
		total = size
	}
	p := &f16Plan{lazy: &f16Data{src: src, base: total}, at: map[[3]int64]int64{}, rep: &rep}
	// Everything is read and decided first; the graphs change only when nothing failed.
	var graphs []*f16Graph
	if err := p.plan(m, nil, &graphs); err != nil {
		return F16Report{}, err
	}
	for _, g := range graphs {
		if err := g.apply(); err != nil {
			return F16Report{}, err
		}
	}
	if len(rep.Compressed) > 0 {
		// The model's data is now its data as it stood followed by the f16 data, computed when
		// read.
		w := &weightData{Name: m.weightsName(), r: p.lazy, size: total + p.lazy.size}
		w.once.Do(func() {})
		m.weights, m.appended = w, nil
	}
	return rep, nil
}

// optimizedIn returns why OpenVINO's is_model_optimized holds for the model or a body in it,
// or "".
func optimizedIn(m *Model) (string, error) {
	if why := newGraphIndex(m).optimized(); why != "" {
		return why, nil
	}
	for _, l := range m.Layers {
		sub, err := m.Body(l)
		if err != nil || sub == nil {
			if err != nil {
				return "", err
			}
			continue
		}
		if why, err := optimizedIn(sub); err != nil || why != "" {
			if why != "" {
				why += " in the body of " + l.Label()
			}
			return why, err
		}
	}
	return "", nil
}

// f16Plan is what CompressToF16Report decides: the f16 data it will add, and the report.
type f16Plan struct {
	lazy *f16Data
	at   map[[3]int64]int64 // (offset, elements, type) of a Const → where its f16 data is
	rep  *F16Report
}

// f16Graph is one graph to rewrite: the model's own or a body (of the layer owner).
type f16Graph struct {
	m         *Model
	owner     *Layer
	shapePath map[int64]bool
	jobs      []f16Job
}

// f16Job is one Const to replace, with where its f16 data is.
type f16Job struct {
	l  *Layer
	ci ConstInfo
	at int64
}

// plan decides what happens to m's graph and the bodies in it, and appends them to graphs with
// each body before the graph that holds it.
func (p *f16Plan) plan(m *Model, owner *Layer, graphs *[]*f16Graph) error {
	g := &f16Graph{m: m, owner: owner, shapePath: newGraphIndex(m).shapePathConsts()}
	for _, l := range m.Layers {
		sub, err := m.Body(l)
		if err != nil {
			return err
		}
		if sub != nil {
			if err := p.plan(sub, l, graphs); err != nil {
				return err
			}
		}
	}
	*graphs = append(*graphs, g)
	rep := p.rep
	for _, l := range m.Layers {
		if l.Type != "Const" {
			continue
		}
		ci, err := m.ConstInfo(l)
		if err != nil {
			return err
		}
		if ci.Type != element.F32 && ci.Type != element.F64 {
			continue
		}
		switch {
		case hasRTAttr(l, "precise") && !g.shapePath[l.ID]:
			rep.Precise = append(rep.Precise, l.Name)
			continue
		case g.shapePath[l.ID]:
			rep.ShapePath = append(rep.ShapePath, l.Name)
			continue
		case ci.Elements == 0:
			rep.Empty = append(rep.Empty, l.Name)
			continue
		}
		if _, err := m.constRange(l); err != nil {
			return err
		}
		out, err := countOutOfF16(p.lazy.src, ci)
		if err != nil {
			return m.errorf(l.Line, l, "reading Const data from %s: %v", m.weightsName(), err)
		}
		if keepF32(out, ci.Elements) {
			rep.OutOfRange = append(rep.OutOfRange, l.Name)
			continue
		}
		key := [3]int64{ci.Offset, ci.Elements, int64(ci.Type)}
		off, ok := p.at[key]
		if !ok {
			// The f16 data of Consts over overlapping ranges is written once per range; beyond
			// the size of the data it comes from, it could only come from ranges that overlap.
			lz := p.lazy
			if lz.size+2*ci.Elements > lz.base {
				return m.errorf(l.Line, l, "the f16 data of the Consts would exceed the %d bytes of %s: their ranges overlap", lz.base, m.weightsName())
			}
			off = lz.base + lz.size
			p.at[key] = off
			lz.segs = append(lz.segs, f16Segment{at: lz.size, from: ci.Offset, n: ci.Elements, t: ci.Type})
			lz.size += 2 * ci.Elements
		}
		g.jobs = append(g.jobs, f16Job{l, ci, off})
		rep.Compressed = append(rep.Compressed, l.Name)
	}
	return nil
}

// apply rewrites the graph as planned and, for a body, writes it back into its owner's <body>.
func (g *f16Graph) apply() error {
	m := g.m
	// Every Const on a shape path gets precise, whatever its type, as
	// MarkPrecisionSensitiveConstants marks them; OpenVINO writes the attribute to the IR.
	for _, l := range m.Layers {
		if g.shapePath[l.ID] {
			addRTAttr(l, "precise")
		}
	}
	next := m.nextLayerID()
	replaced := map[int64]*Layer{}
	for _, j := range g.jobs {
		c, conv := compressedPair(j.l, j.ci, next, j.at, 2*j.ci.Elements)
		next++
		replaced[j.l.ID] = c
		*j.l = *conv
	}
	if len(replaced) > 0 {
		layers := make([]*Layer, 0, len(m.Layers)+len(replaced))
		for _, l := range m.Layers {
			if c, ok := replaced[l.ID]; ok {
				layers = append(layers, c)
			}
			layers = append(layers, l)
		}
		m.Layers = layers
		// Edges out of a replaced Const now leave its Convert's output port 1; each Convert
		// reads its f16 Const.
		for _, e := range m.Edges {
			if _, ok := replaced[e.FromLayer]; ok {
				e.FromPort = 1
			}
		}
		for _, l := range m.Layers {
			if c, ok := replaced[l.ID]; ok {
				m.Edges = append(m.Edges, &Edge{FromLayer: c.ID, FromPort: 0, ToLayer: l.ID, ToPort: 0})
			}
		}
	}
	if g.owner == nil || len(replaced) == 0 && len(g.shapePath) == 0 {
		return nil
	}
	return m.setBody(g.owner, m)
}

// f16Chunk is the number of elements converted at a time: the memory compression takes is a
// few chunks, whatever the size of the Consts.
const f16Chunk = 1 << 16

// countOutOfF16 reads the Const's data from src a chunk at a time and returns how many of its
// values are out of f16's range: |v| > 65504 or 0 < |v| < 2^-24, NaN not counted, an f64 value
// judged as f64.
func countOutOfF16(src io.ReaderAt, ci ConstInfo) (int64, error) {
	w := int64(ci.Type.Bits() / 8)
	sc := f16Scratch.Get().(*scratch)
	defer f16Scratch.Put(sc)
	var out int64
	for e := int64(0); e < ci.Elements; e += f16Chunk {
		raw := sc.raw[:min(ci.Elements-e, f16Chunk)*w]
		if _, err := readAtFull(src, raw, ci.Offset+e*w); err != nil {
			return 0, err
		}
		out += clampF16(raw, ci.Type, false)
	}
	return out, nil
}

// clampF16 returns how many of the f32 or f64 values in raw are out of f16's range, and when
// clamp is set replaces them as CompressToF16Report describes: beyond ±65504 (±Inf too) by
// ±65504, and an f32 NaN by 65504.
func clampF16(raw []byte, t element.Type, clamp bool) int64 {
	var out int64
	if t == element.F64 {
		for b := raw; len(b) >= 8; b = b[8:] {
			v := math.Float64frombits(binary.LittleEndian.Uint64(b))
			switch a := math.Abs(v); {
			case a > f16Max:
				out++
				if clamp {
					binary.LittleEndian.PutUint64(b, math.Float64bits(math.Copysign(f16Max, v)))
				}
			case a < f16MinSub && v != 0:
				out++
			}
		}
		return out
	}
	for b := raw; len(b) >= 4; b = b[4:] {
		v := math.Float32frombits(binary.LittleEndian.Uint32(b))
		switch a := float32(math.Abs(float64(v))); {
		case v != v:
			if clamp {
				binary.LittleEndian.PutUint32(b, math.Float32bits(f16Max))
			}
		case a > f16Max:
			out++
			if clamp {
				binary.LittleEndian.PutUint32(b, math.Float32bits(float32(math.Copysign(f16Max, float64(v)))))
			}
		case a < f16MinSub && v != 0:
			out++
		}
	}
	return out
}

// toF16 clamps the n f32 or f64 values in raw in place and converts them with package kernels
// into dst (2n bytes): f32 → f16, or f64 → f32 → f16 (tmp holds the f32 values, 4n bytes).
func toF16(dst, raw, tmp []byte, t element.Type, n int) error {
	clampF16(raw, t, true)
	if t == element.F64 {
		if err := kernels.Convert(tmp, element.F32, raw, element.F64, n); err != nil {
			return err
		}
		raw = tmp
	}
	return kernels.Convert(dst, element.F16, raw, element.F32, n)
}

// f16Segment is the f16 data of one compressed Const: 2n bytes at offset at of the f16 data,
// computed from the n values of type t at offset from of the source data.
type f16Segment struct {
	at, from, n int64
	t           element.Type
}

// f16Data is a model's constant data after CompressToF16: base bytes read from src, followed
// by size bytes of f16 data computed from src when read, a chunk at a time, so that the f16
// data of a model is never held whole.
type f16Data struct {
	src        io.ReaderAt
	base, size int64
	segs       []f16Segment // sorted by at, back to back from 0 to size
}

func (d *f16Data) ReadAt(p []byte, off int64) (int, error) {
	n, err := readBelow(d.src, d.base, p, off)
	if err != nil {
		return n, err
	}
	off += int64(n) - d.base
	i := sort.Search(len(d.segs), func(i int) bool { return d.segs[i].at+2*d.segs[i].n > off })
	sc := f16Scratch.Get().(*scratch)
	defer f16Scratch.Put(sc)
	for n < len(p) && i < len(d.segs) {
		sg := d.segs[i]
		w := int64(sg.t.Bits() / 8)
		// Elements [e0, e1) of the segment cover the bytes asked for, a chunk at a time.
		e0 := (off - sg.at) / 2
		e1 := min(sg.n, e0+f16Chunk, (off-sg.at+int64(len(p)-n)+1)/2)
		k := int(e1 - e0)
		raw, tmp, f16 := sc.raw[:k*int(w)], sc.tmp[:4*k], sc.f16[:2*k]
		if _, err := readAtFull(d.src, raw, sg.from+e0*w); err != nil {
			return n, err
		}
		if err := toF16(f16, raw, tmp, sg.t, k); err != nil {
			return n, err
		}
		c := copy(p[n:], f16[off-sg.at-2*e0:])
		n += c
		off += int64(c)
		if off-sg.at == 2*sg.n {
			i++
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// scratch holds the buffers for one chunk: its f32 or f64 values, their f32 values and their
// f16 values.
type scratch struct{ raw, tmp, f16 []byte }

// f16Scratch keeps chunk buffers for reuse, so that counting and reading cost a few chunks of
// memory in all rather than a chunk per call.
var f16Scratch = sync.Pool{New: func() any {
	return &scratch{raw: make([]byte, 8*f16Chunk), tmp: make([]byte, 4*f16Chunk), f16: make([]byte, 2*f16Chunk)}
}}

// keepF32 reports whether a Const of n values, out of them out of f16's range, stays as it is:
// out/n ≥ 0.75 computed in float32 (both counts rounded to float32 first), as OpenVINO computes
// it, so that for n above 2^24 a share slightly below 0.75 can count as 0.75.
func keepF32(out, n int64) bool {
	return float32(out)/float32(n) >= f16KeepThreshold
}

// compressedPair builds the two layers that replace the Const l: the f16 Const (id, data at
// off, size bytes) and the Convert that takes l's id, name, rt_info and output port.
func compressedPair(l *Layer, ci ConstInfo, id, off, size int64) (c, conv *Layer) {
	shape, _ := l.DataAttr("shape")
	out := l.Outputs[0]
	c = &Layer{
		ID: id, Name: l.Name + "_compressed", Type: "Const", Version: l.Version,
		Data: &Node{Kind: ElementNode, Name: "data", Attrs: []Attr{
			{"element_type", element.F16.String()},
			{"shape", shape},
			{"offset", strconv.FormatInt(off, 10)},
			{"size", strconv.FormatInt(size, 10)},
		}},
		Outputs:   []*Port{{ID: 0, Precision: element.F16.IRPrecision(), Dims: append([]int64(nil), out.Dims...)}},
		HasOutput: true,
	}
	prec := out.Precision
	if prec == "" {
		prec = ci.Type.IRPrecision()
	}
	conv = &Layer{
		ID: l.ID, Name: l.Name, Type: "Convert", Version: "opset1",
		Attrs: l.Attrs,
		Data: &Node{Kind: ElementNode, Name: "data", Attrs: []Attr{
			{"destination_type", ci.Type.String()},
		}},
		Head:      l.Head,
		Tail:      l.Tail,
		Inputs:    []*Port{{ID: 0, Precision: element.F16.IRPrecision(), Dims: append([]int64(nil), out.Dims...)}},
		HasInput:  true,
		Outputs:   []*Port{{ID: 1, Precision: prec, Names: out.Names, HasNames: out.HasNames, Attrs: out.Attrs, Dims: out.Dims, Extra: out.Extra}},
		HasOutput: true,
		Line:      l.Line,
	}
	addRTAttr(conv, "decompression")
	return c, conv
}

// rtInfo returns the layer's <rt_info> element, or nil.
func rtInfo(l *Layer) *Node {
	for _, h := range l.Head {
		if h.Kind == ElementNode && h.Name == "rt_info" {
			return h
		}
	}
	return nil
}

// hasRTAttr reports whether the layer's rt_info holds <attribute name="name" .../>.
func hasRTAttr(l *Layer, name string) bool {
	rt := rtInfo(l)
	if rt == nil {
		return false
	}
	for _, c := range rt.Children {
		if c.Kind == ElementNode && c.Name == "attribute" {
			if v, _ := c.Attr("name"); v == name {
				return true
			}
		}
	}
	return false
}

// addRTAttr adds <attribute name="name" version="0"/> to the layer's rt_info (created when the
// layer has none) unless it is there already: the form OpenVINO writes the marker attributes
// decompression and precise in.
func addRTAttr(l *Layer, name string) {
	if hasRTAttr(l, name) {
		return
	}
	rt := rtInfo(l)
	if rt == nil {
		rt = &Node{Kind: ElementNode, Name: "rt_info"}
		l.Head = append([]*Node{rt}, l.Head...)
	}
	rt.Children = append(rt.Children, &Node{Kind: ElementNode, Name: "attribute",
		Attrs: []Attr{{"name", name}, {"version", "0"}}})
}

// graphIndex gives each layer by id and the producer of each of its inputs, by input position.
type graphIndex struct {
	m    *Model
	byID map[int64]*Layer
	in   map[int64][]*Layer // layer id → producer of each input (nil when unconnected)
}

func newGraphIndex(m *Model) *graphIndex {
	g := &graphIndex{m: m, byID: map[int64]*Layer{}, in: map[int64][]*Layer{}}
	for _, l := range m.Layers {
		g.byID[l.ID] = l
	}
	pos := map[[2]int64]int{}
	for _, l := range m.Layers {
		g.in[l.ID] = make([]*Layer, len(l.Inputs))
		for i, p := range l.Inputs {
			pos[[2]int64{l.ID, p.ID}] = i
		}
	}
	for _, e := range m.Edges {
		if i, ok := pos[[2]int64{e.ToLayer, e.ToPort}]; ok {
			g.in[e.ToLayer][i] = g.byID[e.FromLayer]
		}
	}
	return g
}

// input returns the producer of input i of l, or nil.
func (g *graphIndex) input(l *Layer, i int) *Layer {
	if ins := g.in[l.ID]; i < len(ins) {
		return ins[i]
	}
	return nil
}

// optimized returns why OpenVINO's is_model_optimized holds for the model, or "".
func (g *graphIndex) optimized() string {
	for _, l := range g.m.Layers {
		if l.Type == "FakeQuantize" || l.Type == "FakeConvert" {
			return fmt.Sprintf("%s is a %s", l.Label(), l.Type)
		}
	}
	for _, l := range g.m.Layers {
		if l.Type != "Multiply" || len(l.Inputs) != 2 {
			continue
		}
		for i := range 2 {
			if s := g.input(l, 1-i); s == nil || s.Type != "Const" {
				continue
			}
			if w := g.compressedWeight(g.input(l, i)); w != nil {
				t, _ := g.constType(w)
				return fmt.Sprintf("%s multiplies the %s weights of %s by a Const", l.Label(), t, w.Label())
			}
		}
	}
	return ""
}

// compressedWeight returns the low-precision Const when x is Convert(Const) or
// Subtract(Convert(Const), Const or Convert(Const)) with the Const of a type
// DetectCompressedWeights lists, else nil.
func (g *graphIndex) compressedWeight(x *Layer) *Layer {
	if x == nil {
		return nil
	}
	if x.Type == "Subtract" && len(x.Inputs) == 2 {
		zp := g.input(x, 1)
		if zp != nil && zp.Type == "Convert" {
			zp = g.input(zp, 0)
		}
		if zp == nil || zp.Type != "Const" {
			return nil
		}
		x = g.input(x, 0)
		if x == nil {
			return nil
		}
	}
	if x.Type != "Convert" {
		return nil
	}
	c := g.input(x, 0)
	if c == nil || c.Type != "Const" {
		return nil
	}
	switch t, _ := g.constType(c); t {
	case element.I4, element.U4, element.I8, element.U8, element.NF4, element.F8E4M3, element.F8E5M2:
		return c
	}
	return nil
}

// constType is the element type of a Const layer.
func (g *graphIndex) constType(l *Layer) (element.Type, bool) {
	ci, err := g.m.ConstInfo(l)
	return ci.Type, err == nil
}

// precisionSensitive lists the inputs (by position) OpenVINO's operators mark
// precision-sensitive, by layer type; Interpolate depends on its version (see sensitiveInputs).
var precisionSensitive = map[string][]int{
	"Reshape":                      {1},
	"Broadcast":                    {1},
	"Tile":                         {1},
	"TopK":                         {1},
	"OneHot":                       {1},
	"Pad":                          {1, 2},
	"StridedSlice":                 {1, 2, 3},
	"BatchToSpace":                 {1, 2, 3},
	"SpaceToBatch":                 {1, 2, 3},
	"ConvolutionBackpropData":      {2},
	"GroupConvolutionBackpropData": {2},
}

// sensitiveInputs returns the precision-sensitive inputs of l: Interpolate-4 (opset4 to opset10)
// marks inputs 1 and 2 (sizes and scales), Interpolate-1 and -11 input 1.
func sensitiveInputs(l *Layer) []int {
	if l.Type != "Interpolate" {
		return precisionSensitive[l.Type]
	}
	if v, err := strconv.Atoi(strings.TrimPrefix(l.Version, "opset")); err == nil && v >= 4 && v <= 10 {
		return []int{1, 2}
	}
	return []int{1}
}

// shapePathConsts returns the Consts from which a precision-sensitive input is reached without
// passing through a ShapeOf: MarkPrecisionSensitiveConstants walks up from each such input,
// stopping at ShapeOf layers, and marks the Consts it meets.
func (g *graphIndex) shapePathConsts() map[int64]bool {
	marked := map[int64]bool{}
	seen := map[int64]bool{}
	var stack []*Layer
	for _, l := range g.m.Layers {
		for _, i := range sensitiveInputs(l) {
			if p := g.input(l, i); p != nil && !seen[p.ID] {
				seen[p.ID] = true
				stack = append(stack, p)
			}
		}
	}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l.Type == "ShapeOf" {
			continue
		}
		if l.Type == "Const" {
			marked[l.ID] = true
		}
		for _, p := range g.in[l.ID] {
			if p != nil && !seen[p.ID] {
				seen[p.ID] = true
				stack = append(stack, p)
			}
		}
	}
	return marked
}
