package ir

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/atomicfile"
	"github.com/convertpromote/convertpromote/kernels"
)

// DecompressOptions are the options of Decompress.
type DecompressOptions struct {
	// To is the element type of the Consts that replace the weights: element.F32, element.F16
	// or element.BF16; element.Dynamic (the zero value) keeps each weight's own type.
	To element.Type
}

// decompressChunk is the size of the buffer through which Decompress copies Const data from
// the input .bin and converts a weight to DecompressOptions.To: the fixed part of its memory
// bound.
const decompressChunk = 1 << 20

// collectAfter is the size of a weight after which Decompress runs the garbage collector and
// returns the freed memory: that costs about as much as writing a few MiB, and below that size
// the collector's slack is small anyway.
const collectAfter = 8 << 20

// Decompress replaces every compressed weight that CompressedWeights finds by one Const holding
// the weight, and writes the model to xmlPath with a new .bin beside it (BinPath). It returns
// the number of weights replaced.
//
// The Const holds exactly what evaluating the subgraph gives (DecompressedData, bit for bit what
// Run computes for the subgraph's last layer), of the weight's type and shape. It takes the
// name of the subgraph's last layer and its output port's tensor names, port attributes and
// port rt_info, so that the consumers and Results see the same tensor; the layer's own rt_info
// is not copied. With o.To set to a type other than the weight's, the weight is converted once
// more with kernels.Convert (round to nearest, ties to even; f16 overflows to ±inf; NaN stays
// NaN: docs/SEMANTICS.md §3.4, §3.8) into a Const named NAME_compressed of type o.To,
// followed by a Convert named NAME back to the weight's type, so that every consumer still
// receives the type it declares: an f32 weight with To f16 becomes the FP16-compression form
// (Const f16 → Convert f32 carrying the rt_info "decompression", as OpenVINO's compress-to-f16
// writes it; the rt_info marks only a Convert from f16 or bf16 to f32). The layers of the
// subgraph that feed nothing any more are removed; layers that also feed other layers stay.
//
// The new .bin holds the Consts' data in the order of the layers (Consts inside Loop and
// TensorIterator bodies included, their offsets rewritten): the data of the Consts that stay
// is copied from the model's .bin (Consts that shared one range still share one copy), the
// data of removed Consts is dropped. Memory: the weights are decompressed one at a time and
// each is written out before the next is computed, so besides the model's XML structure
// Decompress holds one weight at a time (what DecompressedData holds for it: its codes,
// scales and zero points and the decompressed bytes, twice those with a Transpose) and a
// fixed buffer of 1 MiB, through which the data of the other Consts is copied and a weight is
// converted to o.To. After each weight of 8 MiB or more it runs the garbage collector and
// returns the freed memory to the operating system (debug.FreeOSMemory), so that the bound
// holds whatever GOGC is.
//
// Both files are written atomically (as Save writes them); on success m is the rewritten model,
// reading its data from the new .bin. On error nothing is written and m is unchanged. A
// malformed subgraph gives the Errors of CompressedWeights. A model without compressed weights
// is saved as it is (Save) and Decompress returns 0.
func (m *Model) Decompress(xmlPath string, o DecompressOptions) (int, error) {
	switch o.To {
	case element.Dynamic, element.F32, element.F16, element.BF16:
	default:
		return 0, fmt.Errorf("ir: Decompress: the weights can be written as f32, f16 or bf16, not %s", o.To)
	}
	ws, err := m.CompressedWeights()
	if err != nil {
		return 0, err
	}
	if len(ws) == 0 {
		return 0, m.Save(xmlPath)
	}
	if fi, err := os.Stat(filepath.Dir(xmlPath)); err != nil || !fi.IsDir() {
		return 0, fmt.Errorf("cannot write %s: directory %s does not exist", xmlPath, filepath.Dir(xmlPath))
	}
	p, err := m.planDecompress(ws, o)
	if err != nil {
		return 0, err
	}
	if err := m.writeDecompressed(xmlPath, p); err != nil {
		return 0, err
	}
	return len(ws), nil
}

// decompressed is one weight's new Const in a decompress plan.
type decompressed struct {
	w     *CompressedWeight
	to    element.Type // the Const's type
	konst *Layer
}

// decompressPlan is the rewritten model before anything is written: new layer and edge lists
// (m's own are not modified), and the .bin's contents in order.
type decompressPlan struct {
	layers []*Layer
	edges  []*Edge
	parts  []binPart
	size   int64 // the new .bin's size
}

// binPart is a run of the new .bin: a copy of [from, from+size) of the model's data (the data
// of Const layer), or a decompressed weight.
type binPart struct {
	from, size int64
	layer      *Layer
	weight     *decompressed
}

// planDecompress builds the rewritten graph and the layout of the new .bin, without reading
// any Const data.
func (m *Model) planDecompress(ws []CompressedWeight, o DecompressOptions) (*decompressPlan, error) {
	next := m.nextLayerID()
	replace := map[int64][]*Layer{} // the Output layer's ID → the layers that take its place
	rewire := map[portKey]*Layer{}  // the Output's port 0 → the layer whose port (the last output) replaces it
	var news []*decompressed
	for i := range ws {
		w := &ws[i]
		if _, dup := replace[w.Output.ID]; dup {
			return nil, m.errorf(w.Output.Line, w.Output, "two compressed weights end at the same layer")
		}
		out := &Port{ID: 0}
		if len(w.Output.Outputs) > 0 {
			out = w.Output.Outputs[0]
		}
		to := w.Type
		if o.To != element.Dynamic {
			to = o.To
		}
		d := &decompressed{w: w, to: to}
		name := w.Output.Name
		if to != w.Type {
			name += "_compressed"
		}
		d.konst = &Layer{ID: next, Name: name, Type: "Const", Version: "opset1",
			Data: &Node{Kind: ElementNode, Name: "data", Attrs: []Attr{
				{"element_type", to.String()},
				{"shape", shapeAttr(w.Shape)},
				{"offset", "0"},
				{"size", "0"},
			}},
			HasOutput: true,
		}
		next++
		if to == w.Type {
			d.konst.Outputs = []*Port{portLike(out, 0, w.Type, w.Shape)}
			replace[w.Output.ID] = []*Layer{d.konst}
			rewire[portKey{w.Output.ID, out.ID}] = d.konst
		} else {
			d.konst.Outputs = []*Port{{ID: 0, Precision: to.IRPrecision(), Dims: append([]int64(nil), w.Shape...)}}
			// The Convert's output keeps the port id of the layer it replaces (1 if that was
			// 0, the Convert's input), so that an output without tensor names keeps its
			// "LAYER:PORT" name in ir run.
			cv := &Layer{ID: next, Name: w.Output.Name, Type: "Convert", Version: "opset1",
				Data:     &Node{Kind: ElementNode, Name: "data", Attrs: []Attr{{"destination_type", w.Type.String()}}},
				HasInput: true, HasOutput: true,
				Inputs:  []*Port{{ID: 0, Precision: to.IRPrecision(), Dims: append([]int64(nil), w.Shape...)}},
				Outputs: []*Port{portLike(out, max(out.ID, 1), w.Type, w.Shape)},
			}
			next++
			if (to == element.F16 || to == element.BF16) && w.Type == element.F32 {
				cv.Head = []*Node{{Kind: ElementNode, Name: "rt_info", Children: []*Node{
					{Kind: ElementNode, Name: "attribute", Attrs: []Attr{{"name", "decompression"}, {"version", "0"}}},
				}}}
			}
			replace[w.Output.ID] = []*Layer{d.konst, cv}
			rewire[portKey{w.Output.ID, out.ID}] = cv
		}
		news = append(news, d)
	}
	p := &decompressPlan{}
	hadConsumers := map[int64]bool{}
	for _, e := range m.Edges {
		hadConsumers[e.FromLayer] = true
	}
	for _, e := range m.Edges {
		if _, ok := replace[e.ToLayer]; ok {
			continue // the edges into a replaced layer
		}
		if l, ok := rewire[portKey{e.FromLayer, e.FromPort}]; ok {
			c := *e
			c.FromLayer, c.FromPort = l.ID, l.Outputs[0].ID
			e = &c
		}
		p.edges = append(p.edges, e)
	}
	// A weight that fed nothing stays as its Const (pruneDangling removes only layers that lost
	// their consumers).
	for _, d := range news {
		rs := replace[d.w.Output.ID]
		hadConsumers[rs[len(rs)-1].ID] = hadConsumers[d.w.Output.ID]
		if len(rs) == 2 {
			p.edges = append(p.edges, &Edge{FromLayer: d.konst.ID, FromPort: 0, ToLayer: rs[1].ID, ToPort: 0})
			hadConsumers[d.konst.ID] = true
		}
	}
	for _, l := range m.Layers {
		if rs, ok := replace[l.ID]; ok {
			p.layers = append(p.layers, rs...)
			continue
		}
		p.layers = append(p.layers, l)
	}
	// pruneDangling works on a model of the new lists alone.
	tmp := &Model{Layers: p.layers, Edges: p.edges}
	tmp.pruneDangling(hadConsumers)
	p.layers, p.edges = tmp.Layers, tmp.Edges

	// The .bin's layout, in layer order; a Const whose offset changes is replaced by a copy.
	byConst := map[*Layer]*decompressed{}
	for _, d := range news {
		byConst[d.konst] = d
	}
	copied := map[[2]int64]int64{} // the model's range → its offset in the new .bin
	place := func(data *Node, l *Layer) error {
		if d := byConst[l]; d != nil {
			n, err := d.to.ByteSize(d.w.Elements)
			if err != nil {
				return m.errorf(d.w.Output.Line, d.w.Output, "%v", err)
			}
			setAttr(&data.Attrs, "offset", strconv.FormatInt(p.size, 10))
			setAttr(&data.Attrs, "size", strconv.FormatInt(n, 10))
			p.parts = append(p.parts, binPart{size: n, weight: d})
			p.size += n
			return nil
		}
		ci, err := m.constRange(l)
		if err != nil {
			return err
		}
		key := [2]int64{ci.Offset, ci.Size}
		off, ok := copied[key]
		if !ok {
			off = p.size
			copied[key] = off
			p.parts = append(p.parts, binPart{from: ci.Offset, size: ci.Size, layer: l})
			p.size += ci.Size
		}
		setAttr(&data.Attrs, "offset", strconv.FormatInt(off, 10))
		return nil
	}
	for i, l := range p.layers {
		if l.Type == "Const" {
			if byConst[l] == nil {
				c := *l
				c.Data = l.Data.Clone()
				if c.Data == nil {
					return nil, m.errorf(l.Line, l, "Const has no <data>")
				}
				p.layers[i] = &c
				l = &c
			}
			if err := place(l.Data, l); err != nil {
				return nil, err
			}
			continue
		}
		if !hasBody(l) {
			continue
		}
		c := *l
		c.Tail = make([]*Node, len(l.Tail))
		for k, n := range l.Tail {
			c.Tail[k] = n.Clone()
		}
		p.layers[i] = &c
		var err error
		for _, n := range c.Tail {
			if err == nil {
				err = bodyConsts(n, func(layer, data *Node) error {
					return place(data, m.nodeConst(layer, data))
				})
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return p, nil
}

// hasBody reports whether a layer has a <body> (Loop, TensorIterator).
func hasBody(l *Layer) bool {
	for _, n := range l.Tail {
		if n.Kind == ElementNode && n.Name == "body" {
			return true
		}
	}
	return false
}

// bodyConsts calls f with each Const <layer> inside n (at any depth) and its <data>.
func bodyConsts(n *Node, f func(layer, data *Node) error) error {
	if n.Kind != ElementNode {
		return nil
	}
	if n.Name == "layer" {
		if t, _ := n.Attr("type"); t == "Const" {
			if d := n.Child("data"); d != nil {
				return f(n, d)
			}
		}
	}
	for _, c := range n.Children {
		if err := bodyConsts(c, f); err != nil {
			return err
		}
	}
	return nil
}

// nodeConst is a Layer view of a Const <layer> element of a body, for ConstInfo and its
// messages.
func (m *Model) nodeConst(layer, data *Node) *Layer {
	l := &Layer{Type: "Const", Data: data, Line: layer.Line}
	if v, ok := layer.Attr("id"); ok {
		l.ID, _ = strconv.ParseInt(v, 10, 64)
	}
	l.Name, _ = layer.Attr("name")
	return l
}

// portLike is a port with id, type t and shape dims, and the tensor names, attributes and
// rt_info of out.
func portLike(out *Port, id int64, t element.Type, dims []int64) *Port {
	prec := out.Precision
	if pt, ok := out.Type(); !ok || pt != t {
		prec = t.IRPrecision()
	}
	p := &Port{ID: id, Precision: prec, Names: out.Names, HasNames: out.HasNames,
		Attrs: append([]Attr(nil), out.Attrs...), Dims: append([]int64(nil), dims...)}
	for _, x := range out.Extra {
		p.Extra = append(p.Extra, x.Clone())
	}
	return p
}

// setAttr sets the attribute name in as, in place when present, appended otherwise.
func setAttr(as *[]Attr, name, value string) {
	for i := range *as {
		if (*as)[i].Name == name {
			(*as)[i].Value = value
			return
		}
	}
	*as = append(*as, Attr{name, value})
}

// writeDecompressed writes the plan's .bin, one part at a time, and the rewritten model, both
// atomically; then m becomes the rewritten model.
func (m *Model) writeDecompressed(xmlPath string, p *decompressPlan) error {
	binPath := BinPath(xmlPath)
	bin, err := atomicfile.Create(binPath)
	if err != nil {
		return err
	}
	defer bin.Abort()
	buf := make([]byte, decompressChunk)
	for _, part := range p.parts {
		if part.weight == nil {
			if err := m.copyData(bin, part.layer, part.from, part.size, buf); err != nil {
				return fmt.Errorf("writing %s: %w", binPath, err)
			}
			continue
		}
		if err := m.writeWeight(bin, part.weight, buf); err != nil {
			return err
		}
		if part.size >= collectAfter {
			// The weight just written is garbage now: collect it and return its pages to
			// the operating system before the next one is computed. Otherwise the heap
			// grows to the collector's target (twice the live heap under GOGC=100), and
			// the next weight may land on other pages while the freed ones stay resident.
			debug.FreeOSMemory()
		}
	}
	xml, err := atomicfile.Create(xmlPath)
	if err != nil {
		return err
	}
	defer xml.Abort()
	rewritten := *m
	rewritten.Layers, rewritten.Edges = p.layers, p.edges
	if err := rewritten.Write(xml); err != nil {
		return fmt.Errorf("writing %s: %w", xmlPath, err)
	}
	if err := atomicfile.Commit(bin, xml); err != nil {
		return err
	}
	m.Layers, m.Edges = p.layers, p.edges
	m.weights = fileWeights(binPath)
	m.appended = nil
	return nil
}

// copyData writes the data of Const l, size bytes at offset from, to w through buf.
func (m *Model) copyData(w *atomicfile.File, l *Layer, from, size int64, buf []byte) error {
	for size > 0 {
		k := min(size, int64(len(buf)))
		if err := m.readConst(l, ConstInfo{Offset: from}, buf[:k]); err != nil {
			return err
		}
		if _, err := w.Write(buf[:k]); err != nil {
			return err
		}
		from += k
		size -= k
	}
	return nil
}

// writeWeight computes one weight and writes it to w, converted to d.to through buf when that
// differs from the weight's type.
func (m *Model) writeWeight(w *atomicfile.File, d *decompressed, buf []byte) error {
	data, err := m.DecompressedData(d.w)
	if err != nil {
		return err
	}
	if d.to == d.w.Type {
		_, err := w.Write(data)
		return err
	}
	from := d.w.Type
	fs, ts := int64(from.Bits()/8), int64(d.to.Bits()/8)
	step := int64(len(buf)) / ts
	for i := int64(0); i < d.w.Elements; i += step {
		k := min(step, d.w.Elements-i)
		if err := kernels.Convert(buf, d.to, data[i*fs:(i+k)*fs], from, int(k)); err != nil {
			return m.errorf(d.w.Output.Line, d.w.Output, "converting the weight to %s: %v", d.to, err)
		}
		if _, err := w.Write(buf[:k*ts]); err != nil {
			return err
		}
	}
	return nil
}
