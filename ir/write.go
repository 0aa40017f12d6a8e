package ir

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/internal/atomicfile"
)

// Write writes the model's XML to w in OpenVINO's layout: an XML declaration, tab indentation,
// <layers> then <edges> then the other children of <net>. Attributes keep their order and
// spelling (an unchanged port keeps its precision spelling, "FP32" or "f32"); text and
// attribute values are escaped so that reading the output gives the same model. Comments directly
// inside <layers>, <edges> and the layers, ports and edges in them are not kept; the other
// comments, processing instructions and directives are, and a run of them (MarkupNode) is
// written verbatim.
func (m *Model) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	x := &xmlWriter{w: bw}
	x.raw(`<?xml version="1.0"?>` + "\n")
	for _, n := range m.Prolog {
		x.node(n, 0)
	}
	netAttrs := make([]Attr, 0, 2+len(m.NetAttrs))
	netAttrs = append(netAttrs, Attr{"name", m.Name}, Attr{"version", strconv.Itoa(m.Version)})
	netAttrs = append(netAttrs, m.NetAttrs...)
	x.open("net", netAttrs, 0)
	x.open("layers", nil, 1)
	for _, l := range m.Layers {
		x.layer(l, 2)
	}
	x.close("layers", 1)
	x.open("edges", nil, 1)
	for _, e := range m.Edges {
		as := []Attr{
			{"from-layer", strconv.FormatInt(e.FromLayer, 10)},
			{"from-port", strconv.FormatInt(e.FromPort, 10)},
			{"to-layer", strconv.FormatInt(e.ToLayer, 10)},
			{"to-port", strconv.FormatInt(e.ToPort, 10)},
		}
		x.empty("edge", append(as, e.Attrs...), 2)
	}
	x.close("edges", 1)
	for _, n := range m.Extra {
		x.node(n, 1)
	}
	x.close("net", 0)
	for _, n := range m.Epilog {
		x.node(n, 0)
	}
	if x.err != nil {
		return x.err
	}
	return bw.Flush()
}

// WriteFile writes the model's XML to path (see Write), atomically: to a temporary file in
// path's directory, flushed to disk and renamed onto path when complete (a symlink at path is
// replaced, not followed). It does not write the .bin (see Save).
func (m *Model) WriteFile(path string) error {
	return atomicfile.Write(path, m.Write)
}

type xmlWriter struct {
	w   *bufio.Writer
	err error
}

func (x *xmlWriter) raw(s string) {
	if x.err == nil {
		_, x.err = x.w.WriteString(s)
	}
}

func (x *xmlWriter) indent(depth int) { x.raw(strings.Repeat("\t", depth)) }

func (x *xmlWriter) tag(name string, attrs []Attr) {
	x.raw("<" + name)
	for _, a := range attrs {
		x.raw(" " + a.Name + `="` + escapeAttr(a.Value) + `"`)
	}
}

func (x *xmlWriter) open(name string, attrs []Attr, depth int) {
	x.indent(depth)
	x.tag(name, attrs)
	x.raw(">\n")
}

func (x *xmlWriter) close(name string, depth int) {
	x.indent(depth)
	x.raw("</" + name + ">\n")
}

func (x *xmlWriter) empty(name string, attrs []Attr, depth int) {
	x.indent(depth)
	x.tag(name, attrs)
	x.raw(" />\n")
}

func (x *xmlWriter) layer(l *Layer, depth int) {
	as := make([]Attr, 0, 4+len(l.Attrs))
	as = append(as, Attr{"id", strconv.FormatInt(l.ID, 10)}, Attr{"name", l.Name}, Attr{"type", l.Type})
	if l.Version != "" {
		as = append(as, Attr{"version", l.Version})
	}
	as = append(as, l.Attrs...)
	if l.Data == nil && len(l.Head) == 0 && len(l.Tail) == 0 && !l.HasInput && !l.HasOutput && len(l.Inputs) == 0 && len(l.Outputs) == 0 {
		x.empty("layer", as, depth)
		return
	}
	x.open("layer", as, depth)
	if l.Data != nil {
		x.node(l.Data, depth+1)
	}
	for _, n := range l.Head {
		x.node(n, depth+1)
	}
	x.ports("input", l.Inputs, l.HasInput, depth+1)
	x.ports("output", l.Outputs, l.HasOutput, depth+1)
	for _, n := range l.Tail {
		x.node(n, depth+1)
	}
	x.close("layer", depth)
}

func (x *xmlWriter) ports(name string, ps []*Port, has bool, depth int) {
	if len(ps) == 0 {
		if has {
			x.empty(name, nil, depth)
		}
		return
	}
	x.open(name, nil, depth)
	for _, p := range ps {
		as := make([]Attr, 0, 3+len(p.Attrs))
		as = append(as, Attr{"id", strconv.FormatInt(p.ID, 10)})
		if p.Precision != "" {
			as = append(as, Attr{"precision", p.Precision})
		}
		if p.HasNames {
			as = append(as, Attr{"names", p.Names})
		}
		as = append(as, p.Attrs...)
		if len(p.Dims) == 0 && len(p.Extra) == 0 {
			x.empty("port", as, depth+1)
			continue
		}
		x.open("port", as, depth+1)
		for _, d := range p.Dims {
			x.indent(depth + 2)
			x.raw("<dim>" + strconv.FormatInt(d, 10) + "</dim>\n")
		}
		for _, n := range p.Extra {
			x.node(n, depth+2)
		}
		x.close("port", depth+1)
	}
	x.close(name, depth)
}

// node writes a generic node. An element whose children include text is written on one line,
// exactly, so that its text does not gain whitespace.
func (x *xmlWriter) node(n *Node, depth int) {
	x.indent(depth)
	x.inline(n, depth, false)
}

func (x *xmlWriter) inline(n *Node, depth int, flat bool) {
	nl := "\n"
	if flat {
		nl = ""
	}
	switch n.Kind {
	case TextNode:
		x.raw(escapeText(n.Text))
	case CommentNode, ProcInstNode, DirectiveNode:
		x.raw(markupText(n))
		x.raw(nl)
	case MarkupNode:
		x.raw(n.Text) // verbatim: a run's text is its markup
		x.raw(nl)
	case ElementNode:
		x.tag(n.Name, n.Attrs)
		if len(n.Children) == 0 {
			x.raw(" />" + nl)
			return
		}
		x.raw(">")
		mixed := flat
		for _, c := range n.Children {
			if c.Kind == TextNode {
				mixed = true
			}
		}
		if mixed {
			for _, c := range n.Children {
				x.inline(c, 0, true)
			}
			x.raw("</" + n.Name + ">" + nl)
			return
		}
		x.raw("\n")
		for _, c := range n.Children {
			x.node(c, depth+1)
		}
		x.indent(depth)
		x.raw("</" + n.Name + ">\n")
	}
}

// markupText returns the markup of a comment, processing instruction, directive or run of
// them, as Write spells it.
func markupText(n *Node) string {
	switch n.Kind {
	case CommentNode:
		return "<!--" + n.Text + "-->"
	case ProcInstNode:
		if n.Text == "" {
			return "<?" + n.Name + "?>"
		}
		return "<?" + n.Name + " " + n.Text + "?>"
	case DirectiveNode:
		return "<!" + n.Text + ">"
	}
	return n.Text
}

// escapeAttr escapes an attribute value for a double-quoted attribute, including the
// whitespace characters that an XML reader would otherwise normalize to spaces.
func escapeAttr(s string) string { return attrEscaper.Replace(s) }

// escapeText escapes character data (a carriage return too, which readers would normalize).
func escapeText(s string) string { return textEscaper.Replace(s) }

var (
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;",
		"\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;")
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;")
)

// String returns the model's XML (Write into a string), for debugging and tests.
func (m *Model) String() string {
	var b strings.Builder
	if err := m.Write(&b); err != nil {
		return fmt.Sprintf("<!-- write error: %v -->", err)
	}
	return b.String()
}
