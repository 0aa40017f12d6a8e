package op_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
)

// FuzzEvaluate builds two tensors of any types and small shapes from the input and evaluates the
// operator under attributes taken from the input. Nothing may panic; a result has the inferred
// type and the input's shape and bytes equal to kernels.Convert's; an input of whole-byte
// elements already of the common type comes out unchanged.
func FuzzEvaluate(f *testing.F) {
	f.Add(uint8(element.F16), uint8(element.F32), uint8(3), uint8(0), uint8(0), []byte{0x00, 0x3c, 0xff, 0x7c})
	f.Add(uint8(element.U64), uint8(element.I8), uint8(2), uint8(1), uint8(1), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint8(element.I4), uint8(element.U1), uint8(9), uint8(0), uint8(2), []byte{0xbf, 0x12, 0x80})
	f.Fuzz(func(t *testing.T, ta, tb, na, rb, attrs uint8, seed []byte) {
		typeA, typeB := element.Type(ta%40), element.Type(tb%40)
		shapeA := []int64{int64(na % 20)}
		shapeB := []int64{}
		if rb%2 == 1 {
			shapeB = []int64{int64(rb % 7)}
		}
		targets := []element.Type{element.F32, element.I64, element.U64, element.F16, element.String, element.Dynamic}
		c := op.ConvertPromoteTypes{
			PromoteUnsafe:             attrs&1 != 0,
			PyTorchScalarPromotion:    attrs&2 != 0,
			U64IntegerPromotionTarget: targets[int(attrs>>2)%len(targets)],
		}
		a, errA := tensorFrom(typeA, shapeA, seed)
		b, errB := tensorFrom(typeB, shapeB, seed)
		if errA != nil || errB != nil {
			return
		}
		oa, ob, err := c.Evaluate(a, b)
		if err != nil {
			return
		}
		common, err := c.CommonType(op.Port{Type: typeA, Shape: a.PartialShape()}, op.Port{Type: typeB, Shape: b.PartialShape()})
		if err != nil || oa.Type() != common || ob.Type() != common {
			t.Fatalf("%s, %s: results %s, %s; CommonType %s, %v", typeA, typeB, oa.Type(), ob.Type(), common, err)
		}
		for i, pair := range [][2]op.Tensor{{a, oa}, {b, ob}} {
			in, out := pair[0], pair[1]
			if !slices.Equal(in.Shape(), out.Shape()) {
				t.Fatalf("input %d: shape %v became %v", i, in.Shape(), out.Shape())
			}
			want := make([]byte, len(out.Bytes()))
			if err := kernels.Convert(want, common, in.Bytes(), in.Type(), in.Len()); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, out.Bytes()) {
				t.Fatalf("input %d (%s → %s): %x, kernels.Convert gives %x", i, in.Type(), common, out.Bytes(), want)
			}
			// (Packed types: Convert writes the unused bits of the last byte as zero, whatever
			// the input had there.)
			if in.Type() == common && common.Bits()%8 == 0 && !bytes.Equal(in.Bytes(), out.Bytes()) {
				t.Fatalf("input %d already %s changed", i, common)
			}
		}
	})
}

// tensorFrom fills a tensor of type t and the given shape with bytes repeated from seed.
func tensorFrom(t element.Type, shape []int64, seed []byte) (op.Tensor, error) {
	x, err := op.NewTensor(t, shape)
	if err != nil || len(seed) == 0 {
		return x, err
	}
	data := make([]byte, len(x.Bytes()))
	for i := range data {
		data[i] = seed[i%len(seed)]
	}
	return op.FromBytes(t, shape, data)
}
