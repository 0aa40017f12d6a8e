package ir

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
	"github.com/convertpromote/convertpromote/promote"
)

// The layers Run computes besides Convert and ConvertPromoteTypes: the ones that OpenVINO's
// decompression subgraphs of compressed weights are made of (docs/SEMANTICS.md §9.5), each
// evaluated as OpenVINO's reference implementation evaluates it (docs/ir.md, "Evaluation").

// dataOps are the layer types computed by evalDataOp, with their input counts.
var dataOps = map[string]int{"Subtract": 2, "Multiply": 2, "Reshape": 2, "Unsqueeze": 2, "Transpose": 2, "Gather": 3}

// opsetVersion returns N of a layer's version "opsetN", or 0 when the version is not an opset
// (an extension's layer of the same type name is not computed).
func opsetVersion(l *Layer) int {
	n, err := strconv.Atoi(strings.TrimPrefix(l.Version, "opset"))
	if err != nil || !strings.HasPrefix(l.Version, "opset") || n < 1 {
		return 0
	}
	return n
}

// maxShapeInput bounds the elements of a Const that gives a target shape, axes, a permutation
// or an axis: such a Const is read while planning, before the memory budget is checked.
const maxShapeInput = 4096

// sortedInputs returns a layer's input ports in port id order.
func sortedInputs(l *Layer) []*Port {
	ins := slices.Clone(l.Inputs)
	slices.SortFunc(ins, func(a, b *Port) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return ins
}

// constInts reads the integer Const src that feeds input i of layer l (a target shape, axes, a
// permutation or an axis) as int64 values, converted with kernels.Convert.
func (m *Model) constInts(l *Layer, i int, src *Layer) ([]int64, error) {
	ci, err := m.ConstInfo(src)
	if err != nil {
		return nil, err
	}
	if !ci.Type.IsIntegralNumber() {
		return nil, m.errorf(l.Line, l, "input %d (%s) is a %s Const; it must hold integers", i, src.Label(), ci.Type)
	}
	if ci.Elements > maxShapeInput {
		return nil, m.errorf(l.Line, l, "input %d (%s) has %d elements, more than the %d this input may have", i, src.Label(), ci.Elements, maxShapeInput)
	}
	_, data, err := m.ConstData(src)
	if err != nil {
		return nil, err
	}
	t, err := op.View(ci.Type, []int64{ci.Elements}, data)
	if err == nil {
		t, err = t.Convert(element.I64)
	}
	if err != nil {
		return nil, m.errorf(l.Line, l, "input %d (%s): %v", i, src.Label(), err)
	}
	return int64s(t.Bytes()), nil
}

func int64s(b []byte) []int64 {
	out := make([]int64, len(b)/8)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

// evalDataOp computes layer l (a type of dataOps) from its input values in (in port order);
// in a dry walk it works out the output's type and shape only. ints reads the Const that feeds
// input i as integers, and reports false when input i is not fed by a Const (the layer is then
// not computed). The returned bytes are what the output adds to the tensor data held: 0 for
// Reshape and Unsqueeze, whose output shares its input's data.
func (m *Model) evalDataOp(l *Layer, in []value, ints func(i int) ([]int64, bool, error), dry bool) (value, int64, bool, error) {
	fail := func(format string, a ...any) (value, int64, bool, error) {
		return value{}, 0, false, m.errorf(l.Line, l, format, a...)
	}
	var shape, order []int64 // the output's shape; Transpose's order
	gatherAxis := 0
	typ := in[0].typ
	switch l.Type {
	case "Subtract", "Multiply":
		a, b := in[0], in[1]
		if a.typ != b.typ {
			return fail("input types differ (%s and %s); %s needs both inputs of one element type", a.typ, b.typ, l.Type)
		}
		if err := binaryTypeOK(l.Type, a.typ); err != nil {
			return fail("%v", err)
		}
		ab, _ := l.DataAttr("auto_broadcast")
		switch strings.ToLower(ab) {
		case "", "numpy":
			var okB bool
			if shape, okB = broadcastShape(a.shape, b.shape); !okB {
				return fail("input shapes %s and %s do not broadcast (numpy rules)", dimsString(a.shape), dimsString(b.shape))
			}
		case "none", "explicit":
			if !slices.Equal(a.shape, b.shape) {
				return fail("input shapes %s and %s differ, and auto_broadcast is %q", dimsString(a.shape), dimsString(b.shape), ab)
			}
			shape = slices.Clone(a.shape)
		default:
			return fail("auto_broadcast=%q is not evaluated (numpy, none)", clip(ab))
		}
	case "Reshape":
		target, okT, err := ints(1)
		if err != nil || !okT {
			return value{}, 0, okT, err
		}
		sz, okZ := l.DataAttr("special_zero")
		special, errB := parseBool(sz)
		if !okZ || errB != nil {
			return fail("special_zero=%q: Reshape needs special_zero true or false", clip(sz))
		}
		if shape, err = reshapeShape(in[0].shape, target, special); err != nil {
			return fail("%v", err)
		}
	case "Unsqueeze":
		axes, okA, err := ints(1)
		if err != nil || !okA {
			return value{}, 0, okA, err
		}
		if shape, err = unsqueezeShape(in[0].shape, axes); err != nil {
			return fail("%v", err)
		}
	case "Transpose":
		perm, okP, err := ints(1)
		if err != nil || !okP {
			return value{}, 0, okP, err
		}
		if perm, err = checkPerm(in[0].shape, perm); err != nil {
			return fail("%v", err)
		}
		if err := movable(typ); err != nil {
			return fail("%v", err)
		}
		shape = make([]int64, len(perm))
		for i, p := range perm {
			shape[i] = in[0].shape[p]
		}
		order = perm
	case "Gather":
		axes, okA, err := ints(2)
		if err != nil || !okA {
			return value{}, 0, okA, err
		}
		version := opsetVersion(l)
		if bd, ok := l.DataAttr("batch_dims"); ok && version >= 7 && strings.TrimSpace(bd) != "0" {
			return fail("batch_dims=%q is not evaluated (0 only)", clip(bd))
		}
		if !in[1].typ.IsIntegralNumber() {
			return fail("indices are %s; Gather takes integer indices", in[1].typ)
		}
		if len(axes) != 1 {
			return fail("axis input has %d values; it must hold one", len(axes))
		}
		r := int64(len(in[0].shape))
		axis := axes[0]
		if axis < -r || axis >= r {
			return fail("axis %d is out of range for data of rank %d", axis, r)
		}
		if axis < 0 {
			axis += r
		}
		if err := movable(typ); err != nil {
			return fail("%v", err)
		}
		d := in[0].shape
		shape = append(append(slices.Clone(d[:axis]), in[1].shape...), d[axis+1:]...)
		gatherAxis = int(axis)
	}
	n, err := promote.NumElements(shape)
	if err != nil {
		return fail("output shape %s: %v", dimsString(shape), err)
	}
	size, err := typ.ByteSize(n)
	if err != nil {
		return fail("output shape %s: %v", dimsString(shape), err)
	}
	v := value{typ: typ, shape: shape}
	if err := m.checkDeclared(l, v); err != nil {
		return value{}, 0, false, err
	}
	switch l.Type {
	case "Reshape", "Unsqueeze":
		if !dry {
			// Row-major data are not moved: the output is a view of the input's buffer.
			if v.t, err = op.View(typ, shape, in[0].t.Bytes()); err != nil {
				return fail("%v", err)
			}
		}
		return v, 0, true, nil
	}
	if !dry {
		if v.t, err = op.NewTensor(typ, shape); err != nil {
			return fail("%v", err)
		}
		switch l.Type {
		case "Subtract", "Multiply":
			arith(v.t, in[0].t, in[1].t, l.Type == "Multiply")
		case "Transpose":
			transpose(v.t, in[0].t, order)
		case "Gather":
			if err := m.gather(l, v.t, in[0].t, in[1].t, gatherAxis, opsetVersion(l) >= 8); err != nil {
				return value{}, 0, false, err
			}
		}
	}
	return v, size, true, nil
}

// parseBool reads a boolean attribute as OpenVINO writes it: true, false, 1 or 0.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("not a boolean: %q", s)
}

// checkDeclared compares a computed output with the output port's declared precision and the
// dims the file gives (a dynamic dim, -1, matches any size).
func (m *Model) checkDeclared(l *Layer, v value) error {
	if len(l.Outputs) == 0 {
		return nil
	}
	p := l.Outputs[0]
	if t, ok := p.Type(); ok && t != v.typ {
		return m.errorf(p.Line, l, "output port %d has precision %s, but the output is %s", p.ID, p.Precision, v.typ)
	}
	bad := len(p.Dims) != len(v.shape)
	for i := 0; !bad && i < len(p.Dims); i++ {
		bad = p.Dims[i] >= 0 && p.Dims[i] != v.shape[i]
	}
	if bad {
		return m.errorf(p.Line, l, "output port %d has dims %s, but the output's shape is %s", p.ID, dimsString(p.Dims), dimsString(v.shape))
	}
	return nil
}

// binaryTypeOK reports whether Subtract or Multiply is evaluated on element type t: as
// OpenVINO's reference evaluates them, f16 and bf16 (in f32), f32, f64, i32, i64, u32 and u64,
// and for Subtract also i8 and u8 (src/core/src/op/multiply.cpp and subtract.cpp).
func binaryTypeOK(typ string, t element.Type) error {
	switch t {
	case element.F16, element.BF16, element.F32, element.F64, element.I32, element.I64, element.U32, element.U64:
		return nil
	case element.I8, element.U8:
		if typ == "Subtract" {
			return nil
		}
	}
	valid := "f16, bf16, f32, f64, i32, i64, u32, u64"
	if typ == "Subtract" {
		valid += ", i8, u8"
	}
	return fmt.Errorf("%s on %s is not evaluated (OpenVINO evaluates it on %s)", typ, t, valid)
}

// broadcastShape is the numpy broadcast of shapes a and b: aligned at the right, each pair of
// dims equal or one of them 1 (a 1 against 0 gives 0).
func broadcastShape(a, b []int64) ([]int64, bool) {
	r := max(len(a), len(b))
	out := make([]int64, r)
	for i := range r {
		da, db := int64(1), int64(1)
		if k := i - (r - len(a)); k >= 0 {
			da = a[k]
		}
		if k := i - (r - len(b)); k >= 0 {
			db = b[k]
		}
		switch {
		case da == db || db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, false
		}
	}
	return out, true
}

// reshapeShape is Reshape-1's output shape for data of shape in and the target: a 0 copies the
// input's dim at its index with special_zero (and is a dim of size 0 without), one -1 takes the
// size that keeps the element count.
func reshapeShape(in, target []int64, special bool) ([]int64, error) {
	inN, err := promote.NumElements(in)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(target)
	infer := -1
	known := int64(1)
	for i, d := range out {
		switch {
		case d == 0 && special:
			if i >= len(in) {
				return nil, fmt.Errorf("target shape %s: 0 at index %d copies an input dim, but the input %s has rank %d", dimsString(target), i, dimsString(in), len(in))
			}
			out[i] = in[i]
		case d == -1:
			if infer >= 0 {
				return nil, fmt.Errorf("target shape %s has more than one -1", dimsString(target))
			}
			infer = i
			continue
		case d < 0:
			return nil, fmt.Errorf("target shape %s: dim %d at index %d is negative", dimsString(target), d, i)
		}
		if out[i] != 0 && known > math.MaxInt64/out[i] {
			return nil, fmt.Errorf("target shape %s: the element count overflows int64", dimsString(target))
		}
		known *= out[i]
	}
	if infer >= 0 {
		if known == 0 || inN%known != 0 {
			return nil, fmt.Errorf("target shape %s: -1 cannot be inferred for %d elements (input %s)", dimsString(target), inN, dimsString(in))
		}
		out[infer] = inN / known
		known = inN
	}
	if known != inN {
		return nil, fmt.Errorf("target shape %s holds %d elements, the input %s holds %d", dimsString(target), known, dimsString(in), inN)
	}
	return out, nil
}

// unsqueezeShape inserts a dim of 1 at each axis, counted in the output's rank R (a negative
// axis counts from the end: -1 is R-1). Axes must be distinct.
func unsqueezeShape(in, axes []int64) ([]int64, error) {
	r := int64(len(in) + len(axes))
	ones := make([]bool, r)
	for _, a := range axes {
		if a < -r || a >= r {
			return nil, fmt.Errorf("axis %d is out of range [%d, %d] for an output of rank %d", a, -r, r-1, r)
		}
		if a < 0 {
			a += r
		}
		if ones[a] {
			return nil, fmt.Errorf("axes %v name axis %d twice", axes, a)
		}
		ones[a] = true
	}
	out := make([]int64, 0, r)
	k := 0
	for i := range r {
		if ones[i] {
			out = append(out, 1)
		} else {
			out = append(out, in[k])
			k++
		}
	}
	return out, nil
}

// checkPerm checks a Transpose order against data of shape in: a permutation of 0..rank-1, or
// empty for the reversed axes.
func checkPerm(in, perm []int64) ([]int64, error) {
	r := len(in)
	if len(perm) == 0 {
		perm = make([]int64, r)
		for i := range perm {
			perm[i] = int64(r - 1 - i)
		}
		return perm, nil
	}
	if len(perm) != r {
		return nil, fmt.Errorf("order %v has %d values, the input %s has rank %d", perm, len(perm), dimsString(in), r)
	}
	seen := make([]bool, r)
	for _, p := range perm {
		if p < 0 || p >= int64(r) || seen[p] {
			return nil, fmt.Errorf("order %v is not a permutation of 0..%d", perm, r-1)
		}
		seen[p] = true
	}
	return perm, nil
}

// movable reports whether Transpose and Gather move elements of type t: whole bytes, or 4-bit
// elements packed two a byte (low nibble first).
func movable(t element.Type) error {
	if b := t.Bits(); b%8 != 0 && b != 4 {
		return fmt.Errorf("%s elements (%d bits) are not moved by this evaluator (whole bytes and 4-bit types only)", t, b)
	}
	return nil
}

// elemMover copies elements of a type of whole bytes or of 4 bits between packed buffers.
type elemMover struct {
	size   int  // bytes per element; 0 for 4-bit elements
	nibble bool // 4-bit elements
}

func moverOf(t element.Type) elemMover {
	if t.Bits() == 4 {
		return elemMover{nibble: true}
	}
	return elemMover{size: t.Bits() / 8}
}

// copy copies n elements from src element si to dst element di.
func (e elemMover) copy(dst []byte, di int64, src []byte, si int64, n int64) {
	if !e.nibble {
		s := int64(e.size)
		copy(dst[di*s:(di+n)*s], src[si*s:(si+n)*s])
		return
	}
	for k := range n {
		c := src[(si+k)/2] >> (4 * ((si + k) % 2)) & 0xF
		j := di + k
		sh := 4 * (j % 2)
		dst[j/2] = dst[j/2]&^(0xF<<sh) | c<<sh
	}
}

// transpose writes src with its axes permuted (out's axis i is src's axis perm[i]) into out.
func transpose(out, src op.Tensor, perm []int64) {
	in := src.Shape()
	r := len(in)
	n := int64(out.Len())
	if n == 0 {
		return
	}
	strides := make([]int64, r)
	s := int64(1)
	for i := r - 1; i >= 0; i-- {
		strides[i] = s
		s *= in[i]
	}
	shape := out.Shape()
	step := make([]int64, r) // the source stride of each output axis
	for i, p := range perm {
		step[i] = strides[p]
	}
	mv := moverOf(src.Type())
	idx := make([]int64, r)
	var off int64
	for k := range n {
		mv.copy(out.Bytes(), k, src.Bytes(), off, 1)
		for d := r - 1; d >= 0; d-- {
			idx[d]++
			off += step[d]
			if idx[d] < shape[d] {
				break
			}
			off -= step[d] * shape[d]
			idx[d] = 0
		}
	}
}

// gather writes Gather's output: for each index along axis, the slice of data it selects. A
// negative index counts from the end (it has the axis's size added); an index still out of
// range gives a slice of zeros when zeros is set (Gather-8, as OpenVINO's reference fills its
// output) and is an error otherwise (Gather-1 and -7 leave it undefined).
func (m *Model) gather(l *Layer, out, data, indices op.Tensor, axis int, zeros bool) error {
	if out.Len() == 0 {
		return nil // nothing to select: shapes such as [2^40, 5, 0] must not cost 2^40 steps
	}
	d := data.Shape()
	outer, inner := int64(1), int64(1)
	for _, x := range d[:axis] {
		outer *= x
	}
	for _, x := range d[axis+1:] {
		inner *= x
	}
	dim := d[axis]
	k := int64(indices.Len())
	mv := moverOf(data.Type())
	it := indices.Type()
	var ix [chunk * 8]byte // a block of indices as i64
	for j0 := int64(0); j0 < k; j0 += chunk {
		// Blocks of chunk (a multiple of 8) indices start on whole bytes for every packing.
		n := min(chunk, k-j0)
		from, _ := it.ByteSize(j0)
		to, _ := it.ByteSize(j0 + n)
		if err := kernels.Convert(ix[:8*n], element.I64, indices.Bytes()[from:to], it, int(n)); err != nil {
			return m.errorf(l.Line, l, "indices: %v", err)
		}
		for jj := range n {
			i := int64(binary.LittleEndian.Uint64(ix[8*jj:]))
			given := i
			if i < 0 {
				i += dim
			}
			if i < 0 || i >= dim {
				if zeros {
					continue // NewTensor's zeros
				}
				return m.errorf(l.Line, l, "index %d is out of range for axis %d of size %d (Gather-%d; Gather-8 gives zeros)", given, axis, dim, min(opsetVersion(l), 7))
			}
			j := j0 + jj
			for o := range outer {
				mv.copy(out.Bytes(), (o*k+j)*inner, data.Bytes(), (o*dim+i)*inner, inner)
			}
		}
	}
	return nil
}

// chunk is how many elements arith computes at a time: its buffers are of fixed size, so
// that an operation holds no more than its output beyond a fixed amount.
const chunk = 1024

// nanF32 and nanF64 are the NaNs of an arithmetic result that is NaN without a NaN first
// operand (∞ × 0, ∞ − ∞, a NaN second operand), as package quant gives them (SEMANTICS §9.5),
// whatever the hardware's own NaN.
const (
	nanF32 = 0x7FC00000
	nanF64 = 0x7FF8000000000000
)

// arith computes out = a − b or a × b elementwise with numpy broadcasting; out has the
// broadcast shape and a's type. f16 and bf16 inputs are converted to f32 with kernels.Convert,
// computed in f32 and converted back (rounding to nearest even, overflowing to ±Inf), as
// OpenVINO evaluates them; f32 and f64 are computed in their own type; integers wrap (two's
// complement, modulo 2^bits).
func arith(out, a, b op.Tensor, mul bool) {
	t := a.Type()
	n := int64(out.Len())
	it := newBroadcast(out.Shape(), a.Shape(), b.Shape())
	var ia, ib [chunk]int64
	var fa, fb, fy [chunk * 4]byte // f32 values
	var ha, hb [chunk * 2]byte     // f16 or bf16 values
	var hy [8]byte
	size := int64(t.Bits() / 8)
	ob, ab, bb := out.Bytes(), a.Bytes(), b.Bytes()
	for k0 := int64(0); k0 < n; k0 += chunk {
		m := int(min(chunk, n-k0))
		it.next(ia[:m], ib[:m])
		switch t {
		case element.F32:
			for j := range m {
				x := math.Float32frombits(binary32(ab, ia[j]))
				y := math.Float32frombits(binary32(bb, ib[j]))
				binaryPut32(ob, k0+int64(j), math.Float32bits(f32Op(x, y, mul)))
			}
		case element.F64:
			for j := range m {
				x := math.Float64frombits(binary.LittleEndian.Uint64(ab[8*ia[j]:]))
				y := math.Float64frombits(binary.LittleEndian.Uint64(bb[8*ib[j]:]))
				binary.LittleEndian.PutUint64(ob[8*(k0+int64(j)):], math.Float64bits(floatOp(x, y, mul, quiet64, math.Float64frombits(nanF64))))
			}
		case element.F16, element.BF16:
			// Neither can fail: both types are supported and the buffers are long enough.
			_ = kernels.Convert(fa[:4*m], element.F32, gather16(ha[:], ab, ia[:m]), t, m)
			_ = kernels.Convert(fb[:4*m], element.F32, gather16(hb[:], bb, ib[:m]), t, m)
			for j := range m {
				x := math.Float32frombits(binary32(fa[:], int64(j)))
				y := math.Float32frombits(binary32(fb[:], int64(j)))
				binaryPut32(fy[:], int64(j), math.Float32bits(f32Op(x, y, mul)))
			}
			_ = kernels.Convert(ob[2*k0:2*(k0+int64(m))], t, fy[:4*m], element.F32, m)
		default: // integers of 1, 4 or 8 bytes
			for j := range m {
				var xa, xb [8]byte // zero-extended
				copy(xa[:size], ab[size*ia[j]:size*ia[j]+size])
				copy(xb[:size], bb[size*ib[j]:size*ib[j]+size])
				x, y := binary.LittleEndian.Uint64(xa[:]), binary.LittleEndian.Uint64(xb[:])
				r := x - y
				if mul {
					r = x * y
				}
				binary.LittleEndian.PutUint64(hy[:8], r)
				o := size * (k0 + int64(j))
				copy(ob[o:o+size], hy[:size])
			}
		}
	}
}

// gather16 returns the 2-byte elements of src at the indexes idx: src itself where they are
// consecutive, else a copy in buf.
func gather16(buf, src []byte, idx []int64) []byte {
	consecutive := true
	for j, i := range idx {
		if i != idx[0]+int64(j) {
			consecutive = false
			break
		}
	}
	if consecutive && len(idx) > 0 {
		return src[2*idx[0] : 2*(idx[0]+int64(len(idx)))]
	}
	for j, i := range idx {
		buf[2*j], buf[2*j+1] = src[2*i], src[2*i+1]
	}
	return buf[:2*len(idx)]
}

func binary32(b []byte, i int64) uint32       { return binary.LittleEndian.Uint32(b[4*i:]) }
func binaryPut32(b []byte, i int64, v uint32) { binary.LittleEndian.PutUint32(b[4*i:], v) }

// floatOp is x − y or x × y in F (the conversion forbids fusing with other operations). A NaN
// result is x's NaN with quiet's bit set when only x is NaN, and nan otherwise.
func floatOp[F float32 | float64](x, y F, mul bool, quiet func(F) F, nan F) F {
	var r F
	if mul {
		r = F(x * y)
	} else {
		r = F(x - y)
	}
	if r == r {
		return r
	}
	if x != x && y == y {
		return quiet(x)
	}
	return nan
}

func quiet32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) | 1<<22) }
func quiet64(x float64) float64 { return math.Float64frombits(math.Float64bits(x) | 1<<51) }

func f32Op(x, y float32, mul bool) float32 {
	return floatOp(x, y, mul, quiet32, math.Float32frombits(nanF32))
}

// broadcast walks an output of numpy-broadcast shape in row-major order and gives, for each
// element, the indexes of its two operands' elements.
type broadcast struct {
	shape      []int64
	sa, sb     []int64 // operand strides along each output axis (0 where broadcast)
	idx        []int64
	offA, offB int64
	same       bool // no broadcasting: both indexes are the output's
	linear     int64
}

func newBroadcast(out, a, b []int64) *broadcast {
	it := &broadcast{shape: out, idx: make([]int64, len(out)), same: slices.Equal(out, a) && slices.Equal(out, b)}
	strides := func(s []int64) []int64 {
		st := make([]int64, len(out))
		k := int64(1)
		for i := len(s) - 1; i >= 0; i-- {
			j := i + len(out) - len(s)
			if s[i] != 1 {
				st[j] = k
			}
			k *= s[i]
		}
		return st
	}
	it.sa, it.sb = strides(a), strides(b)
	return it
}

// next fills ia and ib with the operand indexes of the next len(ia) output elements.
func (it *broadcast) next(ia, ib []int64) {
	if it.same {
		for j := range ia {
			ia[j], ib[j] = it.linear+int64(j), it.linear+int64(j)
		}
		it.linear += int64(len(ia))
		return
	}
	r := len(it.shape)
	for j := range ia {
		ia[j], ib[j] = it.offA, it.offB
		for d := r - 1; d >= 0; d-- {
			it.idx[d]++
			it.offA += it.sa[d]
			it.offB += it.sb[d]
			if it.idx[d] < it.shape[d] {
				break
			}
			it.offA -= it.sa[d] * it.shape[d]
			it.offB -= it.sb[d] * it.shape[d]
			it.idx[d] = 0
		}
	}
}
