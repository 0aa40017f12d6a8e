package ir

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"github.com/convertpromote/convertpromote/internal/testkit"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// allocBound is the documented bound on what reading allocates (see Limits).
func allocBound(nodes int, bytes int64) uint64 {
	return 400*uint64(nodes) + 3*uint64(bytes) + 1<<20
}

// countNodes counts the nodes of src as Limits defines them, with encoding/xml alone.
func countNodes(t *testing.T, src []byte) int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(src))
	n := 0
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("counting nodes: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n += 1 + len(tok.Attr)
		case xml.Comment, xml.Directive:
			n++
		case xml.ProcInst:
			if tok.Target != "xml" {
				n++
			}
		case xml.CharData:
			if len(bytes.TrimSpace(tok)) > 0 {
				n++
			}
		}
	}
}

// repeat is a document of head, unit repeated n times, and tail.
func repeat(head, unit string, n int, tail string) []byte {
	return []byte(head + strings.Repeat(unit, n) + tail)
}

// TestReadMemoryBound reads inputs made to cost the reader the most per byte (tiny comments,
// instructions, elements, attributes and text runs, kept or dropped; a fan-out of Results;
// long text) and checks the allocation bound Limits states, 400·N + 3·B + 1 MiB.
func TestReadMemoryBound(t *testing.T) {
	if raceEnabled {
		t.Skip("-race inflates allocation counts")
	}
	const k = 100_000
	var attrs strings.Builder
	for i := range k {
		fmt.Fprintf(&attrs, ` a%d=""`, i)
	}
	var fan bytes.Buffer
	fan.WriteString(`<net name="n" version="11"><layers><layer id="0" name="p" type="Parameter" version="opset1"><data shape="1" element_type="f32"/><output><port id="0" precision="FP32"><dim>1</dim></port></output></layer>`)
	for i := 1; i <= k/10; i++ {
		fmt.Fprintf(&fan, "<layer id=\"%d\" name=\"r%d\" type=\"Result\" version=\"opset1\"><input><port id=\"0\" precision=\"FP32\"><dim>1</dim></port></input></layer>\n", i, i)
	}
	fan.WriteString("</layers><edges>")
	for i := 1; i <= k/10; i++ {
		fmt.Fprintf(&fan, "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"%d\" to-port=\"0\"/>\n", i)
	}
	fan.WriteString("</edges></net>")
	const meta, metaEnd = `<net version="11"><layers/><meta_data>`, `</meta_data></net>`
	cases := map[string][]byte{
		"comments in <layers>":       repeat(`<net version="11"><layers>`, "<!---->", k, "</layers></net>"),
		"comments in <edges>":        repeat(`<net version="11"><layers/><edges>`, "<!---->", k, "</edges></net>"),
		"comments kept":              repeat(meta, "<!---->", k, metaEnd),
		"instructions kept":          repeat(meta, "<?a?>", k, metaEnd),
		"directives kept":            repeat(meta, "<!a>", k, metaEnd),
		"elements kept":              repeat(meta, "<a/>", k, metaEnd),
		"text runs kept":             repeat(meta, "<a/>x", k, metaEnd),
		"attributes of one element":  []byte(`<net version="11"><layers/><meta_data` + attrs.String() + `/></net>`),
		"attributes of many":         repeat(meta, `<b a="" c="" d="" e="" f="" g="" h="" i=""/>`, k/8, metaEnd),
		"fan-out of Results":         fan.Bytes(),
		"long text":                  repeat(meta, "<a>"+strings.Repeat("x", 1<<20)+"</a>", 4, metaEnd),
		"long attribute values":      repeat(meta, `<a b="`+strings.Repeat("x", 1<<20)+`"/>`, 4, metaEnd),
		"comments before the root":   repeat("", "<!---->", k, `<net version="11"><layers/></net>`),
		"comments in a layer's port": repeat(`<net version="11"><layers><layer id="0" type="X"><output><port id="0">`, "<!---->", k, "</port></output></layer></layers></net>"),
	}
	for name, src := range cases {
		n := countNodes(t, src)
		var err error
		alloc := testkit.Allocated(func() { _, err = Parse(bytes.NewReader(src), "m.xml") })
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		t.Logf("%s: %d bytes, %d nodes, %d allocated (%.0f a node)", name, len(src), n, alloc, float64(alloc)/float64(n))
		if bound := allocBound(n, int64(len(src))); alloc > bound {
			t.Errorf("%s (%d bytes, %d nodes): allocated %d bytes, more than the bound %d", name, len(src), n, alloc, bound)
		}
	}
}

// TestReadNodeLimit streams 50 MB of tiny nodes of each kind, far more than the node limit,
// into the reader: each is refused at the limit, and what was allocated stays within the bound
// for the nodes and bytes read, not the 50 MB offered.
func TestReadNodeLimit(t *testing.T) {
	if raceEnabled {
		t.Skip("-race inflates allocation counts")
	}
	const total = 50 << 20
	lim := DefaultLimits
	lim.MaxNodes = 100_000
	cases := []struct {
		name, head, unit string
	}{
		{"comments in <layers>", `<net version="11"><layers>`, "<!---->"},
		{"comments kept", `<net version="11"><layers/><meta_data>`, "<!---->"},
		{"instructions kept", `<net version="11"><layers/><meta_data>`, "<?a?>"},
		{"elements kept", `<net version="11"><layers/><meta_data>`, "<a/>"},
		{"attributes of one element", `<net version="11"><layers/><meta_data`, ` a=""`},
		{"comments before the root", ``, "<!---->"},
	}
	for _, c := range cases {
		// chunk returns the i'th 64 KiB of units; attributes get names distinct across the
		// document, so that the node limit is what stops them.
		// The buffers are made before the measurement starts and reused.
		units := []byte(strings.Repeat(c.unit, (1<<16)/len(c.unit)))
		buf := make([]byte, 0, 128<<10)
		chunk := func(i int) []byte {
			if c.unit[0] != ' ' {
				return units
			}
			b := buf[:0]
			for j := range 1 << 12 {
				b = append(b, " a"...)
				b = strconv.AppendInt(b, int64(i), 10)
				b = append(b, '_')
				b = strconv.AppendInt(b, int64(j), 10)
				b = append(b, `=""`...)
			}
			return b
		}
		pr, pw := io.Pipe()
		done := make(chan int64)
		go func() {
			n, err := io.WriteString(pw, c.head)
			written := int64(n)
			for i := 0; err == nil && written < total; i++ {
				n, err = pw.Write(chunk(i))
				written += int64(n)
			}
			pw.Close()
			done <- written
		}()
		var err error
		alloc := testkit.Allocated(func() { _, err = lim.Parse(pr, "m.xml") })
		pr.CloseWithError(errors.New("reader done"))
		written := <-done
		if err == nil || !strings.Contains(err.Error(), "more than 100000 nodes") {
			t.Errorf("%s: err = %v, want the node limit", c.name, err)
		}
		t.Logf("%s: %d bytes allocated, %.0f a node", c.name, alloc, float64(alloc)/float64(lim.MaxNodes))
		if bound := allocBound(lim.MaxNodes, written); alloc > bound {
			t.Errorf("%s: allocated %d bytes reading %d of the %d bytes, more than the bound %d", c.name, alloc, written, total, bound)
		}
	}
}

// TestReadMarkupRunMemory reads 50 MB (5 MB with -short) of tiny comments, processing
// instructions and directives in each place the reader takes them: before and after <net>,
// directly inside it, inside the subtrees it keeps (meta_data, a layer's rt_info) and inside a
// <layer>, where they are dropped. A run is one node of its bytes, however many items it has:
// the model keeps at most B + 1 MiB, and reading allocates at most 2·B + 80·N + 1 MiB (the run's
// text is gathered in chunks and copied once; encoding/xml allocates 48 to 72 bytes of garbage
// for each item and the whitespace after it).
func TestReadMarkupRunMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("-race inflates allocation counts")
	}
	total := 50_000_000
	if testing.Short() {
		total = 5_000_000
	}
	const net = `<net name="n" version="11">`
	const layer = `<layer id="0" name="p" type="Parameter" version="opset1">`
	const layerEnd = `<data shape="1" element_type="f32"/><output><port id="0" precision="FP32"><dim>1</dim></port></output></layer>`
	places := []struct{ name, head, tail string }{
		{"before <net>", "", net + "<layers/></net>"},
		{"after <net>", net + "<layers/></net>\n", ""},
		{"in <net>", net + "\n", "<layers/></net>"},
		{"in <meta_data>", net + "<layers/><meta_data>\n", "</meta_data></net>"},
		{"in a layer's <rt_info>", net + "<layers>" + layer + "<rt_info>\n", "</rt_info>" + layerEnd + "</layers></net>"},
		{"in a <layer>, dropped", net + "<layers>" + layer + "\n", layerEnd + "</layers></net>"},
	}
	units := []struct{ name, unit string }{
		{"13-byte comments", "<!--12345-->\n"},
		{"16-byte instructions", "<?p 123456789?>\n"},
		{"13-byte directives", "<!DOCTYPE n>\n"},
	}
	for _, u := range units {
		for _, p := range places {
			isComment := strings.HasPrefix(u.unit, "<!--")
			if !isComment && strings.Contains(p.name, "dropped") {
				continue // an error: only comments may be inside a <layer>
			}
			if strings.HasPrefix(u.unit, "<!D") && p.name != "before <net>" {
				continue // XML allows a directive only before the root
			}
			k := total / len(u.unit)
			src := repeat(p.head, u.unit, k, p.tail)
			var m *Model
			var err error
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			alloc := testkit.Allocated(func() { m, err = Parse(bytes.NewReader(src), "m.xml") })
			runtime.GC()
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Errorf("%s %s: %v", u.name, p.name, err)
				continue
			}
			kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			runtime.KeepAlive(m)
			runtime.KeepAlive(src)
			b := uint64(len(src))
			t.Logf("%s %s: %d bytes, %d items: %d allocated (%.2f·B), %d kept", u.name, p.name, b, k, alloc, float64(alloc)/float64(b), kept)
			if bound := 2*b + 80*uint64(k) + 1<<20; alloc > bound {
				t.Errorf("%s %s: %d bytes allocated reading %d bytes of %d items, more than 2·B + 80·N + 1 MiB = %d", u.name, p.name, alloc, b, k, bound)
			}
			if kept > int64(b)+1<<20 {
				t.Errorf("%s %s: the model keeps %d bytes of a %d-byte file", u.name, p.name, kept, b)
			}
		}
	}
}
