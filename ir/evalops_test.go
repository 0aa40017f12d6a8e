package ir

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/testkit"
	"github.com/convertpromote/convertpromote/op"
	"github.com/convertpromote/convertpromote/quant"
	"github.com/x448/float16"
)

// gl is one layer of a graph built by buildModel: a Const (typ "Const", with data), a Parameter,
// or any other layer fed by the named layers ("name" for output 0, "name:k" for output k).
type gl struct {
	name, typ, version string
	attrs              []Attr
	in                 []string
	out                element.Type // output type (Const, Parameter, computed layers)
	shape              []int64      // output dims as declared (-1 dynamic); nil for rank 0
	data               []byte       // Const data
	outs               int          // number of outputs (default 1; 0 for Result)
}

func cst(name string, t element.Type, shape []int64, data []byte) gl {
	return gl{name: name, typ: "Const", out: t, shape: shape, data: data}
}

func lay(typ, name string, t element.Type, shape []int64, in ...string) gl {
	return gl{name: name, typ: typ, out: t, shape: shape, in: in}
}

func (g gl) with(attrs ...string) gl {
	for i := 0; i+1 < len(attrs); i += 2 {
		g.attrs = append(g.attrs, Attr{attrs[i], attrs[i+1]})
	}
	return g
}

func (g gl) ver(v string) gl { g.version = v; return g }

// buildXML writes the layers as an IR v11 .xml and their Const data as its .bin; a Result is
// added after every layer named in results.
func buildXML(layers []gl, results ...string) (string, []byte) {
	var b strings.Builder
	var bin []byte
	b.WriteString("<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n")
	ids := map[string]int{}
	byName := map[string]gl{}
	var edges []string
	dims := func(s []int64) string {
		var d strings.Builder
		for _, x := range s {
			fmt.Fprintf(&d, "<dim>%d</dim>", x)
		}
		return d.String()
	}
	for _, r := range results {
		layers = append(layers, gl{name: r + "/result", typ: "Result", in: []string{r}, outs: -1})
	}
	for i, l := range layers {
		ids[l.name] = i
		byName[l.name] = l
		v := l.version
		if v == "" {
			v = "opset1"
		}
		fmt.Fprintf(&b, "<layer id=\"%d\" name=\"%s\" type=\"%s\" version=\"%s\">\n", i, l.name, l.typ, v)
		switch l.typ {
		case "Const":
			sh := make([]string, len(l.shape))
			for k, x := range l.shape {
				sh[k] = strconv.FormatInt(x, 10)
			}
			fmt.Fprintf(&b, "<data element_type=\"%s\" shape=\"%s\" offset=\"%d\" size=\"%d\"/>\n", l.out, strings.Join(sh, ","), len(bin), len(l.data))
			bin = append(bin, l.data...)
		case "Parameter":
			sh := make([]string, len(l.shape))
			for k, x := range l.shape {
				sh[k] = strconv.FormatInt(x, 10)
			}
			fmt.Fprintf(&b, "<data element_type=\"%s\" shape=\"%s\"/>\n", l.out, strings.Join(sh, ","))
		default:
			if len(l.attrs) > 0 {
				b.WriteString("<data")
				for _, a := range l.attrs {
					fmt.Fprintf(&b, " %s=\"%s\"", a.Name, a.Value)
				}
				b.WriteString("/>\n")
			}
		}
		if len(l.in) > 0 {
			b.WriteString("<input>")
			for k, src := range l.in {
				name, port, _ := strings.Cut(src, ":")
				p, _ := strconv.Atoi(port)
				s := byName[name]
				fromPort := p + len(s.in)
				fmt.Fprintf(&b, "<port id=\"%d\" precision=\"%s\">%s</port>", k, s.out.IRPrecision(), dims(s.shape))
				edges = append(edges, fmt.Sprintf("<edge from-layer=\"%d\" from-port=\"%d\" to-layer=\"%d\" to-port=\"%d\"/>", ids[name], fromPort, i, k))
			}
			b.WriteString("</input>\n")
		}
		if l.outs >= 0 {
			fmt.Fprintf(&b, "<output><port id=\"%d\" precision=\"%s\" names=\"%s\">%s</port></output>\n", len(l.in), l.out.IRPrecision(), l.name, dims(l.shape))
		}
		b.WriteString("</layer>\n")
	}
	b.WriteString("</layers>\n<edges>\n" + strings.Join(edges, "\n") + "\n</edges>\n</net>\n")
	return b.String(), bin
}

func buildModel(t testing.TB, layers []gl, results ...string) *Model {
	t.Helper()
	xml, bin := buildXML(layers, results...)
	m, err := ParseBytes([]byte(xml), bin, "t.xml")
	if err != nil {
		t.Fatalf("%v\n%s", err, xml)
	}
	return m
}

// runOutput runs m and returns the output of the layer named name.
func runOutput(t *testing.T, m *Model, name string) op.Tensor {
	t.Helper()
	res, err := m.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Outputs {
		if o.Layer.Name == name {
			return o.Tensor
		}
	}
	t.Fatalf("no output of %s (skipped %d)", name, len(res.Skipped))
	return op.Tensor{}
}

func i64s(vs ...int64) []byte { return le(vs...) }

// Reference helpers, written from the numpy and IEEE rules without package kernels.

func numel(s []int64) int64 {
	n := int64(1)
	for _, d := range s {
		n *= d
	}
	return n
}

// refIndex maps output element k of shape out to the element of operand shape s that numpy
// broadcasting pairs with it: unravel k, align at the right, take 0 where s has a 1.
func refIndex(k int64, out, s []int64) int64 {
	idx := make([]int64, len(out))
	for d := len(out) - 1; d >= 0; d-- {
		idx[d] = k % out[d]
		k /= out[d]
	}
	var off int64
	for i := range s {
		c := idx[i+len(out)-len(s)]
		if s[i] == 1 {
			c = 0
		}
		off = off*s[i] + c
	}
	return off
}

// bf16RNE rounds f to bfloat16 bits, to nearest even (NaN: quiet, high half).
func bf16RNE(f float32) uint16 {
	b := math.Float32bits(f)
	if f != f {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7FFF + (b >> 16 & 1)) >> 16)
}

// refArith is the reference of one Subtract or Multiply element on raw bits of type t.
func refArith(t element.Type, x, y uint64, mul bool) uint64 {
	f32 := func(a, b float32) float32 {
		r := a - b
		if mul {
			r = a * b
		}
		if r != r { // the NaN rule of SEMANTICS §9.5
			if a != a && b == b {
				return math.Float32frombits(math.Float32bits(a) | 1<<22)
			}
			return math.Float32frombits(0x7FC00000)
		}
		return r
	}
	switch t {
	case element.F32:
		return uint64(math.Float32bits(f32(math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y)))))
	case element.F64:
		a, b := math.Float64frombits(x), math.Float64frombits(y)
		r := a - b
		if mul {
			r = a * b
		}
		if r != r {
			if a != a && b == b {
				return math.Float64bits(a) | 1<<51
			}
			return 0x7FF8000000000000
		}
		return math.Float64bits(r)
	case element.F16:
		r := f32(float16.Frombits(uint16(x)).Float32(), float16.Frombits(uint16(y)).Float32())
		return uint64(float16.Fromfloat32(r).Bits())
	case element.BF16:
		r := f32(math.Float32frombits(uint32(x)<<16), math.Float32frombits(uint32(y)<<16))
		return uint64(bf16RNE(r))
	}
	r := x - y
	if mul {
		r = x * y
	}
	return r // the caller keeps the type's low bits
}

func getBits(b []byte, size int, i int64) uint64 {
	var x [8]byte
	copy(x[:], b[int64(size)*i:int64(size)*(i+1)])
	return binary.LittleEndian.Uint64(x[:])
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestEvalArithBroadcast(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shapes := [][3][]int64{
		{{}, {2, 3}, {2, 3}},              // scalar
		{{2, 3}, {}, {2, 3}},              // scalar second
		{{3, 1}, {3, 4}, {3, 4}},          // [OC,1] × [OC,IC]
		{{3, 4}, {3, 1}, {3, 4}},          // codes [OC,IC] − zp [OC,1]
		{{2, 3, 5}, {2, 3, 1}, {2, 3, 5}}, // [OC,G,GS] × [OC,G,1]
		{{4}, {2, 3, 4}, {2, 3, 4}},       // rank difference
		{{1, 3}, {2, 1}, {2, 3}},          // both broadcast
		{{2, 1, 4}, {3, 1}, {2, 3, 4}},    // rank difference, both broadcast
		{{1}, {1, 1, 1}, {1, 1, 1}},       // ones
		{{0, 3}, {1, 3}, {0, 3}},          // empty
		{{5, 7}, {5, 7}, {5, 7}},          // no broadcasting
		{{1100}, {1}, {1100}},             // over one chunk
		{{3, 400}, {3, 400}, {3, 400}},    // over one chunk, same shapes
	}
	types := []element.Type{element.F32, element.F16, element.BF16, element.F64, element.I32, element.I64, element.U32, element.U64, element.I8, element.U8}
	for _, typ := range types {
		for _, opType := range []string{"Subtract", "Multiply"} {
			if opType == "Multiply" && (typ == element.I8 || typ == element.U8) {
				continue
			}
			size := typ.Bits() / 8
			for _, sh := range shapes {
				a := randBytes(r, int(numel(sh[0]))*size)
				b := randBytes(r, int(numel(sh[1]))*size)
				m := buildModel(t, []gl{
					cst("a", typ, sh[0], a), cst("b", typ, sh[1], b),
					lay(opType, "op", typ, sh[2], "a", "b"),
				}, "op")
				got := runOutput(t, m, "op")
				if !slices.Equal(got.Shape(), sh[2]) || got.Type() != typ {
					t.Fatalf("%s %s %v: got %s%v", opType, typ, sh, got.Type(), got.Shape())
				}
				for k := range numel(sh[2]) {
					x := getBits(a, size, refIndex(k, sh[2], sh[0]))
					y := getBits(b, size, refIndex(k, sh[2], sh[1]))
					want := refArith(typ, x, y, opType == "Multiply")
					if size < 8 {
						want &= 1<<(8*size) - 1
					}
					if g := getBits(got.Bytes(), size, k); g != want {
						t.Fatalf("%s %s %v: element %d of %x, %x = %x, want %x", opType, typ, sh, k, x, y, g, want)
					}
				}
			}
		}
	}
}

// TestEvalF16Rounding: f16 Subtract and Multiply round the f32 result once to nearest even,
// overflow to ±Inf beyond 65504 (65520 is the tie that rounds up), and follow the NaN rule.
func TestEvalF16Rounding(t *testing.T) {
	const (
		one   = 0x3C00
		onep  = 0x3C01 // 1 + 2^-10
		nan   = 0x7E00
		nnan  = 0xFE00
		inf   = 0x7C00
		ninf  = 0xFC00
		max16 = 0x7BFF // 65504
	)
	h := func(f float32) uint16 { return float16.Fromfloat32(f).Bits() }
	cases := []struct {
		op      string
		a, b    uint16
		want    uint16
		comment string
	}{
		{"Multiply", onep, onep, 0x3C02, "(1+2^-10)^2 = 1+2^-9+2^-20 rounds to 1+2^-9"},
		{"Multiply", 0x3C03, 0x3C03, 0x3C06, "(1+3·2^-10)^2 = 1+6·2^-10+9·2^-20 rounds down"},
		{"Multiply", 0x3E00, 0x3C01, 0x3E02, "1.5·(1+2^-10) = 1.5+1.5·2^-10: a tie at 1.5·2^-10, to even"},
		{"Multiply", h(256), h(256), inf, "65536 overflows"},
		{"Multiply", h(-256), h(256), ninf, "-65536 overflows"},
		{"Multiply", max16, one, max16, "65504 stays"},
		{"Subtract", max16, h(-16), inf, "65520 is the tie above 65504: to +Inf"},
		{"Subtract", max16, h(-15.9921875), max16, "below 65520 rounds to 65504"},
		{"Multiply", nan, one, nan, "NaN × 1"},
		{"Multiply", nnan, one, nnan, "a negative NaN first keeps its sign"},
		{"Multiply", one, nnan, nan, "a NaN second gives the positive quiet NaN"},
		{"Multiply", inf, 0, nan, "∞ × 0"},
		{"Multiply", ninf, 0, nan, "-∞ × 0 is positive NaN too"},
		{"Subtract", inf, inf, nan, "∞ − ∞"},
		{"Subtract", 0x7D00, one, 0x7F00, "a signalling NaN first is quieted"},
		{"Multiply", 0x0001, 0x3800, 0x0000, "2^-24 × 0.5 = 2^-25 ties to 0"},
		{"Multiply", 0x0003, 0x3800, 0x0002, "3·2^-25 ties to even 2·2^-24"},
		{"Subtract", 0x8000, 0x0000, 0x8000, "-0 − 0 = -0"},
	}
	for _, c := range cases {
		m := buildModel(t, []gl{
			cst("a", element.F16, nil, le(c.a)), cst("b", element.F16, nil, le(c.b)),
			lay(c.op, "op", element.F16, nil, "a", "b"),
		}, "op")
		got := binary.LittleEndian.Uint16(runOutput(t, m, "op").Bytes())
		if got != c.want {
			t.Errorf("%s(%#04x, %#04x) = %#04x, want %#04x: %s", c.op, c.a, c.b, got, c.want, c.comment)
		}
		if ref := uint16(refArith(element.F16, uint64(c.a), uint64(c.b), c.op == "Multiply")); ref != c.want {
			t.Errorf("reference (%#04x, %#04x) = %#04x, want %#04x", c.a, c.b, ref, c.want)
		}
	}
}

func TestEvalShapes(t *testing.T) {
	data := le[float32](0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11) // [2,3,2]
	x := cst("x", element.F32, []int64{2, 3, 2}, data)
	cases := []struct {
		name  string
		layer gl
		shape gl // the integer Const
		want  []int64
	}{
		{"reshape -1", lay("Reshape", "y", element.F32, []int64{3, 4}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{2}, i64s(-1, 4)), []int64{3, 4}},
		{"reshape special_zero", lay("Reshape", "y", element.F32, []int64{2, 6}, "x", "s").with("special_zero", "true"), cst("s", element.I32, []int64{2}, le[int32](0, -1)), []int64{2, 6}},
		{"reshape zeros copy", lay("Reshape", "y", element.F32, []int64{2, 3, 2}, "x", "s").with("special_zero", "true"), cst("s", element.I64, []int64{3}, i64s(0, 0, 2)), []int64{2, 3, 2}},
		{"reshape flat", lay("Reshape", "y", element.F32, []int64{12}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{1}, i64s(12)), []int64{12}},
		{"unsqueeze", lay("Unsqueeze", "y", element.F32, []int64{1, 2, 3, 2}, "x", "s"), cst("s", element.I64, nil, i64s(0)), []int64{1, 2, 3, 2}},
		{"unsqueeze -1", lay("Unsqueeze", "y", element.F32, []int64{2, 3, 2, 1}, "x", "s"), cst("s", element.I64, []int64{1}, i64s(-1)), []int64{2, 3, 2, 1}},
		{"unsqueeze two", lay("Unsqueeze", "y", element.F32, []int64{2, 1, 3, 2, 1}, "x", "s"), cst("s", element.I32, []int64{2}, le[int32](-1, 1)), []int64{2, 1, 3, 2, 1}},
	}
	for _, c := range cases {
		m := buildModel(t, []gl{x, c.shape, c.layer}, "y")
		got := runOutput(t, m, "y")
		if !slices.Equal(got.Shape(), c.want) || !bytes.Equal(got.Bytes(), data) {
			t.Errorf("%s: %v %x", c.name, got.Shape(), head(got.Bytes()))
		}
	}
	bad := []struct {
		name  string
		layer gl
		shape gl
		want  string
	}{
		{"count", lay("Reshape", "y", element.F32, []int64{5}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{1}, i64s(5)), "target shape [5] holds 5 elements, the input [2,3,2] holds 12"},
		{"zero literal", lay("Reshape", "y", element.F32, []int64{0, 12}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{2}, i64s(0, 12)), "holds 0 elements"},
		{"two -1", lay("Reshape", "y", element.F32, []int64{3, 4}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{2}, i64s(-1, -1)), "more than one -1"},
		{"-1 of 5", lay("Reshape", "y", element.F32, []int64{3, 4}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{2}, i64s(-1, 5)), "-1 cannot be inferred"},
		{"-2", lay("Reshape", "y", element.F32, []int64{3, 4}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{2}, i64s(-2, 5)), "is negative"},
		{"overflow", lay("Reshape", "y", element.F32, []int64{3, 4}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{3}, i64s(1<<40, 1<<40, 0)), "overflows"},
		{"no special_zero", lay("Reshape", "y", element.F32, []int64{3, 4}, "x", "s"), cst("s", element.I64, []int64{2}, i64s(3, 4)), "Reshape needs special_zero"},
		{"float shape", lay("Reshape", "y", element.F32, []int64{3, 4}, "x", "s").with("special_zero", "false"), cst("s", element.F32, []int64{2}, le[float32](3, 4)), "it must hold integers"},
		{"declared dims", lay("Reshape", "y", element.F32, []int64{4, 3}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{2}, i64s(3, 4)), "output port 2 has dims [4,3], but the output's shape is [3,4]"},
		{"declared rank", lay("Reshape", "y", element.F32, []int64{12, -1}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{1}, i64s(12)), "has dims [12,?]"},
		{"unsqueeze range", lay("Unsqueeze", "y", element.F32, []int64{2, 3, 2, 1}, "x", "s"), cst("s", element.I64, []int64{1}, i64s(4)), "axis 4 is out of range [-4, 3]"},
		{"unsqueeze twice", lay("Unsqueeze", "y", element.F32, []int64{1, 1, 2, 3, 2}, "x", "s"), cst("s", element.I64, []int64{2}, i64s(0, -5)), "name axis 0 twice"},
		{"huge shape input", lay("Reshape", "y", element.F32, []int64{12}, "x", "s").with("special_zero", "false"), cst("s", element.I64, []int64{5000}, make([]byte, 40000)), "has 5000 elements, more than the 4096"},
	}
	for _, c := range bad {
		m := buildModel(t, []gl{x, c.shape, c.layer}, "y")
		_, err := m.Run(nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "t.xml:") || !strings.Contains(err.Error(), "layer 2 (y)") {
			t.Errorf("%s: Run: %v, want %q", c.name, err, c.want)
		}
		if _, err := m.Plan(nil); err == nil {
			t.Errorf("%s: Plan succeeds", c.name)
		}
	}
}

// refTranspose is out[i0,…] = in[perm applied], by unravelling each output index.
func refTranspose(in []int64, perm []int64, k int64) int64 {
	out := make([]int64, len(perm))
	for i, p := range perm {
		out[i] = in[p]
	}
	idx := make([]int64, len(out))
	for d := len(out) - 1; d >= 0; d-- {
		idx[d] = k % out[d]
		k /= out[d]
	}
	src := make([]int64, len(in))
	for i, p := range perm {
		src[p] = idx[i]
	}
	var off int64
	for i := range in {
		off = off*in[i] + src[i]
	}
	return off
}

func TestEvalTranspose(t *testing.T) {
	in := []int64{2, 3, 4}
	vals := make([]float32, 24)
	for i := range vals {
		vals[i] = float32(i)
	}
	for _, perm := range [][]int64{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {2, 0, 1}, {0, 2, 1}, {}} {
		p := perm
		if len(p) == 0 {
			p = []int64{2, 1, 0}
		}
		out := []int64{in[p[0]], in[p[1]], in[p[2]]}
		permC := cst("p", element.I64, []int64{int64(len(perm))}, i64s(perm...))
		m := buildModel(t, []gl{cst("x", element.F32, in, le(vals...)), permC, lay("Transpose", "y", element.F32, out, "x", "p")}, "y")
		got := runOutput(t, m, "y")
		for k := range int64(24) {
			if g := math.Float32frombits(binary32(got.Bytes(), k)); g != vals[refTranspose(in, p, k)] {
				t.Fatalf("perm %v: element %d = %v, want %v", perm, k, g, vals[refTranspose(in, p, k)])
			}
		}
	}
	// 4-bit elements move as nibbles: u4 [2,3] → [3,2].
	codes := []byte{0x21, 0x43, 0x65} // 1..6
	m := buildModel(t, []gl{cst("x", element.U4, []int64{2, 3}, codes), cst("p", element.I32, []int64{2}, le[int32](1, 0)),
		lay("Transpose", "y", element.U4, []int64{3, 2}, "x", "p")}, "y")
	if got := runOutput(t, m, "y").Bytes(); !bytes.Equal(got, []byte{0x41, 0x52, 0x63}) {
		t.Errorf("u4 transpose = %x", got)
	}
	for _, c := range []struct {
		perm []int64
		want string
	}{{[]int64{0, 1}, "has 2 values, the input [2,3,4] has rank 3"}, {[]int64{0, 1, 1}, "not a permutation"}, {[]int64{0, 1, -1}, "not a permutation"}, {[]int64{0, 1, 3}, "not a permutation"}} {
		m := buildModel(t, []gl{cst("x", element.F32, in, le(vals...)), cst("p", element.I64, []int64{int64(len(c.perm))}, i64s(c.perm...)),
			lay("Transpose", "y", element.F32, in, "x", "p")}, "y")
		if _, err := m.Run(nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("perm %v: %v", c.perm, err)
		}
	}
	m = buildModel(t, []gl{cst("x", element.U1, []int64{8}, []byte{1}), cst("p", element.I64, []int64{1}, i64s(0)),
		lay("Transpose", "y", element.U1, []int64{8}, "x", "p")}, "y")
	if _, err := m.Run(nil); err == nil || !strings.Contains(err.Error(), "u1 elements (1 bits) are not moved") {
		t.Errorf("u1 transpose: %v", err)
	}
}

func TestEvalGather(t *testing.T) {
	table := f16s(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11) // [4,3]
	x := cst("x", element.F16, []int64{4, 3}, table)
	row := func(rs ...int) []byte {
		var b []byte
		for _, r := range rs {
			if r < 0 {
				b = append(b, f16s(0, 0, 0)...)
				continue
			}
			b = append(b, table[6*r:6*r+6]...)
		}
		return b
	}
	cases := []struct {
		name    string
		version string
		idx     gl
		axis    int64
		shape   []int64
		want    []byte
		err     string
	}{
		{"rows", "opset8", cst("i", element.I32, []int64{3}, le[int32](2, 0, 3)), 0, []int64{3, 3}, row(2, 0, 3), ""},
		{"negative", "opset8", cst("i", element.I64, []int64{2}, i64s(-1, -4)), 0, []int64{2, 3}, row(3, 0), ""},
		{"u8 codebook indexes", "opset8", cst("i", element.U8, []int64{2, 2}, []byte{1, 1, 0, 3}), 0, []int64{2, 2, 3}, row(1, 1, 0, 3), ""},
		{"scalar index", "opset8", cst("i", element.I64, nil, i64s(1)), 0, []int64{3}, row(1), ""},
		{"v8 out of range", "opset8", cst("i", element.I64, []int64{3}, i64s(4, 1, -5)), 0, []int64{3, 3}, row(-1, 1, -1), ""},
		{"v7 out of range", "opset7", cst("i", element.I64, []int64{1}, i64s(4)), 0, []int64{1, 3}, nil, "index 4 is out of range for axis 0 of size 4 (Gather-7"},
		{"v1 negative", "opset1", cst("i", element.I64, []int64{1}, i64s(-2)), 0, []int64{1, 3}, row(2), ""},
		{"v1 out of range", "opset1", cst("i", element.I64, []int64{1}, i64s(-5)), 0, []int64{1, 3}, nil, "index -5 is out of range"},
		{"axis 1", "opset8", cst("i", element.I64, []int64{2}, i64s(2, -3)), 1, []int64{4, 2},
			f16s(2, 0, 5, 3, 8, 6, 11, 9), ""},
		{"axis -1", "opset8", cst("i", element.I64, []int64{1}, i64s(1)), -1, []int64{4, 1}, f16s(1, 4, 7, 10), ""},
		{"axis 2", "opset8", cst("i", element.I64, []int64{1}, i64s(1)), 2, []int64{4, 1}, nil, "axis 2 is out of range for data of rank 2"},
		{"float indices", "opset8", cst("i", element.F32, []int64{1}, le[float32](1)), 0, []int64{1, 3}, nil, "indices are f32"},
	}
	for _, c := range cases {
		m := buildModel(t, []gl{x, c.idx, cst("a", element.I64, nil, i64s(c.axis)),
			lay("Gather", "y", element.F16, c.shape, "x", "i", "a").ver(c.version).with("batch_dims", "0")}, "y")
		res, err := m.Run(nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := res.Outputs[len(res.Outputs)-1].Tensor
		if !slices.Equal(got.Shape(), c.shape) || !bytes.Equal(got.Bytes(), c.want) {
			t.Errorf("%s: %v %x, want %x", c.name, got.Shape(), got.Bytes(), c.want)
		}
	}
	m := buildModel(t, []gl{x, cst("i", element.I64, []int64{1}, i64s(0)), cst("a", element.I64, nil, i64s(0)),
		lay("Gather", "y", element.F16, []int64{1, 3}, "x", "i", "a").ver("opset8").with("batch_dims", "1")}, "y")
	if _, err := m.Run(nil); err == nil || !strings.Contains(err.Error(), `batch_dims="1" is not evaluated`) {
		t.Errorf("batch_dims 1: %v", err)
	}
	// u4 indices, more than one block of them, on axis 1 of a [2,16,3] table.
	r := rand.New(rand.NewPCG(7, 8))
	idx := randBytes(r, 1500) // 3000 codes
	big := make([]float32, 2*16*3)
	for i := range big {
		big[i] = float32(i)
	}
	m = buildModel(t, []gl{cst("x", element.F32, []int64{2, 16, 3}, le(big...)), cst("i", element.U4, []int64{3000}, idx), cst("a", element.I64, nil, i64s(1)),
		lay("Gather", "y", element.F32, []int64{2, 3000, 3}, "x", "i", "a").ver("opset8")}, "y")
	got := runOutput(t, m, "y").Bytes()
	for o := range 2 {
		for j := range 3000 {
			c := int(idx[j/2] >> (4 * (j % 2)) & 0xF)
			for k := range 3 {
				if g := math.Float32frombits(binary32(got, int64((o*3000+j)*3+k))); g != big[(o*16+c)*3+k] {
					t.Fatalf("u4 indices: [%d,%d,%d] = %v, want %v", o, j, k, g, big[(o*16+c)*3+k])
				}
			}
		}
	}
	// An empty output costs nothing, however many rows the data has.
	m = buildModel(t, []gl{cst("x", element.F32, []int64{1 << 40, 5, 0}, nil), cst("i", element.I64, []int64{1}, i64s(1)), cst("a", element.I64, nil, i64s(1)),
		lay("Gather", "y", element.F32, []int64{1 << 40, 1, 0}, "x", "i", "a").ver("opset8")}, "y")
	if got := runOutput(t, m, "y"); got.Len() != 0 {
		t.Errorf("empty gather: %v", got.Shape())
	}
	// A u4 table moves nibbles.
	m = buildModel(t, []gl{cst("x", element.U4, []int64{3, 2}, []byte{0x21, 0x43, 0x65}), cst("i", element.I64, []int64{2}, i64s(2, 0)), cst("a", element.I64, nil, i64s(0)),
		lay("Gather", "y", element.U4, []int64{2, 2}, "x", "i", "a").ver("opset8")}, "y")
	if got := runOutput(t, m, "y").Bytes(); !bytes.Equal(got, []byte{0x65, 0x21}) {
		t.Errorf("u4 gather = %x", got)
	}
}

func TestEvalBinaryErrors(t *testing.T) {
	f := cst("a", element.F32, []int64{2, 3}, make([]byte, 24))
	cases := []struct {
		name string
		ls   []gl
		want string
	}{
		{"types", []gl{f, cst("b", element.F16, []int64{3}, make([]byte, 6)), lay("Multiply", "y", element.F32, []int64{2, 3}, "a", "b")}, "input types differ (f32 and f16)"},
		{"broadcast", []gl{f, cst("b", element.F32, []int64{2}, make([]byte, 8)), lay("Subtract", "y", element.F32, []int64{2, 3}, "a", "b")}, "input shapes [2,3] and [2] do not broadcast"},
		{"none", []gl{f, cst("b", element.F32, []int64{3}, make([]byte, 12)), lay("Subtract", "y", element.F32, []int64{2, 3}, "a", "b").with("auto_broadcast", "none")}, `differ, and auto_broadcast is "none"`},
		{"pdpd", []gl{f, cst("b", element.F32, []int64{3}, make([]byte, 12)), lay("Subtract", "y", element.F32, []int64{2, 3}, "a", "b").with("auto_broadcast", "pdpd")}, `auto_broadcast="pdpd" is not evaluated`},
		{"i8 multiply", []gl{cst("a", element.I8, []int64{2}, []byte{1, 2}), cst("b", element.I8, []int64{2}, []byte{1, 2}), lay("Multiply", "y", element.I8, []int64{2}, "a", "b")}, "Multiply on i8 is not evaluated (OpenVINO evaluates it on f16, bf16, f32, f64, i32, i64, u32, u64)"},
		{"i16 subtract", []gl{cst("a", element.I16, []int64{1}, []byte{1, 2}), cst("b", element.I16, []int64{1}, []byte{1, 2}), lay("Subtract", "y", element.I16, []int64{1}, "a", "b")}, "Subtract on i16 is not evaluated"},
		{"declared type", []gl{f, cst("b", element.F32, []int64{3}, make([]byte, 12)), lay("Multiply", "y", element.F16, []int64{2, 3}, "a", "b")}, "output port 2 has precision FP16, but the output is f32"},
		{"declared dims", []gl{f, cst("b", element.F32, []int64{3}, make([]byte, 12)), lay("Multiply", "y", element.F32, []int64{3, 3}, "a", "b")}, "has dims [3,3], but the output's shape is [2,3]"},
	}
	for _, c := range cases {
		m := buildModel(t, c.ls, "y")
		if _, err := m.Run(nil); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "t.xml:") {
			t.Errorf("%s: Run: %v, want %q", c.name, err, c.want)
		}
		if _, err := m.Fold(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Fold: %v, want %q", c.name, err, c.want)
		}
	}
	// A wrong number of inputs is located too.
	m := buildModel(t, []gl{f, lay("Multiply", "y", element.F32, []int64{2, 3}, "a")}, "y")
	if _, err := m.Run(nil); err == nil || !strings.Contains(err.Error(), "Multiply has 2 inputs and one output (found 1 and 1)") {
		t.Errorf("one input: %v", err)
	}
}

// TestEvalSkips: a layer with a Parameter input, or whose target shape is not a Const, is not
// computed; an extension's layer named Multiply is not one of Run's.
func TestEvalSkips(t *testing.T) {
	m := buildModel(t, []gl{
		{name: "p", typ: "Parameter", out: element.F32, shape: []int64{2}},
		cst("c", element.F32, []int64{2}, le[float32](1, 2)),
		lay("Multiply", "pc", element.F32, []int64{2}, "p", "c"),
		cst("s", element.I64, []int64{1}, i64s(2)),
		lay("Convert", "s32", element.I32, []int64{1}, "s").with("destination_type", "i32"),
		lay("Reshape", "r", element.F32, []int64{2}, "c", "s32").with("special_zero", "false"),
		lay("Multiply", "ext", element.F32, []int64{2}, "c", "c").ver("extension"),
	}, "pc", "r", "ext")
	res, err := m.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, l := range res.Skipped {
		skipped = append(skipped, l.Name)
	}
	if !slices.Equal(skipped, []string{"pc", "r"}) || len(res.Missing) != 1 || res.Missing[0].Name != "p" {
		t.Errorf("skipped %v, missing %v", skipped, res.Missing)
	}
	res, err = m.Run(map[string]op.Tensor{"p": tn(element.F32, []int64{2}, le[float32](3, 4))})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Outputs {
		if o.Layer.Name == "pc" && !bytes.Equal(o.Tensor.Bytes(), le[float32](3, 8)) {
			t.Errorf("pc = %x", o.Tensor.Bytes())
		}
	}
}

// TestEvalBudget: Plan counts every computed output (Reshape and Unsqueeze share their input's
// data); a broadcast to 2^32 elements is refused by the budget before any allocation.
func TestEvalBudget(t *testing.T) {
	ls := []gl{
		cst("a", element.F16, []int64{4, 1}, f16s(1, 2, 3, 4)),
		cst("b", element.F16, []int64{1, 8}, f16s(1, 2, 3, 4, 5, 6, 7, 8)),
		lay("Multiply", "ab", element.F16, []int64{4, 8}, "a", "b"),
		cst("s", element.I64, []int64{1}, i64s(32)),
		lay("Reshape", "r", element.F16, []int64{32}, "ab", "s").with("special_zero", "false"),
		lay("Convert", "c", element.F32, []int64{32}, "r").with("destination_type", "f32"),
	}
	m := buildModel(t, ls, "c")
	p, err := m.Plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.ConstBytes != 8+16+8 || p.OutputBytes != 64+0+128 || len(p.Outputs) != 3 {
		t.Errorf("plan %+v", p)
	}
	if _, err := m.RunWith(nil, RunOptions{MaxMemory: p.Bytes()}); err != nil {
		t.Errorf("budget %d: %v", p.Bytes(), err)
	}
	var be *BudgetError
	if _, err := m.RunWith(nil, RunOptions{MaxMemory: p.Bytes() - 1}); !errors.As(err, &be) {
		t.Errorf("budget %d: %v", p.Bytes()-1, err)
	}
	// Fold holds the folded Convert's output twice; the other layers are removed.
	if _, err := m.FoldWith(RunOptions{MaxMemory: p.Bytes() + 127}); !errors.As(err, &be) || be.Need != p.Bytes()+128 {
		t.Errorf("fold budget: %v", err)
	}
	const n = 1 << 16
	big := buildModel(t, []gl{
		cst("a", element.F16, []int64{n, 1}, make([]byte, 2*n)),
		cst("b", element.F16, []int64{1, n}, make([]byte, 2*n)),
		lay("Multiply", "ab", element.F16, []int64{n, n}, "a", "b"),
	}, "ab")
	var rerr error
	if a := testkit.Allocated(func() { _, rerr = big.Run(nil) }); a > 8<<20 {
		t.Errorf("allocated %d bytes before refusing", a)
	}
	if !errors.As(rerr, &be) || be.Outputs != 2*n*n {
		t.Errorf("2^32 elements: %v", rerr)
	}
}

// chainCase is a decompression subgraph as NNCF writes it, built from a quant.Scheme.
type chainCase struct {
	name   string
	scheme quant.Scheme
	oc, g  int64 // rows and groups a row; the group size is scheme.Group
	f32    bool  // computed in f32 (older NNCF: Converts to f32, f32 zero point and scale)
}

// chainModel builds codes → Convert → [Subtract zero point] → Multiply scale → Reshape [OC, IC]
// → Convert f32 with random data, and returns the model and the quant.Data of the same values.
func chainModel(t testing.TB, r *rand.Rand, c chainCase) (*Model, quant.Data, int) {
	s := c.scheme
	gs := int64(s.Group)
	n := int(c.oc * c.g * gs)
	q := s.Alloc(n)
	for _, b := range [][]byte{q.Codes, q.Scales, q.Zeros} {
		copy(b, randBytes(r, len(b)))
	}
	ct := element.F16
	if c.f32 {
		ct = element.F32
	}
	grouped := []int64{c.oc, c.g, gs}
	per := []int64{c.oc, c.g, 1}
	if c.g == 1 { // per row: [OC, IC] and [OC, 1], no Reshape
		grouped, per = []int64{c.oc, gs}, []int64{c.oc, 1}
	}
	ls := []gl{
		cst("codes", s.Code, grouped, q.Codes),
		lay("Convert", "codes/convert", ct, grouped, "codes").with("destination_type", ct.String()),
	}
	x := "codes/convert"
	if s.Zero != element.Dynamic {
		zs := per
		if s.ScalarZero {
			zs = nil
		}
		ls = append(ls, cst("w/zero_point", s.Zero, zs, q.Zeros))
		zp := "w/zero_point"
		if s.Zero != ct {
			ls = append(ls, lay("Convert", "zp/convert", ct, zs, zp).with("destination_type", ct.String()))
			zp = "zp/convert"
		}
		ls = append(ls, lay("Subtract", "w/zero_point/subtract", ct, grouped, x, zp))
		x = "w/zero_point/subtract"
	}
	ls = append(ls, cst("w/scale", s.Scale, per, q.Scales))
	sc := "w/scale"
	switch {
	case s.Scale2 != element.Dynamic: // NVFP4: f8e4m3 → f32, × the f32 second-level scale, → f16
		q.Scale2 = le(float32(r.Float64()*0.01 + 1e-4))
		ls = append(ls,
			lay("Convert", "scale/f32", element.F32, per, sc).with("destination_type", "f32"),
			cst("w/second_order_scale", element.F32, []int64{1, 1, 1}, q.Scale2),
			lay("Multiply", "w/dequantized_scale_1", element.F32, per, "scale/f32", "w/second_order_scale"),
			lay("Convert", "scale/f16", ct, per, "w/dequantized_scale_1").with("destination_type", ct.String()))
		sc = "scale/f16"
	case s.Scale != ct:
		ls = append(ls, lay("Convert", "scale/convert", ct, per, sc).with("destination_type", ct.String()))
		sc = "scale/convert"
	}
	ls = append(ls, lay("Multiply", "w/fq_weights_1", ct, grouped, x, sc))
	last := "w/fq_weights_1"
	if len(grouped) == 3 {
		ls = append(ls, cst("shape", element.I64, []int64{2}, i64s(c.oc, c.g*gs)),
			lay("Reshape", "w/reshape", ct, []int64{c.oc, c.g * gs}, last, "shape").with("special_zero", "false"))
		last = "w/reshape"
	}
	ls = append(ls, lay("Convert", "w/fq_weights_1/convert", element.F32, []int64{c.oc, c.g * gs}, last).with("destination_type", "f32"))
	return buildModel(t, ls, "w/fq_weights_1/convert"), q, n
}

func chainCases(t testing.TB) []chainCase {
	nncf := func(mode string, group int, oc, g int64) chainCase {
		s, err := quant.NNCF(mode, group)
		if err != nil {
			t.Fatal(err)
		}
		return chainCase{name: s.String(), scheme: s, oc: oc, g: g}
	}
	return []chainCase{
		nncf("int4_asym", 8, 5, 3), nncf("int4_asym", 128, 2, 2), nncf("int8_asym", 16, 4, 1),
		nncf("int4_sym", 8, 3, 4), nncf("int8_sym", 6, 3, 1), nncf("nf4", 16, 4, 3), nncf("fp4", 4, 3, 3),
		nncf("fp8_e4m3", 8, 3, 2), nncf("mxfp4", 32, 3, 2), nncf("mxfp8_e4m3", 32, 2, 2), nncf("nvfp4", 16, 3, 2),
		// Older layouts: a constant zero point of 128 (symmetric stored unsigned), and f32 arithmetic.
		{name: "u8 scalar zero", scheme: quant.Scheme{Code: element.U8, Zero: element.U8, ScalarZero: true, Scale: element.F16, Group: 8, Compute: element.F16}, oc: 3, g: 2},
		{name: "f32 zero and scale", scheme: quant.Scheme{Code: element.U8, Zero: element.F32, Scale: element.F32, Group: 8}, oc: 3, g: 2, f32: true},
		{name: "f16 scale converted to f32", scheme: quant.Scheme{Code: element.U4, Zero: element.U4, Scale: element.F16, Group: 8}, oc: 3, g: 2, f32: true},
		{name: "nf4 in f32", scheme: quant.Scheme{Code: element.NF4, Scale: element.F16, Group: 8}, oc: 2, g: 2, f32: true},
	}
}

// TestEvalChainsMatchQuant: Run layer by layer on a decompression subgraph gives, bit for bit, what
// quant.Dequantize gives for the corresponding scheme (random codes, scales and zero points:
// NaN, infinite and subnormal scales included).
func TestEvalChainsMatchQuant(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range chainCases(t) {
		for rep := range 4 {
			m, q, n := chainModel(t, r, c)
			res, err := m.RunWith(nil, RunOptions{layerByLayer: true})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			got := map[string]op.Tensor{}
			for _, o := range res.Outputs {
				got[o.Layer.Name] = o.Tensor
			}
			for _, to := range []element.Type{element.F32, element.F16} {
				want := make([]byte, n*to.Bits()/8)
				if err := quant.Dequantize(want, to, q, c.scheme, n); err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				name := "w/fq_weights_1/convert"
				if to == element.F16 {
					if c.f32 {
						continue
					}
					name = "w/fq_weights_1"
				}
				if g := got[name].Bytes(); !bytes.Equal(g, want) {
					for i := 0; i < len(g); i += to.Bits() / 8 {
						if !bytes.Equal(g[i:i+to.Bits()/8], want[i:i+to.Bits()/8]) {
							t.Errorf("%s #%d %s: element %d: %x, quant.Dequantize gives %x", c.name, rep, name, i/(to.Bits()/8), g[i:i+to.Bits()/8], want[i:i+to.Bits()/8])
							break
						}
					}
				}
			}
		}
	}
}

// TestFoldChain: Fold replaces a decompression subgraph by one Const named after its last layer,
// holding what Run computes, and removes every other layer of it; a MatMul fed by a Parameter
// keeps its input.
func TestFoldChain(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range chainCases(t) {
		m, _, _ := chainModel(t, r, c)
		res, err := m.RunWith(nil, RunOptions{layerByLayer: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := res.Outputs[len(res.Outputs)-1].Tensor
		n, err := m.FoldWith(RunOptions{layerByLayer: true})
		if err != nil || n != 1 {
			t.Fatalf("%s: Fold = %d, %v", c.name, n, err)
		}
		if got := m.CountByType(); len(got) != 2 || got["Const"] != 1 || got["Result"] != 1 {
			t.Errorf("%s: folded model has %v", c.name, got)
		}
		w := m.LayerByName("w/fq_weights_1/convert")
		if w == nil || w.Type != "Const" {
			t.Fatalf("%s: no Const w/fq_weights_1/convert", c.name)
		}
		ci, data, err := m.ConstData(w)
		if err != nil || ci.Type != element.F32 || !slices.Equal(ci.Shape, want.Shape()) || !bytes.Equal(data, want.Bytes()) {
			t.Errorf("%s: folded Const %s%v %v", c.name, ci.Type, ci.Shape, err)
		}
		if w.Outputs[0].Names != "w/fq_weights_1/convert" {
			t.Errorf("%s: names %q", c.name, w.Outputs[0].Names)
		}
	}
	// With a consumer that is not computed: the weight is folded, the MatMul and its Parameter stay.
	m := buildModel(t, []gl{
		cst("w", element.F16, []int64{2, 3}, f16s(1, 2, 3, 4, 5, 6)),
		lay("Convert", "w/convert", element.F32, []int64{2, 3}, "w").with("destination_type", "f32"),
		{name: "x", typ: "Parameter", out: element.F32, shape: []int64{1, 3}},
		lay("MatMul", "mm", element.F32, []int64{1, 2}, "x", "w/convert").with("transpose_a", "false", "transpose_b", "true"),
	}, "mm")
	if n, err := m.Fold(); n != 1 || err != nil {
		t.Fatalf("Fold = %d, %v", n, err)
	}
	if c := m.CountByType(); c["Const"] != 1 || c["Convert"] != 0 || c["MatMul"] != 1 || c["Parameter"] != 1 {
		t.Errorf("folded: %v", c)
	}
	if _, err := m.Check(); err != nil {
		t.Error(err)
	}
	if e := m.Producer(m.LayerByName("mm").ID, 1); e == nil || m.Layer(e.FromLayer).Name != "w/convert" || m.Layer(e.FromLayer).Type != "Const" {
		t.Errorf("MatMul input 1 from %+v", e)
	}
}

// BenchmarkRunChain runs an int4_asym decompression subgraph of a [1024, 1024] weight in groups
// of 128 (codes → f16 → − zero point → × scale → Reshape → f32); bytes are the f32 weight's.
// "fast" computes the recognised weight as one unit (DecompressedData), "layer-by-layer" each
// layer of the subgraph with its intermediate tensor.
func BenchmarkRunChain(b *testing.B) {
	s, err := quant.NNCF("int4_asym", 128)
	if err != nil {
		b.Fatal(err)
	}
	m, _, n := chainModel(b, rand.New(rand.NewPCG(1, 1)), chainCase{scheme: s, oc: 1024, g: 8})
	for _, c := range []struct {
		name string
		o    RunOptions
	}{{"fast", RunOptions{}}, {"layer-by-layer", RunOptions{layerByLayer: true}}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(4 * n))
			for b.Loop() {
				if _, err := m.RunWith(nil, c.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
