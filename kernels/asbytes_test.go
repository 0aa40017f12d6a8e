package kernels_test

import (
	"bytes"
	"testing"

	"github.com/convertpromote/convertpromote/kernels"
)

// TestAsBytesAliases: AsBytes is a view, not a copy, in little-endian order.
func TestAsBytesAliases(t *testing.T) {
	v := []uint32{0x04030201, 0x08070605}
	b := kernels.AsBytes(v)
	if !bytes.Equal(b, []byte{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Fatalf("AsBytes = % x", b)
	}
	b[0] = 0xFF
	if v[0] != 0x040302FF {
		t.Errorf("write through AsBytes not seen: %#x", v[0])
	}
	v[1] = 0
	if b[7] != 0 {
		t.Error("write to the slice not seen through AsBytes")
	}
	if kernels.AsBytes([]complex128{}) != nil || len(kernels.AsBytes([]complex128{1})) != 16 {
		t.Error("AsBytes sizes")
	}
}
