package op

import (
	"fmt"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/promote"
)

// View returns a tensor of type t and shape over data itself, without a copy: data must hold
// exactly t.ByteSize(elements) bytes, laid out as for FromBytes. The tensor aliases data: what
// the caller writes into data is what the tensor holds, what is written into the tensor (as a
// destination of EvaluateInto, or through Bytes) appears in data, and the tensor stays valid as
// long as data's array does. The shape is copied. kernels.AsBytes gives data for a typed slice,
// such as a []float32 or a runtime's own tensor memory.
func View(t element.Type, shape []int64, data []byte) (Tensor, error) {
	_, size, err := checkShape(t, shape)
	if err != nil {
		return Tensor{}, err
	}
	if int64(len(data)) != size {
		return Tensor{}, fmt.Errorf("op: %s tensor of shape %v needs %d bytes, got %d", t, shape, size, len(data))
	}
	return Tensor{typ: t, shape: append([]int64{}, shape...), data: data}, nil
}

// EvaluateInto is Evaluate writing into tensors the caller provides: dstA and dstB must have the
// common type of a and b and the shapes of a and b (which fixes their sizes: View and the other
// constructors refuse a buffer of the wrong size). It makes no allocation (except for an error
// it returns), so together with View it converts a runtime's buffers in place of Evaluate's new
// ones. A destination must not share memory with an input or with the other destination (an
// input that already has the common type is copied, not aliased). A wrong type or shape, an
// overlap, a promotion error or a common type that values cannot be converted to is an error
// naming the output, and then nothing is written. An overlap error wraps kernels.ErrOverlap and
// an output with fewer elements than its input wraps kernels.ErrShortBuffer, for errors.Is.
func (c ConvertPromoteTypes) EvaluateInto(dstA, dstB, a, b Tensor) error {
	// At 1 Ki elements a conversion takes tens of nanoseconds, so the common case is decided by
	// one condition: a memoized common type (which exists only for valid, convertible inputs)
	// that both outputs have, equal shapes and separate buffers. Everything else, errors
	// included, is intoSlow's.
	t := lookupCommon(c, a.typ, b.typ, len(a.shape) == 0, len(b.shape) == 0)
	if t == 0 || dstA.typ != t-1 || dstB.typ != t-1 ||
		!slices.Equal(dstA.shape, a.shape) || !slices.Equal(dstB.shape, b.shape) ||
		overlaps(dstA.data, a.data) || overlaps(dstA.data, b.data) || overlaps(dstB.data, a.data) ||
		overlaps(dstB.data, b.data) || overlaps(dstA.data, dstB.data) {
		return c.intoSlow(dstA, dstB, a, b)
	}
	return convertInto(&dstA, &dstB, &a, &b, t-1)
}

// convertInto converts both inputs into the checked outputs.
func convertInto(dstA, dstB, a, b *Tensor, t element.Type) error {
	if err := kernels.Convert(dstA.data, t, a.data, a.typ, a.count()); err != nil {
		return fmt.Errorf("input 0: op: %w", err)
	}
	if err := kernels.Convert(dstB.data, t, b.data, b.typ, b.count()); err != nil {
		return fmt.Errorf("input 1: op: %w", err)
	}
	return nil
}

// intoSlow is EvaluateInto with every check in turn, each with its own message.
func (c ConvertPromoteTypes) intoSlow(dstA, dstB, a, b Tensor) error {
	for _, x := range []struct {
		name string
		t    Tensor
	}{{"input 0", a}, {"input 1", b}, {"output 0", dstA}, {"output 1", dstB}} {
		if err := x.t.check(); err != nil {
			return fmt.Errorf("%s: %w", x.name, err)
		}
	}
	t, err := c.CommonType(Port{Type: a.typ, Shape: rankOnly(len(a.shape))}, Port{Type: b.typ, Shape: rankOnly(len(b.shape))})
	if err != nil {
		return err
	}
	if !kernels.Supported(a.typ, t) || !kernels.Supported(b.typ, t) {
		return fmt.Errorf("op: common type %s of %s and %s cannot hold values", t, a.typ, b.typ)
	}
	if err := checkDst(0, dstA, a, t); err != nil {
		return err
	}
	if err := checkDst(1, dstB, b, t); err != nil {
		return err
	}
	switch {
	case overlaps(dstA.data, a.data):
		return kindErrorf(kernels.ErrOverlap, "op: output 0 shares memory with input 0; EvaluateInto needs separate buffers")
	case overlaps(dstA.data, b.data):
		return kindErrorf(kernels.ErrOverlap, "op: output 0 shares memory with input 1; EvaluateInto needs separate buffers")
	case overlaps(dstB.data, a.data):
		return kindErrorf(kernels.ErrOverlap, "op: output 1 shares memory with input 0; EvaluateInto needs separate buffers")
	case overlaps(dstB.data, b.data):
		return kindErrorf(kernels.ErrOverlap, "op: output 1 shares memory with input 1; EvaluateInto needs separate buffers")
	case overlaps(dstA.data, dstB.data):
		return kindErrorf(kernels.ErrOverlap, "op: outputs 0 and 1 share memory; EvaluateInto needs separate buffers")
	}
	// A pair the memo leaves out, such as one promoted to u64_integer_promotion_target.
	return convertInto(&dstA, &dstB, &a, &b, t)
}

// count is Len for a valid tensor: its constructor checked that the product fits in an int64
// (and the buffer in an int), so no overflow check is needed.
func (x Tensor) count() int {
	n := 1
	for _, d := range x.shape {
		n *= int(d)
	}
	return n
}

// lookupCommon returns the common type of inputs of types ta and tb plus one, from the memo of
// common types, or 0 when the memo leaves the pair to CommonType.
func lookupCommon(c ConvertPromoteTypes, ta, tb element.Type, scalarA, scalarB bool) element.Type {
	if ta >= memoTypes || tb >= memoTypes {
		return 0
	}
	e := &commonMemo[memoIndex(c.PromoteUnsafe, c.PyTorchScalarPromotion, ta, tb, scalarA, scalarB)]
	v := e.Load()
	if v == 0 {
		v = memoEntry(c.PromoteUnsafe, c.PyTorchScalarPromotion, ta, tb, scalarA, scalarB)
		e.Store(v)
	}
	return element.Type(v - 1)
}

// rankOnly returns a static shape of the given rank, [] or [1] for the promotion rules, which
// read only whether an input is a scalar (rank 0); it needs no allocation.
func rankOnly(rank int) promote.Shape {
	if rank == 0 {
		return promote.Shape{}
	}
	return promote.Shape{Dims: oneDim[:]}
}

var oneDim = [1]promote.Dim{promote.StaticDim(1)}

// memoTypes bounds the element types the memo covers (every type of package element).
const memoTypes = 32

// commonMemo holds, for each promote_unsafe and pytorch_scalar_promotion setting, each pair of
// input types and whether each input is a scalar (see memoIndex), 0 until the case is first
// met, then the common type plus two, or 1 for what EvaluateInto leaves to its checked path: a
// pair that fails to promote, a common type that an input cannot be converted to (dynamic or
// string) and a result that follows u64_integer_promotion_target. Each entry is filled from
// CommonType on first use; goroutines that meet a case together compute the same value.
var commonMemo [4 * memoTypes * memoTypes * 4]atomic.Uint32

// memoIndex is the position of a case in commonMemo.
func memoIndex(unsafe, pytorch bool, ta, tb element.Type, scalarA, scalarB bool) int {
	i := b2i(unsafe) | b2i(pytorch)<<1 | int(ta)<<2 | int(tb)<<7 | b2i(scalarA)<<12 | b2i(scalarB)<<13
	return i & (len(commonMemo) - 1)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// memoEntry computes a memo entry from CommonType.
func memoEntry(unsafe, pytorch bool, ta, tb element.Type, scalarA, scalarB bool) uint32 {
	ra, rb := 1-b2i(scalarA), 1-b2i(scalarB)
	// Two u64 targets: a result that follows the target is left to CommonType.
	var got [2]uint32
	for k, target := range []element.Type{element.F32, element.I64} {
		c := ConvertPromoteTypes{PromoteUnsafe: unsafe, PyTorchScalarPromotion: pytorch, U64IntegerPromotionTarget: target}
		t, err := c.CommonType(Port{Type: ta, Shape: rankOnly(ra)}, Port{Type: tb, Shape: rankOnly(rb)})
		if err == nil && kernels.Supported(ta, t) && kernels.Supported(tb, t) {
			got[k] = uint32(t) + 2
		}
	}
	if got[0] == 0 || got[0] != got[1] {
		return 1
	}
	return got[0]
}

// checkDst reports whether output i, dst, can hold input x converted to type t.
func checkDst(i int, dst, x Tensor, t element.Type) error {
	if dst.typ != t {
		return fmt.Errorf("op: output %d has type %s; the common type of the inputs is %s", i, dst.typ, t)
	}
	if !slices.Equal(dst.shape, x.shape) {
		if dst.count() < x.count() {
			return kindErrorf(kernels.ErrShortBuffer, "op: output %d has shape %v, %d elements; input %d has shape %v, %d elements",
				i, dst.shape, dst.count(), i, x.shape, x.count())
		}
		return fmt.Errorf("op: output %d has shape %v; input %d has shape %v", i, dst.shape, i, x.shape)
	}
	return nil
}

// kindError is an error with its own message that errors.Is matches against kind, one of
// package kernels' error kinds.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

// kindErrorf formats a message and marks it as an error of the given kind.
func kindErrorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// overlaps reports whether two buffers share memory (empty buffers share none).
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}
