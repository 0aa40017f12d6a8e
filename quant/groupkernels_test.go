package quant

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// groupPaths returns the paths the tests run a call on: the pure-Go path and every SIMD path of
// this CPU.
func groupPaths() []kernels.Path {
	return append([]kernels.Path{kernels.Generic}, kernels.Paths()...)
}

// groupRows returns the registry's group rows.
func groupRows() []*row {
	var rs []*row
	for i := range registry {
		if registry[i].grouped {
			rs = append(rs, &registry[i])
		}
	}
	return rs
}

// specialScales are f16 scales every group test includes: zeros, ones, the extremes, the
// smallest subnormal, infinities and NaNs of both signs (a signalling one too).
var specialScales = []uint16{0x0000, 0x8000, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x0001, 0x8001, 0x03FF, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFD55, 0x2E66, 0x5640}

// specialF32Scales are f32 scales the tests of f32-scaled groups include: zeros, ones, the
// smallest and largest subnormals (whose products are subnormal or zero), scales that make
// products subnormal or overflow, the largest finite values, infinities and NaNs of both signs
// (signalling ones too), and a typical FP8 block scale.
var specialF32Scales = []uint32{0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000,
	0x0B000000, 0x0C8A3D71, 0x7E800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFA55555, 0x3B124925}

// fillGroup fills q's codes, scales and zero points of s for n elements with random values,
// drawing a third of the scales from specialScales (f16) or from the whole type.
func fillGroup(r *rand.Rand, q Data, s Scheme, n int) {
	for i := range q.Codes {
		q.Codes[i] = byte(r.Uint32())
	}
	for g := range s.Groups(n) {
		switch s.Scale {
		case element.F32:
			v := r.Uint32()
			switch r.IntN(4) {
			case 0:
				v = specialF32Scales[r.IntN(len(specialF32Scales))]
			case 1:
				v = v&0x80FFFFFF | 0x3B000000 // around 2^-9
			}
			binary.LittleEndian.PutUint32(q.Scales[4*g:], v)
		case element.F16:
			v := uint16(r.Uint32())
			if r.IntN(3) == 0 {
				v = specialScales[r.IntN(len(specialScales))]
			}
			q.Scales[2*g], q.Scales[2*g+1] = byte(v), byte(v>>8)
		default:
			q.Scales[g] = byte(r.Uint32())
		}
	}
	for i := range q.Zeros {
		q.Zeros[i] = byte(r.Uint32())
	}
}

// guarded returns a buffer of n bytes at an offset of off bytes inside a larger one filled with
// the guard byte 0xA5, and the larger buffer.
func guarded(n, off int) (b, all []byte) {
	all = bytes.Repeat([]byte{0xA5}, n+off+67)
	return all[off : off+n], all
}

// checkGuards reports the first guard byte of all outside b[off:off+n] that changed.
func checkGuards(t *testing.T, what string, all []byte, off, n int) {
	t.Helper()
	for i, c := range all {
		if (i < off || i >= off+n) && c != 0xA5 {
			t.Fatalf("%s: guard byte %d of the destination changed (%#x)", what, i-off, c)
		}
	}
}

// TestGroupKernels runs every group row's family on every path of this CPU and compares each
// with the pure-Go loop bit for bit: groups of every multiple of groupStep up to 5 and a few
// larger ones (and groups that are no multiple, which every path runs in pure Go), lengths
// around each group boundary of the first four groups, odd offsets of every buffer, and guard
// bytes around the destination; and each call again with the non-temporal stores, into a
// destination aligned to 64 bytes.
func TestGroupKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	streamBytes := groupStreamBytes
	defer func() { groupStreamBytes = streamBytes }()
	for _, row := range groupRows() {
		for _, p := range groupPaths() {
			if row.paths.has(p) && ownPaths.has(p) {
				if e := lookup(row.scheme.withGroup(128), row.typ, true); e == nil || e.group[p] == nil {
					t.Fatalf("%s: no kernel bound on %s", row, p)
				}
			}
		}
		for _, group := range []int{32, 64, 96, 128, 160, 256, 4096, 48, 130} {
			s := row.scheme.withGroup(group)
			var ns []int
			for k := range 5 {
				for _, d := range []int{-3, -1, 0, 1, 2, group / 2} {
					if n := k*group + d; n >= 0 {
						ns = append(ns, n)
					}
				}
			}
			if group >= 1024 {
				ns = []int{0, group - 1, group, group + 31, 2*group + 1, 3 * group}
			}
			for _, n := range ns {
				off := r.IntN(4)
				codes, _ := guarded(s.CodeBytes(n), r.IntN(4))
				scales, _ := guarded(s.ScaleBytes(n), r.IntN(4))
				zeros, _ := guarded(s.ZeroBytes(n), r.IntN(4))
				q := Data{Codes: codes, Scales: scales}
				if s.Zero != element.Dynamic {
					q.Zeros = zeros
				}
				fillGroup(r, q, s, n)
				db := n * row.typ.Bits() / 8
				want := make([]byte, db)
				decodeGroups(want, row.typ, q, s, n)
				for _, p := range groupPaths() {
					for _, stream := range []bool{false, true} {
						what := fmt.Sprintf("%s → %s on %s, %d elements (offset %d)", s, row.typ, p, n, off)
						dst, all := guarded(db, off)
						o := off
						if stream {
							// Non-temporal stores: from any size, into a destination aligned to 64.
							what += ", streaming"
							groupStreamBytes = 0
							dst, all = guarded(db, 64)
							o = 64 - int(uintptr(unsafe.Pointer(&all[0]))%64)
							dst = all[o : o+db]
						}
						if err := (Codec{Path: p}).Dequantize(dst, row.typ, q, s, n); err != nil {
							t.Fatalf("%s: %v", what, err)
						}
						groupStreamBytes = streamBytes
						checkGuards(t, what, all, o, db)
						if !bytes.Equal(dst, want) {
							t.Fatalf("%s: %s", what, firstDiff(dst, want, row.typ))
						}
					}
				}
			}
		}
	}
}

// firstDiff describes the first element where got and want differ.
func firstDiff(got, want []byte, typ element.Type) string {
	w := typ.Bits() / 8
	for i := 0; i+w <= len(got); i += w {
		if !bytes.Equal(got[i:i+w], want[i:i+w]) {
			return fmt.Sprintf("element %d: % x, want % x", i/w, got[i:i+w], want[i:i+w])
		}
	}
	return "equal"
}

// TestGroupKernelsExhaustive runs, on every path of this CPU, each group row's family over every
// scale (all 65536 f16 scales, all 256 f8e8m0 ones), each group holding every code (4-bit codes:
// each code twice in a group of 32; 8-bit codes: every code in a group of 256) and its own zero
// point (every value of the zero-point type in turn), against the pure-Go loop bit for bit.
func TestGroupKernelsExhaustive(t *testing.T) {
	for _, row := range groupRows() {
		s := row.scheme.withGroup(32)
		if s.Code.Bits() == 8 {
			s.Group = 256
			if testing.Short() {
				continue
			}
		}
		scales := 1 << 16
		switch s.Scale {
		case element.F8E8M0:
			scales = 256
		case element.F32:
			// Every special scale, and every power of two from 2^-149 to 2^127 with and
			// without low mantissa bits, both signs: products subnormal, exact, overflowing.
			scales = len(specialF32Scales) + 4*254
		}
		n := scales * s.Group
		q := s.Alloc(n)
		for i := range n {
			c := byte(i % s.Group % (1 << s.Code.Bits()))
			if s.Code.Bits() == 4 {
				q.Codes[i/2] |= c << (4 * (i % 2))
			} else {
				q.Codes[i] = c
			}
		}
		for g := range scales {
			switch {
			case s.Scale == element.F32 && g < len(specialF32Scales):
				binary.LittleEndian.PutUint32(q.Scales[4*g:], specialF32Scales[g])
			case s.Scale == element.F32:
				k := g - len(specialF32Scales)
				e := uint32(k/4 + 1)
				if e == 1 {
					e = 0 // subnormal
				}
				binary.LittleEndian.PutUint32(q.Scales[4*g:], uint32(k%2)<<31|e<<23|uint32(k/2%2)*0x5A5A5|uint32(k/4%2))
			case s.Scale == element.F16:
				q.Scales[2*g], q.Scales[2*g+1] = byte(g), byte(g>>8)
			default:
				q.Scales[g] = byte(g)
			}
			switch s.Zero {
			case element.U8:
				q.Zeros[g] = byte(g * 37)
			case element.U4:
				q.Zeros[g/2] |= byte(g*7%16) << (4 * (g % 2))
			}
		}
		want := make([]byte, n*row.typ.Bits()/8)
		decodeGroups(want, row.typ, q, s, n)
		for _, p := range groupPaths() {
			dst := make([]byte, len(want))
			if err := (Codec{Path: p}).Dequantize(dst, row.typ, q, s, n); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dst, want) {
				t.Errorf("%s → %s on %s: %s", s, row.typ, p, firstDiff(dst, want, row.typ))
			}
		}
	}
}
