// Package membound measures what the memory system allows a conversion, without the conversion:
// loops that read and write bytes in a conversion's ratio (2:1 for f32 → f16, 1:2 for f16 → f32,
// 1:4 for i8 → f32) and do nothing else, with the non-temporal stores that the kernels use for
// large buffers. A kernel that runs at the speed of Move in its ratio is bound by memory, not by
// its instructions; Move's speed over copy()'s, for the same traffic, is the most that any
// kernel of that ratio can reach against copy() on the machine. MoveCached does the same with
// ordinary stores for buffers that stay in the caches, in the ratio of the block-scaled
// decoders.
//
// Move needs AVX2 on amd64 (Available reports it); elsewhere, and with the purego build tag, it
// returns an error.
package membound

import (
	"errors"
	"fmt"
	"unsafe"
)

// Block is the granule of Move: the source length must be a multiple of it.
const Block = 128

// Move reads all of src and writes all of dst, whose lengths set the ratio, with non-temporal
// 32-byte stores (src is read by ordinary loads). For each 32-byte chunk j of the stored data:
//   - len(dst) = len(src)/2: dst chunk j = src chunk 2j XOR src chunk 2j+1;
//   - len(dst) = len(src): dst = src (a copy);
//   - len(dst) = k·len(src), k = 2 or 4: dst chunks kj .. kj+k-1 each = src chunk j.
//
// len(src) must be a multiple of Block and dst must start on a 32-byte boundary (see Aligned).
// Move returns an error, and writes nothing, for any other lengths or alignment and where
// Available is false.
func Move(dst, src []byte) error {
	if err := check(dst, src); err != nil || len(src) == 0 {
		return err
	}
	switch len(dst) {
	case len(src) / 2:
		move21(dst, src)
	case len(src):
		move11(dst, src)
	case 2 * len(src):
		move12(dst, src)
	case 4 * len(src):
		move14(dst, src)
	default:
		return fmt.Errorf("membound: %d destination bytes for %d source bytes: the ratio is not 2:1, 1:1, 1:2 or 1:4", len(dst), len(src))
	}
	return nil
}

// MoveCached is Move with ordinary stores, for buffers that stay in the caches, in the ratio
// 1:4 only: len(dst) = 4·len(src), each 32-byte source chunk stored four times. The ratio is
// that of decoding 4-bit codes to 16-bit values (MXFP4 or NVFP4 to bf16 writes 3.76 bytes for
// each byte of codes and scales it reads). It returns an error, and writes nothing, where Move
// would, and for any other ratio.
func MoveCached(dst, src []byte) error {
	if err := check(dst, src); err != nil || len(src) == 0 {
		return err
	}
	if len(dst) != 4*len(src) {
		return fmt.Errorf("membound: %d destination bytes for %d source bytes: MoveCached takes the ratio 1:4 only", len(dst), len(src))
	}
	move14c(dst, src)
	return nil
}

// check returns Move's errors for the CPU, the source length and the alignment.
func check(dst, src []byte) error {
	if !Available() {
		return errors.New("membound: Move needs AVX2 on amd64 (and no purego tag)")
	}
	if len(src)%Block != 0 {
		return fmt.Errorf("membound: source of %d bytes, not a multiple of %d", len(src), Block)
	}
	if len(src) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(dst)))%32 != 0 {
		return errors.New("membound: destination not 32-byte aligned")
	}
	return nil
}

// Aligned returns n zero bytes that start on a 64-byte boundary.
func Aligned(n int) []byte {
	b := make([]byte, n+63)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 63)
	return b[off : off+n : off+n]
}
