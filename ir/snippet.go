package ir

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
)

var (
	snippetComment = regexp.MustCompile(`<\s+!--`)
	snippetComma   = regexp.MustCompile(`"\s*,(\s*[A-Za-z_][\w.:-]*\s*=)`)
	snippetDots    = regexp.MustCompile(`(<layer\b[^>]*?)\s\.\.\.`)
	snippetLayer   = regexp.MustCompile(`<layer\b[^>]*>`)
	snippetHasID   = regexp.MustCompile(`\sid\s*=`)
	snippetHasName = regexp.MustCompile(`\sname\s*=`)
)

// ParseSnippet reads one or more <layer> elements as they are pasted from OpenVINO's operation
// specifications, which are not well-formed XML: it accepts a comma between attributes
// (precision="FP32", names="…"), "< !--" for a comment and a "..." placeholder in the <layer>
// tag, and gives layers without an id or name the ids 0, 1, … and the name "layerN". Each
// input port of a layer gets a Parameter of the port's precision and dims feeding it, so that
// Check can infer what the layer's outputs should be. Line numbers in errors are those of the
// pasted text. Real IR files must be read with Read or Parse, which are strict.
func ParseSnippet(src []byte, name string) (*Model, error) {
	if int64(len(src)) > DefaultLimits.MaxXMLBytes {
		return nil, &Error{File: name, Msg: "snippet larger than the size limit"}
	}
	s := snippetComment.ReplaceAll(src, []byte("<!--"))
	s = snippetComma.ReplaceAll(s, []byte(`" $1`))
	s = snippetDots.ReplaceAll(s, []byte("$1"))
	n := 0
	s = snippetLayer.ReplaceAllFunc(s, func(tag []byte) []byte {
		id := n
		n++
		extra := ""
		if !snippetHasID.Match(tag) {
			extra += ` id="` + strconv.Itoa(id) + `"`
		}
		if !snippetHasName.Match(tag) {
			extra += ` name="layer` + strconv.Itoa(id) + `"`
		}
		return append([]byte("<layer"+extra), tag[len("<layer"):]...)
	})
	// Drop an XML declaration; wrap the layers in a net on the first line so lines stay put.
	if bytes.HasPrefix(bytes.TrimSpace(s), []byte("<?xml")) {
		t := bytes.TrimSpace(s)
		if i := bytes.Index(t, []byte("?>")); i >= 0 {
			lead := len(s) - len(t)
			s = append(bytes.Repeat([]byte(" "), lead+i+2), t[i+2:]...)
		}
	}
	wrapped := append([]byte(`<net name="snippet" version="11"><layers>`), s...)
	wrapped = append(wrapped, []byte("</layers></net>")...)
	m, err := ParseBytes(wrapped, nil, name)
	if err != nil {
		return nil, err
	}
	next := m.nextLayerID()
	var params []*Layer
	for _, l := range m.Layers {
		for _, p := range l.Inputs {
			if m.Producer(l.ID, p.ID) != nil {
				continue
			}
			prec := p.Precision
			if prec == "" {
				prec = "UNSPECIFIED"
			}
			t, _ := p.Type()
			par := &Layer{ID: next, Name: fmt.Sprintf("%s/input%d", l.Name, p.ID), Type: "Parameter", Version: "opset1",
				Data: &Node{Kind: ElementNode, Name: "data", Attrs: []Attr{
					{"shape", p.Shape().String()}, {"element_type", t.String()}}},
				Outputs: []*Port{{ID: 0, Precision: prec, Dims: append([]int64(nil), p.Dims...)}}, HasOutput: true,
				Line: p.Line}
			next++
			params = append(params, par)
			m.Edges = append(m.Edges, &Edge{FromLayer: par.ID, FromPort: 0, ToLayer: l.ID, ToPort: p.ID, Line: p.Line})
		}
	}
	m.Layers = append(params, m.Layers...)
	return m, nil
}
