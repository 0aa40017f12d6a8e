package nncfref

import (
	"math"
	"testing"
)

// TestDefaultRNG checks the port against what numpy 1.24 gives for default_rng(seed=0): the
// PCG64 state after seeding, the first raw outputs, the first random() and the first weight of
// IntegerModel (f32 0x3e8c3faf).
func TestDefaultRNG(t *testing.T) {
	p := DefaultRNG(0)
	if hi, lo, ih, il := p.State(); hi != 0x1aa1b5345996452d || lo != 0x09585eb7a69561e3 || ih != 0x418ddadb3af71a82 || il != 0x588133bc447873a9 {
		t.Fatalf("state after seeding %#x%016x inc %#x%016x", hi, lo, ih, il)
	}
	for i, want := range []uint64{0xa30febcfd9c2825f, 0x4510bdf882d9d721, 0xa7d3da94ecde8b8, 0x43b27b61342f01d} {
		if got := p.Uint64(); got != want {
			t.Errorf("output %d = %#x, want %#x", i, got, want)
		}
	}
	if got := DefaultRNG(0).Random(); got != 0.6369616873214543 {
		t.Errorf("random() = %v", got)
	}
	if got := math.Float32bits(IntegerModelWeights(3, 6)["gather_2_data"].V[0]); got != 0x3e8c3faf {
		t.Errorf("first weight bits %#x", got)
	}
}

func TestReference(t *testing.T) {
	r, err := Reference("../../quant/testdata/nncf", "int4_asym")
	if err != nil {
		t.Fatal(err)
	}
	cw := r["matmul_2_data"]["compressed_weight"]
	if len(cw.Shape) != 3 || cw.Shape[0] != 6 || cw.Shape[1] != 1 || cw.Shape[2] != 3 || len(cw.Values) != 18 {
		t.Errorf("matmul_2_data compressed_weight: shape %v, %d values", cw.Shape, len(cw.Values))
	}
	if _, err := Reference("../../quant/testdata/nncf", "int2"); err == nil {
		t.Error("a missing file read")
	}
}
