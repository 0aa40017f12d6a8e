package onnxruntime

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// A case is one Cast (pair and attributes) under one of convertpromote's rule sets, on a set of
// source patterns.
type castCase struct {
	rules    string // "onnx" or "openvino"
	from, to element.Type
	attrs    CastAttrs
	src      []byte
	n        int
}

func (c castCase) pair() string {
	s := c.from.String() + "→" + c.to.String()
	if isF8(c.to) {
		if c.attrs.NoSaturate {
			s += " saturate=0"
		} else {
			s += " saturate=1"
		}
	}
	if c.to == element.F8E8M0 {
		mode := c.attrs.RoundMode
		if mode == "" {
			mode = "up"
		}
		s += " round_mode=" + mode
	}
	return s
}

func isF8(t element.Type) bool {
	_, ok := f8Format(t)
	return ok || t == element.F8E8M0
}

// departure groups the inputs on which an implementation's output is outside what the ONNX
// specification allows: who is "onnxruntime", "convertpromote" or "both"; "open" marks inputs
// where the two differ and the specification allows both, "NaN payload" outputs that are
// different NaNs where the specification allows any. spec and ort describe the answers (signed
// NaN, Inf, max, or finite).
type departure struct {
	pair, class, who, spec, ort string
}

// result is what one case found.
type result struct {
	c          castCase
	compared   int
	diffs      int // outputs that differ in any bit
	nanPayload int // of diffs: both NaN, different bits
	groups     map[departure]int
	first      map[departure]int // the first input of each group
	last       map[departure]int // and the last
	examples   map[departure][2]string
	failures   []string // differences the test does not accept
}

// outcome collects the results of every case for the summary.
var outcome struct {
	sync.Mutex
	results []result
}

// runCase runs the Cast in ONNX Runtime and in kernels (convert; nil compares ONNX Runtime with the
// specification only) and classifies every output.
func runCase(t *testing.T, c castCase, convert func(dst []byte, to element.Type, src []byte, from element.Type, n int) error) result {
	t.Helper()
	sess, err := NewCast(c.from, c.to, c.attrs)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	db, _ := c.to.ByteSize(int64(c.n))
	ortOut := make([]byte, db)
	if err := sess.Run(ortOut, c.src, c.n); err != nil {
		t.Fatal(err)
	}
	var kOut []byte
	if convert != nil {
		kOut = make([]byte, db)
		if err := convert(kOut, c.to, c.src, c.from, c.n); err != nil {
			t.Fatalf("%s: kernels: %v", c.pair(), err)
		}
	}
	r := result{c: c, compared: c.n, groups: map[departure]int{}, first: map[departure]int{}, last: map[departure]int{}, examples: map[departure][2]string{}}
	w := c.to.Bits() / 8
	for i := range c.n {
		o := ortOut[i*w : (i+1)*w]
		var k []byte
		if kOut != nil {
			k = kOut[i*w : (i+1)*w]
		}
		differ := k != nil && string(o) != string(k)
		bothNaN := false
		if differ {
			r.diffs++
			if bothNaN = isNaNOut(c.to, o) && isNaNOut(c.to, k); bothNaN {
				r.nanPayload++
			}
		}
		if c.rules == "openvino" {
			if differ && !bothNaN {
				r.fail(fmt.Sprintf("input %s: onnxruntime %s, convertpromote %s", srcString(c, i), hex(o), hex(k)))
			}
			continue
		}
		v := specCheck(c, i)
		oOK := v.ok(o)
		kOK := k == nil || v.ok(k)
		var who string
		switch {
		case !oOK && !kOK:
			who = "both"
		case !oOK:
			who = "onnxruntime"
		case !kOK:
			who = "convertpromote"
		case bothNaN:
			who = "NaN payload"
		case differ:
			who = "open"
		default:
			continue
		}
		d := departure{pair: c.pair(), class: v.class.String(), who: who, spec: v.describe(c.to), ort: describe(c.to, o)}
		if _, seen := r.groups[d]; !seen {
			r.first[d] = i
		}
		r.groups[d]++
		r.last[d] = i
	}
	for d, i := range r.first {
		r.examples[d] = [2]string{r.example(i, kOut, ortOut), r.example(r.last[d], kOut, ortOut)}
	}
	outcome.Lock()
	outcome.results = append(outcome.results, r)
	outcome.Unlock()
	return r
}

func (r *result) fail(s string) {
	if len(r.failures) < 10 {
		r.failures = append(r.failures, s)
	}
}

func hex(b []byte) string {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return fmt.Sprintf("0x%0*x", 2*len(b), v)
}

func srcString(c castCase, i int) string {
	w := c.from.Bits()
	if w < 8 {
		return fmt.Sprintf("0x%x", c.src[i/2]>>(4*(i%2))&0xf)
	}
	b := c.src[i*w/8 : (i+1)*w/8]
	if c.from.IsReal() && w >= 16 {
		return fmt.Sprintf("%s (%g)", hex(b), srcValue(c.from, c.src, i))
	}
	return hex(b)
}

// example shows input i of r's case with the specification's and both outputs.
func (r *result) example(i int, kOut, ortOut []byte) string {
	c := r.c
	w := c.to.Bits() / 8
	v := specCheck(c, i)
	ex := fmt.Sprintf("input %s: specification %s, onnxruntime %s", srcString(c, i), v.String(), hex(ortOut[i*w:(i+1)*w]))
	if kOut != nil {
		ex += ", convertpromote " + hex(kOut[i*w:(i+1)*w])
	}
	return ex
}

// describe names an output code: its sign and NaN, Inf, max (the largest finite value) or
// finite.
func describe(t element.Type, b []byte) string {
	if len(b) != 1 {
		if isNaNOut(t, b) {
			return "NaN"
		}
		return "value"
	}
	c := b[0]
	if t == element.F8E8M0 {
		switch c {
		case 0xff:
			return "NaN"
		case 0xfe:
			return "max"
		case 0:
			return "min"
		}
		return "finite"
	}
	f, _ := f8Format(t)
	sign := "+"
	if c&0x80 != 0 && !(f.fnuz && c == 0x80) {
		sign = "-"
	}
	v, nan := f.decode(c)
	switch {
	case nan && f.fnuz:
		return "NaN"
	case nan:
		return sign + "NaN"
	case math.IsInf(v, 0):
		return sign + "Inf"
	case math.Abs(v) == f8max[f.name]:
		return sign + "max"
	}
	return "finite"
}

// describe names the answers the specification allows.
func (v *verdict) describe(t element.Type) string {
	if v.wide != 0 {
		if v.nan {
			return "NaN"
		}
		return "value"
	}
	if v.a.set == anyCode(0).set {
		return "unspecified"
	}
	var ds []string
	seen := map[string]bool{}
	for c := range 256 {
		if d := describe(t, []byte{byte(c)}); v.a.has(uint8(c)) && !seen[d] {
			seen[d] = true
			ds = append(ds, d)
		}
	}
	return strings.Join(ds, " or ")
}

// isNaNOut reports whether the output element b of type t is a NaN.
func isNaNOut(t element.Type, b []byte) bool {
	switch t {
	case element.F32:
		return math.IsNaN(float64(math.Float32frombits(le32(b))))
	case element.F64:
		return math.IsNaN(math.Float64frombits(le64(b)))
	case element.F16:
		h := uint16(b[0]) | uint16(b[1])<<8
		return h&0x7c00 == 0x7c00 && h&0x3ff != 0
	case element.BF16:
		h := uint16(b[0]) | uint16(b[1])<<8
		return h&0x7f80 == 0x7f80 && h&0x7f != 0
	case element.F8E8M0:
		return b[0] == 0xff
	}
	if f, ok := f8Format(t); ok {
		_, nan := f.decode(b[0])
		return nan
	}
	return false
}

// verdict is the specification's answer for one output element: a set of float8 codes, any NaN
// (f32), or one f32 pattern.
type verdict struct {
	a     answer
	wide  element.Type // f32, f16 or bf16: the answer is want (or any NaN), not a
	nan   bool
	want  uint32
	class class
}

func (v *verdict) ok(b []byte) bool {
	switch {
	case v.wide == 0:
		return v.a.has(b[0])
	case v.nan:
		return isNaNOut(v.wide, b)
	case v.wide == element.F32:
		return le32(b) == v.want
	}
	return uint32(b[0])|uint32(b[1])<<8 == v.want
}

func (v *verdict) String() string {
	switch {
	case v.wide == 0:
		return v.a.String()
	case v.nan:
		return "a NaN"
	case v.wide == element.F32:
		return fmt.Sprintf("0x%08x", v.want)
	}
	return fmt.Sprintf("0x%04x", v.want)
}

// specCheck returns the specification's answer for output element i of case c.
func specCheck(c castCase, i int) verdict {
	if f, ok := f8Format(c.to); ok {
		a := specF8(f, srcValue(c.from, c.src, i), !c.attrs.NoSaturate)
		return verdict{a: a, class: a.class}
	}
	if c.to == element.F8E8M0 {
		mode := c.attrs.RoundMode
		if mode == "" {
			mode = "up"
		}
		a := specE8M0(srcValue(c.from, c.src, i), mode, !c.attrs.NoSaturate)
		return verdict{a: a, class: a.class}
	}
	if c.to == element.F32 {
		v := exactValue(c.from, c.src, i)
		if math.IsNaN(v) {
			return verdict{wide: element.F32, nan: true, class: clNaN}
		}
		if float64(float32(v)) != v {
			panic(fmt.Sprintf("%v value %g is not an f32", c.from, v))
		}
		return verdict{wide: element.F32, want: math.Float32bits(float32(v)), class: clExact}
	}
	if c.to == element.F16 || c.to == element.BF16 {
		f := fmtF16
		if c.to == element.BF16 {
			f = fmtBF16
		}
		var x float64
		if c.from.IsIntegralNumber() {
			x = intValue(c.from, c.src, i, f.mbits+1)
		} else {
			x = srcValue(c.from, c.src, i)
		}
		if math.IsNaN(x) {
			return verdict{wide: c.to, nan: true, class: clNaN}
		}
		return verdict{wide: c.to, want: uint32(f.encode(x)), class: clIEEE}
	}
	panic("no specification reference for " + c.pair())
}

// exactValue decodes source element i of a type that widens exactly to f32.
func exactValue(t element.Type, b []byte, i int) float64 {
	if f, ok := f8Format(t); ok {
		v, nan := f.decode(b[i])
		if nan {
			return math.NaN()
		}
		return v
	}
	if t == element.F8E8M0 {
		if b[i] == 0xff {
			return math.NaN()
		}
		return math.Ldexp(1, int(b[i])-127)
	}
	return srcValue(t, b, i)
}

// String lists the allowed codes.
func (a answer) String() string {
	var cs []string
	for c := 0; c < 256; c++ {
		if a.has(uint8(c)) {
			cs = append(cs, fmt.Sprintf("0x%02x", c))
		}
	}
	if len(cs) == 256 {
		return "any code"
	}
	if len(cs) > 4 {
		return fmt.Sprintf("one of %d codes %s…%s", len(cs), cs[0], cs[len(cs)-1])
	}
	return strings.Join(cs, " or ")
}

// summary prints one line per case: inputs compared, differences, NaN-payload differences and the
// departure groups.
func summary(rs []result) {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].c.rules < rs[j].c.rules })
	total, diffs := 0, 0
	for _, r := range rs {
		total += r.compared
		diffs += r.diffs
		fmt.Printf("SUMMARY rules=%-8s %-44s inputs %8d  differences %7d  (NaN payload only %d)\n", r.c.rules, r.c.pair(), r.compared, r.diffs, r.nanPayload)
		var ds []departure
		for d := range r.groups {
			ds = append(ds, d)
		}
		sort.Slice(ds, func(i, j int) bool { return fmt.Sprint(ds[i]) < fmt.Sprint(ds[j]) })
		for _, d := range ds {
			fmt.Printf("SUMMARY     %-14s %-32s spec %-14s onnxruntime %-8s %7d\n", d.who, d.class, d.spec, d.ort, r.groups[d])
			ex := r.examples[d]
			fmt.Printf("SUMMARY         e.g. %s\n", ex[0])
			if ex[1] != ex[0] {
				fmt.Printf("SUMMARY         and  %s\n", ex[1])
			}
		}
	}
	fmt.Printf("SUMMARY total: %d inputs compared in %d cases, %d differences\n", total, len(rs), diffs)
}
