package ir

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/regfile"
)

// Limits bound what the reader accepts, so that hostile input fails fast with bounded memory.
//
// Every byte and every node of the file counts. A node is an element, an attribute, a comment,
// a processing instruction, a directive or a text run that is not only whitespace. Reading B
// bytes of XML with N nodes (the reader stops at MaxXMLBytes and MaxNodes) allocates at most
//
//	400·N + 3·B + 1 MiB
//
// bytes in all, garbage included, so the heap never holds more; with DefaultLimits that is at
// most 1.6 GiB plus three times the file. The model that remains is smaller: about 32 bytes per
// node of <layers> and <edges>, which are interpreted as they are read, and at most 128 per
// node kept as an element tree (rt_info, meta_data, Loop bodies, comments outside <layers> and
// <edges>), plus the text of the names, values and comments it keeps (at most B).
//
// A run of comments, processing instructions and directives is one node however many items it
// has (see MarkupNode): the model keeps about its bytes, and reading it holds at most about
// twice its bytes at once (its text gathered in chunks, then copied into one string), besides
// encoding/xml's garbage of under 80 bytes an item. A file that is mostly such a run thus
// leaves a model of about B bytes, however small its items.
type Limits struct {
	// MaxXMLBytes is the largest .xml accepted.
	MaxXMLBytes int64
	// MaxTokenBytes is the largest single XML token (a start tag with all its attributes, a
	// text run, a comment).
	MaxTokenBytes int64
	// MaxDepth is the deepest element nesting accepted (<net> is depth 1).
	MaxDepth int
	// MaxNodes is the most nodes a file may have: elements, attributes, comments, processing
	// instructions, directives and text runs other than whitespace, all counted together.
	MaxNodes int
}

// DefaultLimits are the limits Read and Parse use: a 1 GiB file, 16 MiB tokens, nesting 256
// deep, 4 Mi nodes. A model of 4 Mi nodes in its layers and edges takes about 130 MiB once
// read (about 60,000 layers of a typical IR; real IR files have far fewer), and the file
// that allocates the most within these limits allocates at most 1.6 GiB plus three times its size
// while it is read (see Limits).
var DefaultLimits = Limits{
	MaxXMLBytes:   1 << 30,
	MaxTokenBytes: 16 << 20,
	MaxDepth:      256,
	MaxNodes:      4 << 20,
}

// Read reads the IR model in the .xml file at path. Its constant data is looked up lazily in the
// .bin beside it (path with .xml replaced by .bin), which need not exist until Const data is
// needed. An .xml or .bin that is not a regular file (a FIFO, socket, device or directory) is
// an error wrapping ErrNotRegular, reported at once.
func Read(path string) (*Model, error) {
	return DefaultLimits.Read(path)
}

// Read is the package-level Read under the limits l.
func (l Limits) Read(path string) (*Model, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > l.MaxXMLBytes {
		return nil, &Error{File: path, Msg: fmt.Sprintf("file is %d bytes, larger than the %d-byte limit", fi.Size(), l.MaxXMLBytes)}
	}
	m, err := l.Parse(f, path)
	if err != nil {
		return nil, err
	}
	m.weights = fileWeights(BinPath(path))
	return m, nil
}

// BinPath returns the .bin path that belongs to an .xml path: the extension replaced by .bin
// (or .bin appended when the name has no .xml extension).
func BinPath(xmlPath string) string {
	if strings.HasSuffix(strings.ToLower(xmlPath), ".xml") {
		return xmlPath[:len(xmlPath)-4] + ".bin"
	}
	return xmlPath + ".bin"
}

// Parse reads an IR model from r; name is used in error messages (and as Model.File). The model
// has no constant data until SetWeights is called.
func Parse(r io.Reader, name string) (*Model, error) {
	return DefaultLimits.Parse(r, name)
}

// ParseBytes parses an in-memory .xml and attaches an in-memory .bin (nil for none).
func ParseBytes(xmlData, bin []byte, name string) (*Model, error) {
	m, err := Parse(bytes.NewReader(xmlData), name)
	if err != nil {
		return nil, err
	}
	if bin != nil {
		m.SetWeights(bytes.NewReader(bin), int64(len(bin)), BinPath(name))
	}
	return m, nil
}

// Parse is the package-level Parse under the limits l.
func (l Limits) Parse(r io.Reader, name string) (*Model, error) {
	m := &Model{File: name}
	b := &builder{m: m}
	prolog, root, epilog, err := parseTree(r, l, name, b.complete)
	if err != nil {
		return nil, err
	}
	m.Prolog, m.Epilog = prolog, epilog
	if !b.netDone {
		if err := m.interpretNet(root); err != nil {
			return nil, err
		}
	}
	if err := m.interpretChildren(root); err != nil {
		return nil, err
	}
	return m, nil
}

// builder interprets the children of <net>'s <layers> and <edges> as soon as each is read and
// drops them from the tree, so that the tree of a large model is never held whole beside the
// model made from it.
type builder struct {
	m             *Model
	netDone       bool
	layers, edges *Node // the <layers> and <edges> being streamed
}

// complete is parseTree's hook: n has been read whole (its end tag, for an element), under the
// open elements parents (the root first). It reports whether to drop n from its parent.
func (b *builder) complete(n *Node, parents []*Node) (drop bool, err error) {
	if len(parents) != 2 || parents[1].Kind != ElementNode {
		return false, nil
	}
	sec := parents[1]
	cur := &b.layers
	switch sec.Name {
	case "layers":
	case "edges":
		cur = &b.edges
	default:
		return false, nil
	}
	m := b.m
	if !b.netDone {
		// The <net> element's own errors (wrong root, unsupported version) come first, as
		// they do for a model interpreted after it is read whole.
		if err := m.interpretNet(parents[0]); err != nil {
			return false, err
		}
		b.netDone = true
	}
	if *cur != sec {
		if *cur != nil {
			return false, m.errorf(sec.Line, nil, "a second <%s> element", sec.Name)
		}
		*cur = sec
	}
	return true, m.interpretSectionChild(sec.Name, n)
}

// interpretSectionChild interprets one child of <layers> or <edges> (named by sec): a <layer>
// or <edge> is added to the model, a comment or run of comments is left out, anything else is
// an error.
func (m *Model) interpretSectionChild(sec string, n *Node) error {
	bad := notComment(n)
	switch {
	case bad == nil:
		return nil
	case n.Kind == ElementNode && sec == "layers" && n.Name == "layer":
		l, err := m.interpretLayer(n)
		if err != nil {
			return err
		}
		m.Layers = append(m.Layers, l)
		return nil
	case n.Kind == ElementNode && sec == "edges" && n.Name == "edge":
		e, err := m.interpretEdge(n)
		if err != nil {
			return err
		}
		m.Edges = append(m.Edges, e)
		return nil
	}
	return m.errorf(bad.Line, nil, "unexpected %s in <%s>", describe(bad), sec)
}

// notComment returns nil when n is a comment or a run of comments only, and otherwise the node
// an error about n names: n itself, or for a run, its first item that is not a comment (a node
// of its kind with its line, without its text).
func notComment(n *Node) *Node {
	switch n.Kind {
	case CommentNode:
		return nil
	case MarkupNode:
	default:
		return n
	}
	s := n.Text
	for i := 0; ; {
		// Only whitespace comes between the items, and each item starts with '<'.
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			return nil
		}
		i += k
		if !strings.HasPrefix(s[i:], "<!--") {
			kind := DirectiveNode
			if strings.HasPrefix(s[i:], "<?") {
				kind = ProcInstNode
			}
			return &Node{Kind: kind, Line: n.Line + strings.Count(s[:i], "\n")}
		}
		end := strings.Index(s[i+4:], "-->")
		if end < 0 {
			return &Node{Kind: MarkupNode, Line: n.Line} // not a run Read made
		}
		i += 4 + end + 3
	}
}

// guard is the byte source of the XML decoder: it counts bytes and refuses to deliver more than
// the limits allow, so that one huge token or file fails without being buffered whole.
type guard struct {
	r    *bufio.Reader
	n    int64 // bytes delivered
	mark int64 // n at the end of the last token
	lim  Limits
	err  error

	// The attributes of a start tag are counted as its bytes arrive (one per '=' outside
	// quotes), so that a tag with millions of attributes fails before the decoder has built
	// them all. nodes is the count before the current token, set by parseTree; attrs counts
	// since the mark.
	nodes, attrs int
	st           lexState
	run          int // '-' seen in a row in a comment, or '?' just seen in an instruction
}

// lexState is where the guard is in the markup, as far as attribute counting needs.
type lexState uint8

const (
	lexText    lexState = iota
	lexLT               // after '<'
	lexBang             // after "<!"
	lexComment          // inside "<!--"
	lexPI               // inside "<?"
	lexTag              // inside a start tag, outside quotes
	lexQuote1           // inside a '-quoted attribute value
	lexQuote2           // inside a "-quoted attribute value
	lexOther            // inside an end tag, a directive or a CDATA section, until '>'
)

var (
	errFileTooBig  = errors.New("file too large")
	errTokenTooBig = errors.New("token too large")
	errTooMany     = errors.New("too many nodes")
)

func (g *guard) ReadByte() (byte, error) {
	if g.n >= g.lim.MaxXMLBytes {
		g.err = errFileTooBig
		return 0, g.err
	}
	if g.n-g.mark >= g.lim.MaxTokenBytes {
		g.err = errTokenTooBig
		return 0, g.err
	}
	b, err := g.r.ReadByte()
	if err != nil {
		return b, err
	}
	g.n++
	switch g.st {
	case lexText:
		if b == '<' {
			g.st = lexLT
		}
	case lexLT:
		switch b {
		case '!':
			g.st = lexBang
		case '?':
			g.st, g.run = lexPI, 0
		case '/':
			g.st = lexOther
		default:
			g.st = lexTag
		}
	case lexBang:
		if b == '-' {
			g.st, g.run = lexComment, 1
		} else {
			g.st = lexOther
		}
	case lexComment:
		switch {
		case b == '-':
			g.run++
		case b == '>' && g.run >= 2:
			g.st = lexText
		default:
			g.run = 0
		}
	case lexPI:
		switch {
		case b == '>' && g.run == 1:
			g.st = lexText
		case b == '?':
			g.run = 1
		default:
			g.run = 0
		}
	case lexTag:
		switch b {
		case '"':
			g.st = lexQuote2
		case '\'':
			g.st = lexQuote1
		case '>':
			g.st = lexText
		case '=':
			if g.attrs++; g.nodes+g.attrs > g.lim.MaxNodes {
				g.err = errTooMany
				return 0, g.err
			}
		}
	case lexQuote1:
		if b == '\'' {
			g.st = lexTag
		}
	case lexQuote2:
		if b == '"' {
			g.st = lexTag
		}
	case lexOther:
		if b == '>' {
			g.st = lexText
		}
	}
	return b, nil
}

func (g *guard) Read(p []byte) (int, error) {
	for i := range p {
		b, err := g.ReadByte()
		if err != nil {
			return i, err
		}
		p[i] = b
	}
	return len(p), nil
}

// parseTree tokenizes the document into the nodes before the root, the root element and the
// nodes after it, enforcing the limits and well-formedness (matching end tags, one root).
//
// Comments, processing instructions and directives that follow one another with only
// whitespace between them are one node (see MarkupNode).
//
// complete, when not nil, is called for each node inside the root once it is read whole (for an
// element, at its end tag), with the open elements above it, the root first; when it returns
// drop, the node is left out of the tree, and when it returns an error, parsing stops with it.
// For a run of comments, processing instructions and directives, it is called with the run's
// first item alone, before the run is read further: when it drops that item, the next item
// begins a new run, so that a place where complete drops them holds no run; when it keeps the
// item, the whole run is kept, as one node.
func parseTree(r io.Reader, lim Limits, file string, complete func(n *Node, parents []*Node) (drop bool, err error)) (prolog []*Node, root *Node, epilog []*Node, err error) {
	g := &guard{r: bufio.NewReaderSize(r, 64<<10), lim: lim}
	// A UTF-8 byte-order mark may start the document; encoding/xml would take it for text.
	if b, _ := g.r.Peek(len(utf8BOM)); string(b) == utf8BOM {
		g.r.Discard(len(utf8BOM))
		g.n += int64(len(utf8BOM))
	}
	d := xml.NewDecoder(g)
	d.Strict = true
	var stack []*Node
	nodes := 0
	fail := func(line int, format string, a ...any) error {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	// Comments, processing instructions and directives gather in run, each added by item, until
	// something else comes; endRun places the run as one node.
	var run markupRun
	item := func(kind NodeKind, target string, text []byte, line int) error {
		if run.open() || len(stack) == 0 || complete == nil {
			run.add(kind, target, text, line)
			return nil
		}
		n := &Node{Kind: kind, Name: target, Text: string(text), Line: line}
		drop, err := complete(n, stack)
		if err == nil && !drop {
			run.first = n
		}
		return err
	}
	endRun := func() {
		n := run.end()
		switch {
		case n == nil:
		case len(stack) > 0: // complete has seen the run's first item
			p := stack[len(stack)-1]
			p.Children = append(p.Children, n)
		case root == nil:
			prolog = append(prolog, n)
		default:
			epilog = append(epilog, n)
		}
	}
	for {
		line, _ := d.InputPos()
		g.mark, g.nodes, g.attrs = g.n, nodes, 0
		tok, terr := d.RawToken()
		if terr == io.EOF {
			if len(stack) > 0 {
				return nil, nil, nil, fail(line, "malformed XML: unexpected end of file inside <%s> (opened on line %d)", stack[len(stack)-1].Name, stack[len(stack)-1].Line)
			}
			if root == nil {
				return nil, nil, nil, fail(0, "malformed XML: no root element")
			}
			endRun()
			return prolog, root, epilog, nil
		}
		if terr != nil {
			switch {
			case errors.Is(g.err, errFileTooBig):
				return nil, nil, nil, fail(line, "file is larger than the %d-byte limit", lim.MaxXMLBytes)
			case errors.Is(g.err, errTooMany):
				return nil, nil, nil, fail(line, tooManyNodes, lim.MaxNodes)
			case errors.Is(g.err, errTokenTooBig):
				return nil, nil, nil, fail(line, "an XML token (tag, attribute or text) is longer than the %d-byte limit", lim.MaxTokenBytes)
			}
			var se *xml.SyntaxError
			if errors.As(terr, &se) {
				return nil, nil, nil, fail(se.Line, "malformed XML: %s", se.Msg)
			}
			return nil, nil, nil, fail(line, "malformed XML: %v", terr)
		}
		switch t := tok.(type) {
		case xml.StartElement, xml.EndElement:
			endRun()
		case xml.CharData:
			if run.open() && len(bytes.TrimSpace(t)) == 0 {
				run.space(t)
				continue
			}
			endRun()
		}
		switch t := tok.(type) {
		case xml.StartElement:
			nodes += 1 + len(t.Attr)
			if nodes > lim.MaxNodes {
				return nil, nil, nil, fail(line, tooManyNodes, lim.MaxNodes)
			}
			if len(stack) >= lim.MaxDepth {
				return nil, nil, nil, fail(line, "elements nested deeper than %d levels", lim.MaxDepth)
			}
			if len(stack) == 0 && root != nil {
				return nil, nil, nil, fail(line, "malformed XML: a second root element <%s>", qname(t.Name))
			}
			n := &Node{Kind: ElementNode, Name: qname(t.Name), Line: line}
			if a, ok := duplicateAttr(t.Attr); ok {
				return nil, nil, nil, fail(line, "malformed XML: attribute %s appears twice in <%s>", qname(a), n.Name)
			}
			if len(t.Attr) > 0 {
				n.Attrs = make([]Attr, len(t.Attr))
				for i, a := range t.Attr {
					n.Attrs[i] = Attr{qname(a.Name), a.Value}
				}
			}
			if len(stack) == 0 {
				root = n
			} else {
				p := stack[len(stack)-1]
				p.Children = append(p.Children, n)
			}
			stack = append(stack, n)
			continue
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, nil, nil, fail(line, "malformed XML: unexpected </%s>", qname(t.Name))
			}
			top := stack[len(stack)-1]
			if top.Name != qname(t.Name) {
				return nil, nil, nil, fail(line, "malformed XML: element <%s> (line %d) closed by </%s>", top.Name, top.Line, qname(t.Name))
			}
			stack = stack[:len(stack)-1]
			if complete != nil && len(stack) > 0 {
				drop, err := complete(top, stack)
				if err != nil {
					return nil, nil, nil, err
				}
				if drop {
					p := stack[len(stack)-1]
					p.Children[len(p.Children)-1] = nil // top is its parent's last child
					p.Children = p.Children[:len(p.Children)-1]
				}
			}
			continue
		case xml.CharData:
			if len(bytes.TrimSpace(t)) == 0 {
				continue
			}
			if len(stack) == 0 {
				return nil, nil, nil, fail(line, "malformed XML: text outside the root element")
			}
			if nodes++; nodes > lim.MaxNodes {
				return nil, nil, nil, fail(line, tooManyNodes, lim.MaxNodes)
			}
			n := &Node{Kind: TextNode, Text: string(t), Line: line}
			if complete != nil {
				drop, err := complete(n, stack)
				if err != nil {
					return nil, nil, nil, err
				}
				if drop {
					continue
				}
			}
			p := stack[len(stack)-1]
			p.Children = append(p.Children, n)
		case xml.Comment:
			if nodes++; nodes > lim.MaxNodes {
				return nil, nil, nil, fail(line, tooManyNodes, lim.MaxNodes)
			}
			if err := item(CommentNode, "", t, line); err != nil {
				return nil, nil, nil, err
			}
		case xml.ProcInst:
			if t.Target == "xml" {
				if len(stack) > 0 || root != nil || len(prolog) > 0 || run.open() {
					return nil, nil, nil, fail(line, "malformed XML: the XML declaration is not at the start")
				}
				continue
			}
			if nodes++; nodes > lim.MaxNodes {
				return nil, nil, nil, fail(line, tooManyNodes, lim.MaxNodes)
			}
			if err := item(ProcInstNode, t.Target, t.Inst, line); err != nil {
				return nil, nil, nil, err
			}
		case xml.Directive:
			if nodes++; nodes > lim.MaxNodes {
				return nil, nil, nil, fail(line, tooManyNodes, lim.MaxNodes)
			}
			if err := item(DirectiveNode, "", t, line); err != nil {
				return nil, nil, nil, err
			}
		}
	}
}

// markupRun gathers a run of comments, processing instructions and directives that follow one
// another with only whitespace between them. A run of one item becomes a node of its kind; a
// longer run becomes one MarkupNode, whose text is written into chunks as it is read and copied
// once into its string at the end, so that reading a run allocates about twice its bytes,
// however many items it has.
type markupRun struct {
	first  *Node    // the run's first item; nil when no run is open
	ws     []byte   // whitespace read since the last item
	chunks [][]byte // the markup of a run of two or more items, runChunk bytes each but the last
	size   int      // bytes in chunks
}

// runChunk is the size of the chunks of a markupRun.
const runChunk = 64 << 10

// open reports whether a run has begun.
func (r *markupRun) open() bool { return r.first != nil }

// space records whitespace read after an item: it is part of the run if another item follows.
func (r *markupRun) space(t []byte) { r.ws = append(r.ws, t...) }

// add appends an item to the run: a comment or directive with its text, or a processing
// instruction with its target and text; line is where it starts.
func (r *markupRun) add(kind NodeKind, target string, text []byte, line int) {
	if r.first == nil {
		r.first = &Node{Kind: kind, Name: target, Text: string(text), Line: line}
		return
	}
	if r.size == 0 {
		runWrite(r, markupText(r.first))
	}
	for i, c := range r.ws {
		if c == '\r' {
			r.ws[i] = '\n' // a carriage return written back would be read as a line feed
		}
	}
	runWrite(r, r.ws)
	r.ws = r.ws[:0]
	switch kind {
	case CommentNode:
		runWrite(r, "<!--")
		runWrite(r, text)
		runWrite(r, "-->")
	case ProcInstNode:
		runWrite(r, "<?")
		runWrite(r, target)
		if len(text) > 0 {
			runWrite(r, " ")
			runWrite(r, text)
		}
		runWrite(r, "?>")
	default:
		runWrite(r, "<!")
		runWrite(r, text)
		runWrite(r, ">")
	}
}

// runWrite appends s to the run's chunks.
func runWrite[S string | []byte](r *markupRun, s S) {
	for len(s) > 0 {
		k := r.size / runChunk
		if k == len(r.chunks) {
			r.chunks = append(r.chunks, make([]byte, runChunk))
		}
		n := copy(r.chunks[k][r.size%runChunk:], s)
		r.size += n
		s = s[n:]
	}
}

// end closes the run and returns it as one node, or nil when no run is open. The first chunk
// is kept for the next run; the others are let go.
func (r *markupRun) end() *Node {
	n := r.first
	if n == nil {
		return nil
	}
	r.first, r.ws = nil, r.ws[:0]
	if r.size == 0 {
		return n
	}
	var b strings.Builder
	b.Grow(r.size)
	for i := 0; r.size > 0; i++ {
		c := r.chunks[i][:min(r.size, runChunk)]
		b.Write(c)
		r.size -= len(c)
	}
	clear(r.chunks[1:])
	r.chunks = r.chunks[:1]
	n.Kind, n.Name, n.Text = MarkupNode, "", b.String()
	return n
}

const tooManyNodes = "more than %d nodes (elements, attributes, comments, processing instructions, directives and text runs)"

const utf8BOM = "\xef\xbb\xbf"

// duplicateAttr returns the first attribute name that appears twice in as, which XML forbids
// and encoding/xml does not check.
func duplicateAttr(as []xml.Attr) (xml.Name, bool) {
	if len(as) <= 8 {
		for i := 1; i < len(as); i++ {
			for j := 0; j < i; j++ {
				if as[i].Name == as[j].Name {
					return as[i].Name, true
				}
			}
		}
		return xml.Name{}, false
	}
	// Sorting indices costs 4 bytes an attribute, where a map would cost ten times that.
	idx := make([]int32, len(as))
	for i := range idx {
		idx[i] = int32(i)
	}
	cmp := func(a, b xml.Name) int {
		if c := strings.Compare(a.Space, b.Space); c != 0 {
			return c
		}
		return strings.Compare(a.Local, b.Local)
	}
	slices.SortFunc(idx, func(i, j int32) int { return cmp(as[i].Name, as[j].Name) })
	for k := 1; k < len(idx); k++ {
		if cmp(as[idx[k-1]].Name, as[idx[k]].Name) == 0 {
			return as[max(idx[k-1], idx[k])].Name, true
		}
	}
	return xml.Name{}, false
}

func qname(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// maxID bounds layer and port ids so that new ids (max+1) never overflow.
const maxID = 1 << 62

func (m *Model) parseID(n *Node, attr string) (int64, error) {
	v, ok := n.Attr(attr)
	if !ok {
		return 0, m.errorf(n.Line, nil, "<%s> has no %s attribute", n.Name, attr)
	}
	id, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || id < 0 || id >= maxID {
		return 0, m.errorf(n.Line, nil, "<%s> %s=%q is not a non-negative integer below 2^62", n.Name, attr, v)
	}
	return id, nil
}

// interpret turns the <net> tree into the model.
func (m *Model) interpret(root *Node) error {
	if err := m.interpretNet(root); err != nil {
		return err
	}
	return m.interpretChildren(root)
}

// interpretNet checks the root element and reads the attributes of <net>.
func (m *Model) interpretNet(root *Node) error {
	m.Line = root.Line
	if root.Name != "net" {
		return m.errorf(root.Line, nil, "the root element is <%s>, not <net>", root.Name)
	}
	hasVersion := false
	for _, a := range root.Attrs {
		switch a.Name {
		case "name":
			m.Name = a.Value
		case "version":
			v, err := strconv.Atoi(strings.TrimSpace(a.Value))
			if err != nil || (v != 10 && v != 11) {
				return m.errorf(root.Line, nil, "IR version %q is not supported (10 and 11 are)", a.Value)
			}
			m.Version, hasVersion = v, true
		default:
			m.NetAttrs = append(m.NetAttrs, a)
		}
	}
	if !hasVersion {
		return m.errorf(root.Line, nil, "<net> has no version attribute (IR 10 or 11 expected)")
	}
	return nil
}

// interpretChildren reads the children of <net>: the layers and edges that Parse has not
// already interpreted, and the other elements as Extra.
func (m *Model) interpretChildren(root *Node) error {
	var sawLayers, sawEdges bool
	for _, c := range root.Children {
		if c.Kind != ElementNode {
			if c.Kind == TextNode {
				return m.errorf(c.Line, nil, "unexpected text in <net>")
			}
			if k := len(m.Extra); k > 0 && m.Extra[k-1].Kind != ElementNode {
				// Markup on either side of <layers> or <edges>: Write puts it together, one
				// item a line, and it reads back as one run, so it is one run here too.
				prev := m.Extra[k-1]
				m.Extra[k-1] = &Node{Kind: MarkupNode, Text: markupText(prev) + "\n\t" + markupText(c), Line: prev.Line}
				continue
			}
			m.Extra = append(m.Extra, c)
			continue
		}
		switch c.Name {
		case "layers", "edges":
			saw := &sawLayers
			if c.Name == "edges" {
				saw = &sawEdges
			}
			if *saw {
				return m.errorf(c.Line, nil, "a second <%s> element", c.Name)
			}
			*saw = true
			for _, cc := range c.Children {
				if err := m.interpretSectionChild(c.Name, cc); err != nil {
					return err
				}
			}
		default:
			m.Extra = append(m.Extra, c)
		}
	}
	if !sawLayers {
		return m.errorf(root.Line, nil, "<net> has no <layers>")
	}
	return nil
}

func describe(n *Node) string {
	switch n.Kind {
	case ElementNode:
		return "<" + n.Name + ">"
	case TextNode:
		return "text"
	case CommentNode:
		return "comment"
	case ProcInstNode:
		return "processing instruction"
	case MarkupNode:
		return "markup"
	}
	return "directive"
}

func (m *Model) interpretLayer(n *Node) (*Layer, error) {
	l := &Layer{Line: n.Line}
	id, err := m.parseID(n, "id")
	if err != nil {
		return nil, err
	}
	l.ID = id
	hasType := false
	for _, a := range n.Attrs {
		switch a.Name {
		case "id":
		case "name":
			l.Name = a.Value
		case "type":
			l.Type, hasType = a.Value, true
		case "version":
			l.Version = a.Value
		default:
			l.Attrs = append(l.Attrs, a)
		}
	}
	if !hasType {
		return nil, m.errorf(n.Line, l, "<layer> has no type attribute")
	}
	afterOutput := false
	for _, c := range n.Children {
		bad := notComment(c)
		if bad == nil {
			continue
		}
		if c.Kind != ElementNode {
			return nil, m.errorf(bad.Line, l, "unexpected %s in <layer>", describe(bad))
		}
		switch c.Name {
		case "data":
			if l.Data != nil {
				return nil, m.errorf(c.Line, l, "a second <data> element")
			}
			l.Data = c
		case "input", "output":
			ports, err := m.interpretPorts(c, l)
			if err != nil {
				return nil, err
			}
			if c.Name == "input" {
				if l.HasInput {
					return nil, m.errorf(c.Line, l, "a second <input> element")
				}
				l.Inputs, l.HasInput = ports, true
			} else {
				if l.HasOutput {
					return nil, m.errorf(c.Line, l, "a second <output> element")
				}
				l.Outputs, l.HasOutput = ports, true
				afterOutput = true
			}
		default:
			if afterOutput {
				l.Tail = append(l.Tail, c)
			} else {
				l.Head = append(l.Head, c)
			}
		}
	}
	return l, nil
}

func (m *Model) interpretPorts(n *Node, l *Layer) ([]*Port, error) {
	var ports []*Port
	for _, c := range n.Children {
		bad := notComment(c)
		if bad == nil {
			continue
		}
		if c.Kind != ElementNode || c.Name != "port" {
			return nil, m.errorf(bad.Line, l, "unexpected %s in <%s>", describe(bad), n.Name)
		}
		p := &Port{Line: c.Line}
		id, err := m.parseID(c, "id")
		if err != nil {
			err.(*Error).Layer = l
			return nil, err
		}
		p.ID = id
		for _, a := range c.Attrs {
			switch a.Name {
			case "id":
			case "precision":
				if _, err := parseType(a.Value); err != nil {
					return nil, m.errorf(c.Line, l, "port %d: precision: %v", id, err)
				}
				p.Precision = a.Value
			case "names":
				p.Names, p.HasNames = a.Value, true
			default:
				p.Attrs = append(p.Attrs, a)
			}
		}
		for _, d := range c.Children {
			bad := notComment(d)
			if bad == nil {
				continue
			}
			if d.Kind == ElementNode && d.Name == "dim" {
				v, err := dimValue(d)
				if err != nil {
					return nil, m.errorf(d.Line, l, "port %d: %v", id, err)
				}
				if len(p.Extra) > 0 {
					return nil, m.errorf(d.Line, l, "port %d: <dim> after <%s>", id, p.Extra[len(p.Extra)-1].Name)
				}
				p.Dims = append(p.Dims, v)
				continue
			}
			if d.Kind != ElementNode {
				return nil, m.errorf(bad.Line, l, "port %d: unexpected %s", id, describe(bad))
			}
			p.Extra = append(p.Extra, d)
		}
		ports = append(ports, p)
	}
	return ports, nil
}

func dimValue(d *Node) (int64, error) {
	var text string
	for _, c := range d.Children {
		if c.Kind == TextNode {
			text += c.Text
		} else if bad := notComment(c); bad != nil {
			return 0, fmt.Errorf("<dim> contains %s", describe(bad))
		}
	}
	v, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("<dim>%s</dim> is not an integer", clip(text))
	}
	if v < -1 {
		return 0, fmt.Errorf("<dim>%d</dim> is negative (only -1, a dynamic dimension, is allowed)", v)
	}
	return v, nil
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func (m *Model) interpretEdge(n *Node) (*Edge, error) {
	e := &Edge{Line: n.Line}
	var err error
	if e.FromLayer, err = m.parseID(n, "from-layer"); err != nil {
		return nil, err
	}
	if e.FromPort, err = m.parseID(n, "from-port"); err != nil {
		return nil, err
	}
	if e.ToLayer, err = m.parseID(n, "to-layer"); err != nil {
		return nil, err
	}
	if e.ToPort, err = m.parseID(n, "to-port"); err != nil {
		return nil, err
	}
	for _, a := range n.Attrs {
		switch a.Name {
		case "from-layer", "from-port", "to-layer", "to-port":
		default:
			e.Attrs = append(e.Attrs, a)
		}
	}
	for _, c := range n.Children {
		if bad := notComment(c); bad != nil {
			return nil, m.errorf(bad.Line, nil, "unexpected %s in <edge>", describe(bad))
		}
	}
	return e, nil
}

// parseType reads an element type name of an IR file: any spelling element.Parse accepts,
// except the types OpenVINO lacks that no IR can hold (the FNUZ float8 types of ONNX and
// ml_dtypes), which are an error naming the type. The complex types stay accepted.
func parseType(s string) (element.Type, error) {
	t, err := element.Parse(s)
	if err != nil {
		return t, err
	}
	if t.IsFNUZ() {
		return element.Dynamic, fmt.Errorf("element type %s is not an OpenVINO element type (it is ONNX's and ml_dtypes'), so an IR cannot hold it", t)
	}
	return t, nil
}
