package npy

import (
	"fmt"
	"strconv"
	"strings"
)

// pyKind says what a pyValue is.
type pyKind uint8

const (
	pyString pyKind = iota
	pyBool
	pyInt
	pyTuple
	pyList
	pyDict
)

func (k pyKind) String() string {
	return [...]string{"a string", "a boolean", "an integer", "a tuple", "a list", "a dict"}[k]
}

// pyValue is a value of the Python literal subset a .npy header is written in.
type pyValue struct {
	kind  pyKind
	str   string    // pyString
	b     bool      // pyBool
	n     int64     // pyInt
	items []pyValue // pyTuple, pyList; a pyDict's values
	keys  []string  // pyDict: string keys, in order, without repeats
}

// pyMaxDepth bounds the nesting of tuples, lists and dicts, far beyond what a header needs.
const pyMaxDepth = 16

// pyParser parses one Python literal: strings in ' or " (with \\, \', \" escapes), True,
// False, decimal integers with an optional sign, tuples ("()", "(3,)", "(2, 3)"), lists and
// dicts with string keys, each with an optional trailing comma, separated by spaces, tabs and
// newlines. A parenthesized value without a comma is that value, as in Python. Anything else
// (other names, floats, bytes, string prefixes, implicit string concatenation, comments) is an
// error.
type pyParser struct {
	s   string
	pos int
}

// parsePyLiteral parses s as one Python literal followed only by whitespace.
func parsePyLiteral(s string) (pyValue, error) {
	p := &pyParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return v, err
	}
	p.space()
	if p.pos < len(p.s) {
		return v, p.errorf("unexpected %q after the value", clip(p.s[p.pos:]))
	}
	return v, nil
}

func (p *pyParser) errorf(format string, a ...any) error {
	return fmt.Errorf("at byte %d: %s", p.pos, fmt.Sprintf(format, a...))
}

func (p *pyParser) space() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n\f\v", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

// peek skips whitespace and returns the next byte, 0 at the end.
func (p *pyParser) peek() byte {
	p.space()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *pyParser) value(depth int) (pyValue, error) {
	c := p.peek()
	switch {
	case c == 0:
		return pyValue{}, p.errorf("unexpected end, a value expected")
	case c == '\'' || c == '"':
		s, err := p.str()
		return pyValue{kind: pyString, str: s}, err
	case c == '(' || c == '[' || c == '{':
		if depth >= pyMaxDepth {
			return pyValue{}, p.errorf("nested deeper than %d levels", pyMaxDepth)
		}
		if c == '{' {
			return p.dict(depth + 1)
		}
		return p.sequence(depth + 1)
	case c == '-' || c == '+' || c >= '0' && c <= '9':
		return p.integer()
	case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_':
		start := p.pos
		for p.pos < len(p.s) && (isPyNameByte(p.s[p.pos])) {
			p.pos++
		}
		switch name := p.s[start:p.pos]; name {
		case "True", "False":
			return pyValue{kind: pyBool, b: name == "True"}, nil
		default:
			p.pos = start
			return pyValue{}, p.errorf("%q is not a literal", clip(name))
		}
	}
	return pyValue{}, p.errorf("unexpected %q", p.s[p.pos:p.pos+1])
}

func isPyNameByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}

// str reads a quoted string at p.pos.
func (p *pyParser) str() (string, error) {
	q := p.s[p.pos]
	start := p.pos
	p.pos++
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == q:
			p.pos++
			if next := p.peek(); next == '\'' || next == '"' {
				return "", p.errorf("adjacent strings are not supported")
			}
			return b.String(), nil
		case c == '\n':
			return "", p.errorf("newline in the string")
		case c == '\\':
			if p.pos+1 >= len(p.s) || strings.IndexByte(`\'"`, p.s[p.pos+1]) < 0 {
				return "", p.errorf("unsupported escape in the string")
			}
			b.WriteByte(p.s[p.pos+1])
			p.pos += 2
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	p.pos = start
	return "", p.errorf("unterminated string")
}

// integer reads an optionally signed decimal integer that fits int64.
func (p *pyParser) integer() (pyValue, error) {
	start := p.pos
	if c := p.s[p.pos]; c == '-' || c == '+' {
		p.pos++
		p.space() // Python allows "- 3"
	}
	digits := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	text := p.s[digits:p.pos]
	if text == "" || p.pos < len(p.s) && (isPyNameByte(p.s[p.pos]) || p.s[p.pos] == '.') {
		p.pos = start
		return pyValue{}, p.errorf("malformed integer")
	}
	if len(text) > 1 && text[0] == '0' && strings.Trim(text, "0") != "" {
		p.pos = start
		return pyValue{}, p.errorf("integer %q with a leading zero", text)
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		p.pos = start
		return pyValue{}, p.errorf("integer %q out of range", clip(text))
	}
	if p.s[start] == '-' {
		n = -n
	}
	return pyValue{kind: pyInt, n: n}, nil
}

// sequence reads a tuple, list or parenthesized value at p.pos.
func (p *pyParser) sequence(depth int) (pyValue, error) {
	open := p.s[p.pos]
	close, v := byte(')'), pyValue{kind: pyTuple}
	if open == '[' {
		close, v.kind = ']', pyList
	}
	p.pos++
	comma := false
	for {
		if p.peek() == close {
			p.pos++
			break
		}
		item, err := p.value(depth)
		if err != nil {
			return v, err
		}
		v.items = append(v.items, item)
		switch p.peek() {
		case ',':
			p.pos++
			comma = true
			continue
		case close:
			p.pos++
		default:
			return v, p.errorf("',' or '%c' expected", close)
		}
		break
	}
	if open == '(' && !comma && len(v.items) == 1 {
		return v.items[0], nil // (x) is x
	}
	return v, nil
}

// dict reads a dict with string keys at p.pos; a key given twice is an error.
func (p *pyParser) dict(depth int) (pyValue, error) {
	v := pyValue{kind: pyDict}
	p.pos++
	for {
		c := p.peek()
		if c == '}' {
			p.pos++
			return v, nil
		}
		if c != '\'' && c != '"' {
			return v, p.errorf("a string key or '}' expected")
		}
		at := p.pos
		k, err := p.str()
		if err != nil {
			return v, err
		}
		for _, seen := range v.keys {
			if seen == k {
				p.pos = at
				return v, p.errorf("key %q given twice", clip(k))
			}
		}
		if p.peek() != ':' {
			return v, p.errorf("':' expected after key %q", clip(k))
		}
		p.pos++
		item, err := p.value(depth)
		if err != nil {
			return v, err
		}
		v.keys = append(v.keys, k)
		v.items = append(v.items, item)
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
		default:
			return v, p.errorf("',' or '}' expected")
		}
	}
}

// headerDict is the parsed header dict of a .npy file.
type headerDict struct {
	descr        string
	fortranOrder bool
	shape        []int64
}

// parseHeader parses a .npy header: a dict literal with exactly the keys 'descr' (a string),
// 'fortran_order' (True or False) and 'shape' (a tuple of non-negative integers).
func parseHeader(s string) (headerDict, error) {
	var h headerDict
	v, err := parsePyLiteral(s)
	if err != nil {
		return h, err
	}
	if v.kind != pyDict {
		return h, fmt.Errorf("the header is %s, not a dict", v.kind)
	}
	var have [3]bool
	for i, k := range v.keys {
		x := v.items[i]
		switch k {
		case "descr":
			if x.kind != pyString {
				return h, fmt.Errorf("'descr' is %s, not a string (structured dtypes are not supported)", x.kind)
			}
			h.descr, have[0] = x.str, true
		case "fortran_order":
			if x.kind != pyBool {
				return h, fmt.Errorf("'fortran_order' is %s, not True or False", x.kind)
			}
			h.fortranOrder, have[1] = x.b, true
		case "shape":
			if x.kind != pyTuple {
				return h, fmt.Errorf("'shape' is %s, not a tuple", x.kind)
			}
			h.shape = make([]int64, len(x.items))
			for j, d := range x.items {
				if d.kind != pyInt {
					return h, fmt.Errorf("bad dimension %d in 'shape': %s, not an integer", j, d.kind)
				}
				if d.n < 0 {
					return h, fmt.Errorf("bad dimension %d in 'shape': %d is negative", j, d.n)
				}
				h.shape[j] = d.n
			}
			have[2] = true
		default:
			return h, fmt.Errorf("unexpected key %q", clip(k))
		}
	}
	for i, k := range []string{"descr", "fortran_order", "shape"} {
		if !have[i] {
			return h, fmt.Errorf("no %q key", k)
		}
	}
	return h, nil
}

// clip shortens s to 40 bytes for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
