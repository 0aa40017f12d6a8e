package ir

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"

	"github.com/convertpromote/convertpromote/element"
)

// Decompose replaces every ConvertPromoteTypes layer by two Convert layers (opset1, <data
// destination_type="T"/> with T the inferred common type), as OpenVINO's
// ConvertConvertPromoteTypes pass does for runtimes without opset14:
//   - Convert i is named "<input i's producer layer name>/<op name>.i", as OpenVINO names it,
//     when that name is at most MaxDecomposeName (256) bytes long, and "<op name>.i" otherwise;
//     so along a chain of operators the names nest only up to that length, and the output grows
//     with the input rather than with its square. It is emitted even when input i already has
//     type T;
//   - its input port has id 0 and input i's precision and dims, its output port has id 1, the
//     common type's precision, input i's dims, and output 2+i's names and port rt_info;
//   - both Converts get a copy of the operator's layer rt_info;
//   - edges into input i now go to Convert i, and edges from output 2+i leave Convert i's port 1;
//   - new layers take ids above every existing id, and stand where the operator stood.
//
// Operators inside the <body> of a Loop or TensorIterator are replaced the same way within their
// body graph (new ids above the body's own), and the body is written back.
//
// The model must pass Check first; Decompose returns Check's errors otherwise. An operator whose
// common type is dynamic (or unknown: an input port without precision fed by one without) is
// left in place, as OpenVINO's pass leaves it, since Convert needs a static type. It returns the
// number of layers replaced, bodies included.
func (m *Model) Decompose() (int, error) {
	rep, err := m.Check()
	if err != nil {
		return 0, err
	}
	n := m.decompose(rep)
	for _, l := range m.Layers {
		k, err := m.decomposeBody(l)
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}

// MaxDecomposeName is the longest name Decompose gives a Convert after its producer; see
// Decompose.
const MaxDecomposeName = 256

// convertName names the Convert that replaces input i of the operator named op, fed by the
// layer named src: OpenVINO's "src/op.i" when it fits in MaxDecomposeName bytes, "op.i"
// otherwise, so that names do not nest without bound along a chain.
func convertName(src, op string, i int) string {
	suffix := "." + strconv.Itoa(i)
	if len(src)+1+len(op)+len(suffix) <= MaxDecomposeName {
		return src + "/" + op + suffix
	}
	return op + suffix
}

// decomposeBody decomposes the operators in l's <body>, if it has one, and replaces the body's
// children with the rewritten graph.
func (m *Model) decomposeBody(l *Layer) (int, error) {
	sub, err := m.Body(l)
	if err != nil || sub == nil {
		return 0, err
	}
	k, err := sub.Decompose()
	if err != nil || k == 0 {
		return 0, err
	}
	return k, m.setBody(l, sub)
}

// setBody replaces the children of l's <body> with the graph of sub. The body graph is written
// as a <net> and its children read back: the same writer and reader as for whole models, so the
// body keeps their round-trip guarantees.
func (m *Model) setBody(l *Layer, sub *Model) error {
	var buf bytes.Buffer
	if err := sub.Write(&buf); err != nil {
		return err
	}
	_, root, _, err := parseTree(&buf, DefaultLimits, m.File, nil)
	if err != nil {
		return fmt.Errorf("%s: rewriting the body of %s: %w", m.File, l.Label(), err)
	}
	clearLines(root) // the lines of the text written here mean nothing in the model's file
	for _, n := range l.Tail {
		if n.Kind == ElementNode && n.Name == "body" {
			n.Children = root.Children
			break
		}
	}
	return nil
}

// clearLines sets Line to 0, "built in code", in n and everything under it.
func clearLines(n *Node) {
	n.Line = 0
	for _, c := range n.Children {
		clearLines(c)
	}
}

// decompose replaces the operators of m's own graph (not those in bodies) and returns how many.
func (m *Model) decompose(rep *Report) int {
	byID := map[int64]*Layer{}
	for _, l := range m.Layers {
		byID[l.ID] = l
	}
	into := map[[2]int64][]*Edge{}
	from := map[[2]int64][]*Edge{}
	for _, e := range m.Edges {
		into[[2]int64{e.ToLayer, e.ToPort}] = append(into[[2]int64{e.ToLayer, e.ToPort}], e)
		from[[2]int64{e.FromLayer, e.FromPort}] = append(from[[2]int64{e.FromLayer, e.FromPort}], e)
	}
	// Rewrite in topological order, as OpenVINO's pass does, so that an operator fed by another
	// one names its Convert after the Convert that replaced its producer.
	order, _ := m.topoOrder(byID)
	pos := map[*Layer]int{}
	for i, l := range order {
		pos[l] = i
	}
	var promotes []PromoteLayer
	for _, pl := range rep.Promotes {
		if pl.Body == nil {
			promotes = append(promotes, pl)
		}
	}
	sort.SliceStable(promotes, func(i, j int) bool { return pos[promotes[i].Layer] < pos[promotes[j].Layer] })
	next := m.nextLayerID()
	replaced := map[*Layer][2]*Layer{}
	for _, pl := range promotes {
		l := pl.Layer
		if !pl.InKnown[0] || !pl.InKnown[1] || pl.Common == element.Dynamic {
			continue // as OpenVINO's pass, which only matches a static output type
		}
		var pair [2]*Layer
		for i := 0; i < 2; i++ {
			in, out := l.Inputs[i], l.Outputs[i]
			src := byID[into[[2]int64{l.ID, in.ID}][0].FromLayer]
			cv := &Layer{
				ID:      next,
				Name:    convertName(src.Name, l.Name, i),
				Type:    "Convert",
				Version: "opset1",
				Data: &Node{Kind: ElementNode, Name: "data",
					Attrs: []Attr{{"destination_type", pl.Common.String()}}},
				HasInput:  true,
				HasOutput: true,
			}
			next++
			byID[cv.ID] = cv
			for _, h := range l.Head {
				if h.Kind == ElementNode && h.Name == "rt_info" {
					cv.Head = append(cv.Head, h.Clone())
				}
			}
			inPrec := in.Precision
			if inPrec == "" {
				inPrec = pl.In[i].Type.IRPrecision()
			}
			cv.Inputs = []*Port{{ID: 0, Precision: inPrec, Dims: append([]int64(nil), in.Dims...)}}
			outPrec := out.Precision
			if t, ok := out.Type(); !ok || t != pl.Common {
				outPrec = pl.Common.IRPrecision()
			}
			op := &Port{ID: 1, Precision: outPrec, Names: out.Names, HasNames: out.HasNames,
				Attrs: append([]Attr(nil), out.Attrs...), Dims: append([]int64(nil), in.Dims...)}
			for _, x := range out.Extra {
				op.Extra = append(op.Extra, x.Clone())
			}
			cv.Outputs = []*Port{op}
			for _, e := range into[[2]int64{l.ID, in.ID}] {
				e.ToLayer, e.ToPort = cv.ID, 0
			}
			for _, e := range from[[2]int64{l.ID, out.ID}] {
				e.FromLayer, e.FromPort = cv.ID, 1
			}
			pair[i] = cv
		}
		replaced[l] = pair
	}
	if len(replaced) == 0 {
		return 0
	}
	layers := make([]*Layer, 0, len(m.Layers)+len(replaced))
	for _, l := range m.Layers {
		if p, ok := replaced[l]; ok {
			layers = append(layers, p[0], p[1])
			continue
		}
		layers = append(layers, l)
	}
	m.Layers = layers
	return len(replaced)
}
