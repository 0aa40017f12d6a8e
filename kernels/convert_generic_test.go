package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// convertibleTypes are the types Convert accepts: every static type except string.
func convertibleTypes() []element.Type {
	var ts []element.Type
	for _, t := range element.All() {
		if t != element.Dynamic && t != element.String {
			ts = append(ts, t)
		}
	}
	return ts
}

// bitPos returns where bit j (0 = least significant) of element i of packed type t lives, from
// the layouts of docs/SEMANTICS.md §1.5.
func bitPos(t element.Type, i, j int) (byteIdx, bit int) {
	word := func(g, wbit int) (int, int) { // bit wbit of b0<<8|b1 of group g
		if wbit >= 8 {
			return 3 * g, wbit - 8
		}
		return 3*g + 1, wbit
	}
	switch t {
	case element.U1:
		return i / 8, 7 - i%8
	case element.U2:
		return i / 4, 6 - 2*(i%4) + j
	case element.U4, element.I4, element.NF4, element.F4E2M1:
		return i / 2, 4*(i%2) + j
	case element.U3:
		g, k := i/8, i%8
		if j < 2 {
			return word(g, 14-2*k+j)
		}
		return 3*g + 2, 7 - k
	case element.U6:
		g, k := i/4, i%4
		if j < 4 {
			return word(g, 12-4*k+j)
		}
		return 3*g + 2, 6 - 2*k + (j - 4)
	}
	panic("bitPos " + t.String())
}

// refPack writes element codes into a buffer (re, im per element; im only for complex types).
func refPack(t element.Type, vals [][2]uint64) []byte {
	n := len(vals)
	size, err := t.ByteSize(int64(n))
	if err != nil {
		panic(err)
	}
	buf := make([]byte, size)
	if t.IsPacked() {
		for i, v := range vals {
			for j := range t.Bits() {
				if v[0]>>uint(j)&1 != 0 {
					bi, bit := bitPos(t, i, j)
					buf[bi] |= 1 << uint(bit)
				}
			}
		}
		return buf
	}
	w := t.Bits() / 8
	if t.IsComplex() {
		w /= 2
	}
	for i, v := range vals {
		put(buf[i*w*partCount(t):], w, v[0])
		if t.IsComplex() {
			put(buf[i*2*w+w:], w, v[1])
		}
	}
	return buf
}

func partCount(t element.Type) int {
	if t.IsComplex() {
		return 2
	}
	return 1
}

func put(b []byte, w int, v uint64) {
	for k := range w {
		b[k] = byte(v >> (8 * uint(k)))
	}
}

func get(b []byte, w int) uint64 {
	var v uint64
	for k := range w {
		v |= uint64(b[k]) << (8 * uint(k))
	}
	return v
}

// refUnpack reads n elements, and reports a bit set outside every element of a packed buffer.
func refUnpack(t element.Type, buf []byte, n int) (vals [][2]uint64, strayBits bool) {
	vals = make([][2]uint64, n)
	if t.IsPacked() {
		used := make([]byte, len(buf))
		for i := range n {
			for j := range t.Bits() {
				bi, bit := bitPos(t, i, j)
				used[bi] |= 1 << uint(bit)
				if buf[bi]>>uint(bit)&1 != 0 {
					vals[i][0] |= 1 << uint(j)
				}
			}
		}
		for k := range buf {
			if buf[k]&^used[k] != 0 {
				strayBits = true
			}
		}
		return vals, strayBits
	}
	w := t.Bits() / 8 / partCount(t)
	for i := range vals {
		vals[i][0] = get(buf[i*w*partCount(t):], w)
		if t.IsComplex() {
			vals[i][1] = get(buf[i*2*w+w:], w)
		}
	}
	return vals, false
}

// sourceVector returns the test elements of type t: every code of a type of 8 bits or less,
// and for wider types 0, -0, ±1, min, max, subnormals, ±Inf, NaNs (quiet, signalling, with
// payloads and signs), values at the rounding and saturation edges of the other types, and
// random patterns.
func sourceVector(t element.Type, r *rand.Rand) [][2]uint64 {
	var out [][2]uint64
	add := func(v uint64) { out = append(out, [2]uint64{v, 0}) }
	switch {
	case t.Bits() <= 8:
		for c := range 1 << t.Bits() {
			add(uint64(c))
		}
		return out
	case t.IsComplex():
		p := refPartType(t)
		parts := sourceVector(p, r)
		for i, v := range parts {
			out = append(out, [2]uint64{v[0], parts[(i*7+3)%len(parts)][0]})
		}
		return out
	}
	bits := t.Bits()
	mask := uint64(1)<<uint(bits) - 1
	if bits == 64 {
		mask = math.MaxUint64
	}
	switch t {
	case element.F16:
		for _, c := range []uint64{0, 0x8000, 0x3C00, 0xBC00, 0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF,
			0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFD55, 0x7FFF, 0x5F40, 0x5F41, 0x5F3F, 0x7B80, 0x7B7F,
			0x3555, 0x4B00, 0xCB00, 0x4170, 0xC238, 0x6400} {
			add(c)
		}
	case element.BF16:
		for _, c := range []uint64{0, 0x8000, 0x3F80, 0xBF80, 0x0001, 0x8001, 0x007F, 0x0080, 0x7F7F, 0xFF7F,
			0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0x7FA5, 0x477F, 0x4780, 0x43E8, 0x43E9, 0x3F85, 0x4F00, 0xCF00,
			0x5F00, 0xDF00, 0x4070, 0xC046} {
			add(c)
		}
	case element.F32:
		for _, c := range []uint32{0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
			0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FA5A5A5, 0x7FFFFFFF, 0x3F84C000} {
			add(uint64(c))
		}
		for _, x := range []float64{0, 1, -1, 0.5, -0.5, 3.8, -3.1, 4, 300, -1e9, 464, 465, 448, 65504, 65519,
			65520, 57344, 61440, 0.21875, 2.5, 5, 1.5, 3, 6, 127.9, 128, -128.9, -129, 255.9, 256, 32767.9, 32768,
			-32769, 65535.9, 65536, 0x1p31, -0x1p31, 2147483520, 0x1p32, -0x1p32, 0x1p63, -0x1p63, 0x1p64, 1e30,
			-1e30, 1e-30, 0x1p-14, 0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-126, 0x1p-127, 0x1.8p-127, 0x1p127, 0.0795803} {
			add(uint64(math.Float32bits(float32(x))))
		}
	case element.F64:
		for _, c := range []uint64{0x8000000000000000, 1, 0x800FFFFFFFFFFFFF, 0x0010000000000000,
			0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
			0xFFF8000000000000, 0x7FF0000000000001, 0x7FF4000000000000, 0x7FFA5A5A5A5A5A5A, 0xFFFFFFFFFFFFFFFF} {
			add(c)
		}
		for _, x := range []float64{0, 1, -1, 0.1, -0.1, 1 + 0x1p-30, 3.8, -3.1, 4, 300, -1e9, 464, 464.00001,
			465, 65504, 65519.999, 65520, 0.21875, 2.5, 0x1p31, -0x1p31, 0x1p31 - 1, 0x1p31 - 0.5, -0x1p31 - 1,
			0x1p32 - 1, 0x1p63, -0x1p63, 0x1p63 - 1024, 0x1p64, 0x1p64 - 2048, 0x1p53 + 2, 1e300, -1e300, 1e-300,
			0x1p-149, 0x1p-150, 0x1.8p-150, 0x1.FFFFFFp127, 0x1.FFFFFFFp127, 255.5, -128.5, 0.0795803,
			1 + 0x1p-11 + 0x1p-40, 464 + 0x1p-30, 0.25 + 0x1p-40} { // double rounding through f32
			add(math.Float64bits(x))
		}
	default: // 16- to 64-bit integers
		for _, x := range []int64{0, 1, -1, 2, -2, 127, 128, -128, -129, 255, 256, 300, -300, 32767, 32768,
			-32768, -32769, 65504, 65505, 65519, 65520, 65535, 65536, -65504, -65505, -65520, -65521, 1 << 24,
			1<<24 + 1, 1<<24 + 3, 1<<31 - 1, -1 << 31, 1<<31 - 64, 1<<31 - 65, 1 << 32, 1<<53 + 1,
			math.MaxInt64, math.MinInt64, 1<<62 + 1<<38 + 1, 1<<24 + 1<<16 + 1, 1<<27 + 1<<16 + 1} { // through f32
			add(uint64(x) & mask)
		}
	}
	for range 64 {
		add(r.Uint64() & mask)
	}
	return out
}

func vecKey(v [2]uint64) string { return fmt.Sprintf("%#x/%#x", v[0], v[1]) }

// TestAllPairs converts every pair of convertible types on a vector of the source type and
// checks each element, and the unused bits of packed buffers, against the reference model. Its
// subtests are pair/generic.
func TestAllPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ts := convertibleTypes()
	pairs := 0
	for _, from := range ts {
		vec := sourceVector(from, r) // read-only in the subtests
		src := refPack(from, vec)
		for _, to := range ts {
			pairs++
			t.Run(pairName(from, to), func(t *testing.T) {
				t.Parallel()
				t.Run(Generic.String(), func(t *testing.T) {
					n := len(vec)
					size, _ := to.ByteSize(int64(n))
					dst := make([]byte, size+8)
					for k := range dst {
						dst[k] = 0xA5 // garbage the conversion must overwrite (and keep past the end)
					}
					if err := WithPath(Generic, 1).Convert(dst, to, src, from, n); err != nil {
						t.Fatalf("%s → %s: %v", from, to, err)
					}
					for k := size; k < size+8; k++ {
						if dst[k] != 0xA5 {
							t.Fatalf("%s → %s: byte %d past the destination written", from, to, k-size)
						}
					}
					got, stray := refUnpack(to, dst[:size], n)
					if stray {
						t.Errorf("%s → %s: unused bits of the packed destination are not zero", from, to)
					}
					bad := 0
					for i, v := range vec {
						wr, wi := refConvert(from, to, v[0], v[1])
						if got[i] != [2]uint64{wr, wi} {
							if bad++; bad <= 5 {
								t.Errorf("%s → %s: element %s gives %s, want %s", from, to, vecKey(v), vecKey(got[i]), vecKey([2]uint64{wr, wi}))
							}
						}
					}
				})
			})
		}
	}
	t.Logf("%d types, %d pairs", len(ts), pairs)
}
