package npy

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
)

func TestParsePyLiteral(t *testing.T) {
	str := func(s string) pyValue { return pyValue{kind: pyString, str: s} }
	num := func(n int64) pyValue { return pyValue{kind: pyInt, n: n} }
	tup := func(v ...pyValue) pyValue { return pyValue{kind: pyTuple, items: v} }
	good := []struct {
		src  string
		want pyValue
	}{
		{`'<f4'`, str("<f4")},
		{`"<f4"`, str("<f4")},
		{`'it\'s "x" \\'`, str(`it's "x" \`)},
		{`""`, str("")},
		{"True", pyValue{kind: pyBool, b: true}},
		{" False \n", pyValue{kind: pyBool}},
		{"0", num(0)},
		{"-12", num(-12)},
		{"+ 7", num(7)},
		{"9223372036854775807", num(1<<63 - 1)},
		{"()", tup()},
		{"( )", tup()},
		{"(3,)", tup(num(3))},
		{"(3)", num(3)}, // parentheses, not a tuple
		{"((3))", num(3)},
		{"(2, 3)", tup(num(2), num(3))},
		{"(2, 3,)", tup(num(2), num(3))},
		{"((1,), ())", tup(tup(num(1)), tup())},
		{"[1, 'a']", pyValue{kind: pyList, items: []pyValue{num(1), str("a")}}},
		{"{}", pyValue{kind: pyDict}},
		{"{'a': 1, \"b\": (),}", pyValue{kind: pyDict, keys: []string{"a", "b"}, items: []pyValue{num(1), tup()}}},
	}
	for _, c := range good {
		got, err := parsePyLiteral(c.src)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parsePyLiteral(%q) = %+v, %v; want %+v", c.src, got, err, c.want)
		}
	}
	bad := []struct{ src, want string }{
		{"", "unexpected end"},
		{"   ", "unexpected end"},
		{"'abc", "unterminated string"},
		{"'a\nb'", "newline"},
		{`'a\n'`, "unsupported escape"},
		{"'a' 'b'", "adjacent strings"},
		{"b'a'", `"b" is not a literal`},
		{"None", `"None" is not a literal`},
		{"true", `"true" is not a literal`},
		{"1.5", "malformed integer"},
		{"1e3", "malformed integer"},
		{"0x10", "malformed integer"},
		{"1_000", "malformed integer"},
		{"3L", "malformed integer"},
		{"012", "leading zero"},
		{"--1", "malformed integer"},
		{"9223372036854775808", "out of range"},
		{"(", "unexpected end"},
		{"(1 2)", "',' or ')' expected"},
		{"(,)", "unexpected \",\""},
		{"(1,,)", "unexpected \",\""},
		{"[1", "',' or ']' expected"},
		{"{1: 2}", "a string key"},
		{"{'a' 1}", "':' expected"},
		{"{'a': 1 'b': 2}", "',' or '}' expected"},
		{"{'a': 1, 'a': 2}", `key "a" given twice`},
		{"{'a': 1}}", "after the value"},
		{"1 # comment", "after the value"},
		{strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100), "nested deeper than 16"},
	}
	for _, c := range bad {
		if v, err := parsePyLiteral(c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parsePyLiteral(%q) = %+v, %v; want an error containing %q", c.src, v, err, c.want)
		}
	}
}

// TestReadHeader reads headers that a pattern match took for valid, or that only a parser
// of the Python literal accepts or refuses correctly.
func TestReadHeader(t *testing.T) {
	file := func(h string, data []byte) []byte {
		b := []byte("\x93NUMPY\x01\x00")
		b = binary.LittleEndian.AppendUint16(b, uint16(len(h)))
		return append(append(b, h...), data...)
	}
	four := make([]byte, 8)
	good := []struct {
		h     string
		shape []int64
	}{
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }          \n", []int64{2}},
		{`{"shape":(1,2),"fortran_order":False,"descr":"<f4"}`, []int64{1, 2}},
		{"{'descr': '<f4',\n 'fortran_order': False,\n 'shape': (\n2,\n)\n}\n", []int64{2}},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': ((2),),}", []int64{2}}, // (2) is 2
	}
	for _, c := range good {
		x, err := Read(bytes.NewReader(file(c.h, four)))
		if err != nil || !reflect.DeepEqual(x.Shape(), c.shape) {
			t.Errorf("header %q: %v, %v; want shape %v", c.h, x.Shape(), err, c.shape)
		}
	}
	bad := []struct{ h, want string }{
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (3,)}", `key "shape" given twice`},
		{"{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}", `key "descr" given twice`},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }junk", "after the value"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }{}", "after the value"},
		{"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", "'descr' is a list, not a string"},
		{"{'descr': ('<f4',), 'fortran_order': False, 'shape': (2,)}", "'descr' is a tuple, not a string"},
		{"{'descr': 4, 'fortran_order': False, 'shape': (2,)}", "'descr' is an integer, not a string"},
		{"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", "'fortran_order' is an integer"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': 2}", "'shape' is an integer, not a tuple"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", "'shape' is an integer, not a tuple"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", "'shape' is a list, not a tuple"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': ('2',)}", "bad dimension 0 in 'shape': a string"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", `unexpected key "extra"`},
		{"{'descr': '<f4', 'fortran_order': False}", `no "shape" key`},
		{"{'xdescr': '<f4', 'fortran_order': False, 'shape': (2,)}", `unexpected key "xdescr"`},
		{"('descr', '<f4')", "the header is a tuple, not a dict"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } # 'shape': (2,)", "after the value"},
	}
	for _, c := range bad {
		_, err := Read(bytes.NewReader(file(c.h, four)))
		if err == nil || !strings.Contains(err.Error(), "npy: malformed header") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("header %q: %v; want a malformed header error containing %q", c.h, err, c.want)
		}
	}
}
