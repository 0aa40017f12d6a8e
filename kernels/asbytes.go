package kernels

import (
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
)

// Fixed is the set of Go element types whose memory layout matches an element type of package
// element: the fixed-size numbers (float16.Float16 from github.com/x448/float16 and other named
// 16-bit types included, through ~uint16), complex numbers (real part then imaginary part) and
// bool (one byte, 0 or 1, as boolean). int, uint and uintptr are left out: their size depends on
// the platform.
type Fixed interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128 | ~bool
}

// AsBytes returns the memory of s as bytes, without a copy: len(s) times the element's size
// bytes in the machine's (little-endian) byte order, the buffer layout Convert reads and writes.
// The result aliases s: writes through either are seen by the other, and it stays valid as long
// as s's array does. An empty s gives nil. Writing bytes other than 0 and 1 into the memory of a
// []bool is undefined behaviour in Go; Convert only writes 0 and 1 to a boolean destination.
func AsBytes[T Fixed](s []T) []byte { return bytesOf(s) }

// bytesOf views a slice's memory as bytes.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

// convertSlices is a typed helper's Convert on slices of one element each.
func convertSlices[D, S any](dst []D, to element.Type, src []S, from element.Type) error {
	if len(dst) != len(src) {
		return errorf(ErrLengthMismatch, "kernels: %s → %s: destination has %d elements, source %d", from, to, len(dst), len(src))
	}
	return Convert(bytesOf(dst), to, bytesOf(src), from, len(src))
}

// convertPacked is convertSlices for a packed 4-bit source: the count is len(dst), and src must
// hold exactly the bytes that count needs.
func convertPacked[D, S any](dst []D, to element.Type, src []S, from element.Type) error {
	if need := (len(dst) + 1) / 2; len(src) != need {
		return errorf(ErrLengthMismatch, "kernels: %s → %s: destination has %d elements, which need %d source bytes, source has %d", from, to, len(dst), need, len(src))
	}
	return Convert(bytesOf(dst), to, bytesOf(src), from, len(dst))
}
