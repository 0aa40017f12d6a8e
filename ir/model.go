// Package ir reads, checks, evaluates, rewrites and writes OpenVINO IR models (the .xml topology
// and its .bin of constant data), IR versions 10 and 11, with a focus on the
// ConvertPromoteTypes-14 operator.
//
// Read parses the XML with encoding/xml's token stream under size and depth limits, so hostile
// input gives an error, not a panic, a hang or unbounded memory. The model keeps every part it
// does not interpret (rt_info, meta_data, quantization sections, bodies of Loop and
// TensorIterator, extension layers) as a generic element tree, so Write gives back an equivalent
// file: read → write → read yields the same Model.
//
// Check validates the graph (edges, port directions, cycles, Const data ranges) and every
// ConvertPromoteTypes layer against package op's inference. Decompose replaces each
// ConvertPromoteTypes by two Convert layers, as OpenVINO's ConvertConvertPromoteTypes pass does.
// Run evaluates ConvertPromoteTypes and Convert layers on constant data, and the Subtract,
// Multiply, Reshape, Unsqueeze, Transpose and Gather layers of compressed weights'
// decompression subgraphs as OpenVINO's reference implementation does; Fold replaces the
// layers that Run computes from constant data alone by Const layers.
package ir

import (
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/promote"
)

// Attr is one XML attribute, in the order the file gives it.
type Attr struct {
	Name, Value string
}

// NodeKind says what a Node is.
type NodeKind uint8

// The kinds of Node.
const (
	ElementNode   NodeKind = iota // <name attrs>children</name>
	TextNode                      // character data (never whitespace only)
	CommentNode                   // <!--text-->
	ProcInstNode                  // <?target text?> (Name is the target)
	DirectiveNode                 // <!text>
	MarkupNode                    // a run of comments, instructions and directives (Text is its markup)
)

// Node is a generic XML element tree: the form in which the model keeps what it does not
// interpret. Whitespace-only text between elements is dropped; other text is kept verbatim.
//
// A lone comment, processing instruction or directive is a CommentNode, ProcInstNode or
// DirectiveNode. Two or more of them that follow one another with only whitespace between them
// are one MarkupNode: a run of comments, processing instructions and directives, kept as one
// piece of markup and written back verbatim. Its Text is their markup, each item spelled as
// Write spells a node of its kind (<!--text-->, <?target text?> or <?target?>, <!text>), with
// the whitespace between them as the source has it (a carriage return becomes a line feed);
// its Line is that of its first item. A run thus costs about its bytes, however many items it
// has.
type Node struct {
	Kind     NodeKind
	Name     string // element name (with its prefix, "a:b"), or the target of a processing instruction
	Attrs    []Attr
	Children []*Node
	Text     string // text, comment, instruction or directive content; the markup of a run
	Line     int    // line of the start tag in the source (0 for nodes built in code)
}

// Attr returns the value of the attribute named name and whether it is present.
func (n *Node) Attr(name string) (string, bool) { return getAttr(n.Attrs, name) }

// Child returns the first child element named name, or nil.
func (n *Node) Child(name string) *Node {
	for _, c := range n.Children {
		if c.Kind == ElementNode && c.Name == name {
			return c
		}
	}
	return nil
}

// Clone returns a deep copy of n.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Attrs = append([]Attr(nil), n.Attrs...)
	c.Children = make([]*Node, len(n.Children))
	for i, ch := range n.Children {
		c.Children[i] = ch.Clone()
	}
	if len(n.Children) == 0 {
		c.Children = nil
	}
	return &c
}

// Model is one IR network: the <net> element with its layers and edges.
type Model struct {
	// File is the path of the .xml (or the name given to Parse); errors start with it.
	File string
	// Name and Version are the <net> attributes name and version (10 or 11).
	Name    string
	Version int
	// NetAttrs are the other attributes of <net>, in order.
	NetAttrs []Attr
	// Layers in file order (ids are not necessarily sorted).
	Layers []*Layer
	// Edges in file order.
	Edges []*Edge
	// Extra are the other children of <net> (rt_info, meta_data, quantization_parameters, ...),
	// in order; they are written after <edges>. Comments, processing instructions and
	// directives on either side of <layers> and <edges> with no element of Extra between them
	// are one MarkupNode, one item a line, as in the file Write gives.
	Extra []*Node
	// Prolog and Epilog are the comments, processing instructions (other than the XML
	// declaration) and directives before and after the <net> element: one node each when read,
	// a MarkupNode for a run of two or more.
	Prolog, Epilog []*Node
	// Line is the line of the <net> tag.
	Line int

	weights  *weightData
	appended []byte // constant data added by Fold, written after the .bin's bytes by Save
}

// Layer is one <layer>.
type Layer struct {
	ID      int64
	Name    string
	Type    string
	Version string
	// Attrs are attributes of <layer> other than id, name, type and version, in order.
	Attrs []Attr
	// Data is the <data> element (nil when the layer has none); its attributes keep their order.
	Data *Node
	// Head are the children written between <data> and <input> (rt_info and anything not
	// interpreted that appears before <output> ends); Tail those after <output> (a Loop's
	// body, port_map, back_edges, ...).
	Head, Tail []*Node
	// Inputs and Outputs are the ports of <input> and <output>. HasInput and HasOutput record an
	// empty <input/> or <output/> element.
	Inputs, Outputs     []*Port
	HasInput, HasOutput bool
	Line                int
}

// Port is one <port> of a layer's <input> or <output>.
type Port struct {
	ID int64
	// Precision is the precision attribute as written ("FP32", "f32", "BIN"); "" when absent.
	Precision string
	// HasNames records whether the names attribute is present; Names is its raw value, with
	// "\," escapes (NameList gives the names).
	Names    string
	HasNames bool
	// Attrs are other attributes of <port>, in order.
	Attrs []Attr
	// Dims are the <dim> values; -1 is a dynamic dimension. No <dim> means rank 0.
	Dims []int64
	// Extra are other children of <port> (rt_info, ...), in order, written after the dims.
	Extra []*Node
	Line  int
}

// Edge is one <edge>: data flows from an output port to an input port.
type Edge struct {
	FromLayer, FromPort, ToLayer, ToPort int64
	// Attrs are attributes other than the four ids, in order.
	Attrs []Attr
	Line  int
}

// Type returns the port's element type: Parse of its precision. A port without precision
// returns Dynamic and false.
func (p *Port) Type() (element.Type, bool) {
	if p.Precision == "" {
		return element.Dynamic, false
	}
	t, err := element.Parse(p.Precision)
	if err != nil {
		return element.Dynamic, false
	}
	return t, true
}

// Shape returns the port's dims as a partial shape: -1 is a dynamic dimension, no <dim> is
// rank 0.
func (p *Port) Shape() promote.Shape {
	s := promote.Shape{Dims: make([]promote.Dim, len(p.Dims))}
	for i, d := range p.Dims {
		if d < 0 {
			s.Dims[i] = promote.DynamicDim()
		} else {
			s.Dims[i] = promote.StaticDim(d)
		}
	}
	return s
}

// NameList returns the port's tensor names: Names split at commas that are not escaped as "\,",
// with "\," unescaped and spaces around each name trimmed. An empty Names gives no names.
func (p *Port) NameList() []string { return splitNames(p.Names) }

// splitNames splits a names attribute at commas that are not escaped as "\,", unescapes "\,",
// and trims spaces around each name. An empty string gives no names.
func splitNames(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ',':
			cur.WriteByte(',')
			i++
		case s[i] == ',':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// joinNames is the inverse of splitNames: it escapes commas in each name as "\," and joins the
// names with ",".
func joinNames(names []string) string {
	esc := make([]string, len(names))
	for i, n := range names {
		esc[i] = strings.ReplaceAll(n, ",", `\,`)
	}
	return strings.Join(esc, ",")
}

// DataAttr returns the value of the <data> attribute named name and whether it is present.
func (l *Layer) DataAttr(name string) (string, bool) {
	if l.Data == nil {
		return "", false
	}
	return getAttr(l.Data.Attrs, name)
}

// SetDataAttr sets a <data> attribute, keeping its place when it exists and appending it
// otherwise (creating <data> when the layer has none).
func (l *Layer) SetDataAttr(name, value string) {
	if l.Data == nil {
		l.Data = &Node{Kind: ElementNode, Name: "data"}
	}
	for i := range l.Data.Attrs {
		if l.Data.Attrs[i].Name == name {
			l.Data.Attrs[i].Value = value
			return
		}
	}
	l.Data.Attrs = append(l.Data.Attrs, Attr{name, value})
}

// Input returns the input port with the given id, or nil.
func (l *Layer) Input(id int64) *Port { return findPort(l.Inputs, id) }

// Output returns the output port with the given id, or nil.
func (l *Layer) Output(id int64) *Port { return findPort(l.Outputs, id) }

func findPort(ps []*Port, id int64) *Port {
	for _, p := range ps {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// Label returns "layer ID (NAME)", the form errors use.
func (l *Layer) Label() string {
	return "layer " + strconv.FormatInt(l.ID, 10) + " (" + l.Name + ")"
}

// Layer returns the layer with the given id, or nil.
func (m *Model) Layer(id int64) *Layer {
	for _, l := range m.Layers {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// LayerByName returns the first layer with the given name, or nil.
func (m *Model) LayerByName(name string) *Layer {
	for _, l := range m.Layers {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// Producer returns the edge that feeds input port (layer, port), or nil when it is unconnected.
func (m *Model) Producer(layer, port int64) *Edge {
	for _, e := range m.Edges {
		if e.ToLayer == layer && e.ToPort == port {
			return e
		}
	}
	return nil
}

// CountByType returns how many layers each type has.
func (m *Model) CountByType() map[string]int {
	c := map[string]int{}
	for _, l := range m.Layers {
		c[l.Type]++
	}
	return c
}

// nextLayerID returns an id larger than every layer id in the model.
func (m *Model) nextLayerID() int64 {
	next := int64(0)
	for _, l := range m.Layers {
		if l.ID >= next {
			next = l.ID + 1
		}
	}
	return next
}

func getAttr(as []Attr, name string) (string, bool) {
	for _, a := range as {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}
