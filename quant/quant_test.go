package quant_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// schemes and valueTypes are the registry's (quant/registry.go): every scheme and value type
// that has a row, whether or not some path has a kernel for it.
var (
	schemes    = quant.RegistrySchemes()
	valueTypes = quant.RegistryTypes()
)

// simdPaths returns the non-generic paths of this CPU.
func simdPaths() []kernels.Path {
	var ps []kernels.Path
	for _, p := range kernels.Paths() {
		if p != kernels.Generic {
			ps = append(ps, p)
		}
	}
	return ps
}

// refOf returns the reference format of an element type of the tests.
func refOf(t element.Type) refFmt { return refFields[t.String()] }

// refScale decodes a scale code of f.
func refScale(f quant.Scheme, code uint8) refVal {
	if f.Scale == element.F8E8M0 {
		return refE8M0(code)
	}
	return refE4M3.decode(uint64(code))
}

// refDecodeBits is the reference's decoding of element code c under scale code s to type to, as
// bits: docs/SEMANTICS.md §9.2.
func refDecodeBits(f quant.Scheme, to element.Type, c, s uint8) uint64 {
	tf := refOf(to)
	sv := refScale(f, s)
	if sv.nan {
		return tf.encode(refVal{nan: true}) // the positive quiet NaN
	}
	ev := refOf(f.Code).decode(uint64(c))
	if ev.nan {
		if f.Code == element.F8E5M2 {
			// The f8e5m2 NaN's payload, quieted, moves into the top of the destination's
			// trailing significand.
			payload := uint64(c&3 | 2)
			sign := uint64(c>>7) << (tf.width() - 1)
			return sign | (1<<tf.ebits-1)<<(tf.p-1) | payload<<(tf.p-3)
		}
		return tf.encode(ev)
	}
	return tf.encode(tf.round(refMul(ev, sv), false))
}

// valueBits reads element i of a value buffer of type t as bits.
func valueBits(b []byte, t element.Type, i int) uint64 {
	if t == element.F32 {
		return uint64(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return uint64(binary.LittleEndian.Uint16(b[2*i:]))
}

// exhaustiveBlocks returns codes and scales that put every element code under every scale code:
// for each scale, as many blocks as every code needs.
// Under -short (the race detector and qemu runs) every 5th scale code is used, with 0x00, 0x7F,
// 0xFE and 0xFF always among them.
func exhaustiveBlocks(f quant.Scheme) (codes, scales []byte, n int, code func(i int) uint8) {
	ncodes := 1 << f.Code.Bits()
	per := max(f.Group, ncodes) // elements per scale value
	var scaleCodes []uint8
	for s := range 256 {
		if !testing.Short() || s%5 == 0 || s == 0x7F || s == 0xFE || s == 0xFF {
			scaleCodes = append(scaleCodes, uint8(s))
		}
	}
	n = len(scaleCodes) * per
	codes = make([]byte, f.CodeBytes(n))
	scales = make([]byte, f.Groups(n))
	// Under each scale every code once, rotated by the scale's position so that each code also
	// meets every lane of a block (the NaN codes 0x7F and 0xFF included).
	code = func(i int) uint8 { return uint8((i + i/per) % ncodes) }
	for i := range n {
		if f.Code.Bits() == 4 {
			codes[i/2] |= code(i) << (4 * (i & 1))
		} else {
			codes[i] = code(i)
		}
	}
	for b := range scales {
		scales[b] = scaleCodes[b*f.Group/per]
	}
	return codes, scales, n, code
}

// TestDequantizeExhaustive decodes every code under every scale code (all 256 f8e8m0 scales;
// all 256 f8e4m3 scales for NVFP4) to f32, f16 and bf16 on every path and checks each result
// against the exact reference. For f32 it also checks the claim that makes one rounding
// enough: every product within float32's range is exact in float32.
func TestDequantizeExhaustive(t *testing.T) {
	for _, f := range schemes {
		codes, scales, n, code := exhaustiveBlocks(f)
		q := quant.Data{Codes: codes, Scales: scales}
		for _, to := range valueTypes {
			want := make([]uint64, n)
			for i := range n {
				want[i] = refDecodeBits(f, to, code(i), scales[i/f.Group])
			}
			if to == element.F32 {
				for i := range n {
					sv := refScale(f, scales[i/f.Group])
					ev := refOf(f.Code).decode(uint64(code(i)))
					if sv.nan || ev.nan || ev.inf {
						continue
					}
					x := refMul(ev, sv)
					if x.r.Cmp(refF32.max) <= 0 && refF32.round(x, false).r.Cmp(x.r) != 0 {
						t.Fatalf("%s: code %#x × scale %#x = %s is not exact in float32", f, code(i), scales[i/f.Group], x.r.FloatString(60))
					}
				}
			}
			for _, p := range kernels.Paths() {
				t.Run(fmt.Sprintf("%s-%s/%s", f, to, p), func(t *testing.T) {
					dst := make([]byte, n*to.Bits()/8)
					if err := (quant.Codec{Path: p}).Dequantize(dst, to, q, f, n); err != nil {
						t.Fatal(err)
					}
					bad := 0
					for i := 0; i < n && bad < 8; i++ {
						if g := valueBits(dst, to, i); g != want[i] {
							t.Errorf("%s %s→%s: code %#x scale %#x: got %#x, want %#x", p, f, to, code(i), scales[i/f.Group], g, want[i])
							bad++
						}
					}
				})
			}
		}
	}
}

// refQuantize is the reference's encoding of one block of values (docs/SEMANTICS.md §9.3, the
// OCP MX v1.0 scale rule): it returns the scale code and the element codes.
func refQuantize(f quant.Scheme, vals []refVal) (uint8, []uint8) {
	ef := refOf(f.Code)
	codes := make([]uint8, len(vals))
	amax := new(big.Rat)
	nonfinite := false
	for _, v := range vals {
		switch {
		case v.nan, v.inf && f.Code != element.F8E5M2:
			nonfinite = true
		case !v.inf && v.r.Cmp(amax) > 0:
			amax = v.r
		}
	}
	if nonfinite {
		if f.Scale == element.F8E8M0 {
			return 0xFF, codes
		}
		return 0x7F, codes
	}
	var scale refVal
	var sc uint8
	if f.Scale == element.F8E8M0 {
		emax := map[element.Type]int{element.F4E2M1: 2, element.F8E4M3: 8, element.F8E5M2: 15}[f.Code]
		k := -127
		if amax.Sign() > 0 {
			k = min(max(floorLog2(amax)-emax, -127), 127)
		}
		scale, sc = refVal{r: ratPow2(k)}, uint8(k+127)
	} else {
		scale = refE4M3.round(refVal{r: new(big.Rat).Quo(amax, big.NewRat(6, 1))}, true)
		sc = uint8(refE4M3.encode(scale))
	}
	for i, v := range vals {
		q := refVal{neg: v.neg, inf: v.inf}
		switch {
		case v.inf:
		case scale.r.Sign() == 0:
			q.r = new(big.Rat)
		default:
			q.r = new(big.Rat).Quo(v.r, scale.r)
		}
		codes[i] = uint8(ef.encode(ef.round(q, true)))
	}
	return sc, codes
}

// refOfBits decodes value bits of type t for the reference.
func refOfBits(t element.Type, b uint64) refVal { return refOf(t).decode(b) }

// putBits stores bits as element i of a value buffer of type t.
func putBits(buf []byte, t element.Type, i int, b uint64) {
	if t == element.F32 {
		binary.LittleEndian.PutUint32(buf[4*i:], uint32(b))
	} else {
		binary.LittleEndian.PutUint16(buf[2*i:], uint16(b))
	}
}

// quantizeInputs returns blocks of values (bits of type t) that reach the rules' corners: random
// magnitudes over the whole range, values at and next to every rounding tie of every element
// code under a random scale, zeros of both signs, subnormals, the largest values, and blocks
// with a NaN or an infinity.
func quantizeInputs(f quant.Scheme, t element.Type, blocks int, r *rand.Rand) []uint64 {
	w := refOf(t).width()
	out := make([]uint64, 0, blocks*f.Group)
	mask := uint64(1)<<w - 1
	expShift := refOf(t).p - 1
	for b := range blocks {
		for j := range f.Group {
			var v uint64
			switch b % 8 {
			case 0, 1: // random bits: every exponent, NaN and Inf included now and then
				v = r.Uint64() & mask
				if b%8 == 1 {
					v = finiteBits(t, v) // keep this kind of block finite
				}
			case 2: // one binade's worth of spread around a random exponent
				e := uint64(r.IntN(1<<refOf(t).ebits-3) + 1)
				v = r.Uint64()&(1<<expShift-1) | (e+uint64(r.IntN(3)))<<expShift | uint64(r.IntN(2))<<(w-1)
			case 3: // zeros and subnormals
				v = uint64(r.IntN(4)) | uint64(r.IntN(2))<<(w-1)
				if j%5 == 0 {
					v = r.Uint64() & (1<<expShift - 1)
				}
			case 4: // the largest finite magnitudes
				v = mask>>1 - 1<<expShift - uint64(r.IntN(4)) | uint64(r.IntN(2))<<(w-1)
			default: // element midpoints and their neighbours times a power of two
				v = tieValue(f, t, r)
			}
			out = append(out, v&mask)
		}
	}
	return out
}

// finiteBits returns the bits v of type t with the top exponent bit cleared when the exponent
// is all ones, so that the value is finite.
func finiteBits(t element.Type, v uint64) uint64 {
	f := refOf(t)
	if e := uint64(1)<<f.ebits - 1; (v>>(f.p-1))&e == e {
		v &^= 1 << (f.width() - 2)
	}
	return v
}

// tieValue returns the bits (in t) of a value at or one ulp beside a rounding midpoint of the
// element type, scaled so that it lands on a tie under the block's scale.
func tieValue(f quant.Scheme, t element.Type, r *rand.Rand) uint64 {
	ef := refOf(f.Code)
	c := uint64(r.IntN(int(ef.encode(refVal{r: ef.max}))))
	a, b := ef.decode(c), ef.decode(c+1)
	mid := new(big.Rat).Add(a.r, b.r)
	mid.Mul(mid, big.NewRat(1, 2))
	mid.Mul(mid, ratPow2(r.IntN(9)-4))
	if f.Scale == element.F8E4M3 { // NVFP4: a typical scale of a few bits
		mid.Mul(mid, big.NewRat(int64(8+r.IntN(8)), 8))
	}
	tf := refOf(t)
	v := tf.round(refVal{neg: r.IntN(2) == 1, r: mid}, true)
	bits := tf.encode(v)
	return uint64(int64(bits) + int64(r.IntN(3)-1))
}

// TestQuantizeReference encodes groups of f32, f16 and bf16 values into every scheme on every
// path and checks scales and codes against the reference; the last group is partial.
func TestQuantizeReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 1))
	blocks := 400
	if testing.Short() {
		blocks = 80
	}
	for _, f := range schemes {
		for _, from := range valueTypes {
			vals := quantizeInputs(f, from, blocks, r)
			n := len(vals) - f.Group/2 // a partial last group
			src := make([]byte, len(vals)*from.Bits()/8)
			for i, v := range vals {
				putBits(src, from, i, v)
			}
			wantCodes := make([]uint8, 0, n)
			var wantScales []uint8
			for b := 0; b*f.Group < n; b++ {
				blk := make([]refVal, 0, f.Group)
				for i := b * f.Group; i < min(n, (b+1)*f.Group); i++ {
					blk = append(blk, refOfBits(from, vals[i]))
				}
				sc, cs := refQuantize(f, blk)
				wantScales = append(wantScales, sc)
				wantCodes = append(wantCodes, cs...)
			}
			for _, p := range kernels.Paths() {
				t.Run(fmt.Sprintf("%s-%s/%s", from, f, p), func(t *testing.T) {
					q := f.Alloc(n)
					codes, scales := q.Codes, q.Scales
					if err := (quant.Codec{Path: p}).Quantize(q, f, src, from, n); err != nil {
						t.Fatal(err)
					}
					bad := 0
					for b, s := range scales {
						if s != wantScales[b] && bad < 5 {
							t.Errorf("%s %s→%s group %d: scale %#x, want %#x", p, from, f, b, s, wantScales[b])
							bad++
						}
					}
					for i := 0; i < n && bad < 10; i++ {
						g := codes[i*f.Code.Bits()/8]
						if f.Code.Bits() == 4 {
							g = g >> (4 * (i & 1)) & 0xF
						}
						if g != wantCodes[i] {
							t.Errorf("%s %s→%s element %d (bits %#x, group scale %#x): code %#x, want %#x", p, from, f, i, vals[i], wantScales[i/f.Group], g, wantCodes[i])
							bad++
						}
					}
					if f.Code.Bits() == 4 && n%2 == 1 && codes[len(codes)-1]>>4 != 0 {
						t.Errorf("%s %s→%s: the unused high nibble of the last byte is %#x, want 0", p, from, f, codes[len(codes)-1]>>4)
					}
				})
			}
		}
	}
}

// TestRoundTrip checks that decoding a quantized tensor and quantizing the result again gives
// the same codes and scales (every decoded value is representable under its scale, and the
// group's largest magnitude keeps its binade), and that each decoded value is within half a
// code step (times the scale) of its input, or the largest value when it was clamped.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 2))
	for _, f := range schemes {
		t.Run(f.String(), func(t *testing.T) {
			n := 37 * f.Group
			src := make([]float32, n)
			for i := range src {
				src[i] = float32(r.NormFloat64() * math.Exp2(float64(r.IntN(40)-20)))
			}
			q := f.Alloc(n)
			if err := quant.QuantizeF32s(q, f, src); err != nil {
				t.Fatal(err)
			}
			dec := make([]float32, n)
			if err := quant.DequantizeF32s(dec, q, f); err != nil {
				t.Fatal(err)
			}
			q2 := f.Alloc(n)
			if err := quant.QuantizeF32s(q2, f, dec); err != nil {
				t.Fatal(err)
			}
			if f.Scale == element.F8E8M0 && (!bytes.Equal(q.Codes, q2.Codes) || !bytes.Equal(q.Scales, q2.Scales)) {
				t.Errorf("%s: quantizing the decoded values changed the codes or scales", f)
			}
			for i, x := range src {
				s := float64(refToFloat(refScale(f, q.Scales[i/f.Group])))
				ef := refOf(f.Code)
				maxv, _ := ef.max.Float64()
				step := math.Exp2(math.Max(math.Floor(math.Log2(math.Abs(float64(x))/s)), float64(ef.emin)) - float64(ef.p-1))
				diff := math.Abs(float64(dec[i]) - float64(x))
				if diff > step/2*s*(1+1e-12) && math.Abs(float64(dec[i])) != maxv*s {
					t.Errorf("%s element %d: %g decodes back as %g (scale %g)", f, i, x, dec[i], s)
					break
				}
			}
		})
	}
}

func refToFloat(v refVal) float64 {
	if v.nan {
		return math.NaN()
	}
	x, _ := v.r.Float64()
	return x
}

// TestPathsAgree runs every SIMD path against the pure-Go path on lengths of 0 to 16 groups
// and a partial group, at odd offsets into the buffers, with guard bytes around the
// destination that must stay untouched: decoding random codes under every scale code, and
// encoding random values.
func TestPathsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 3))
	const guard = 0xA5
	// lengths calls f with each length, its buffers' offset and its count of whole groups.
	lengths := func(f quant.Scheme, do func(n, off, nb int)) {
		for nb := 0; nb <= 16; nb++ {
			for _, extra := range []int{0, f.Group / 2, 1} {
				if f.Code.Bits() == 4 && extra == 1 && nb == 0 {
					continue
				}
				do(nb*f.Group+extra, 1+nb%3, nb)
			}
		}
	}
	for _, p := range simdPaths() {
		for _, f := range schemes {
			for _, to := range valueTypes {
				t.Run(fmt.Sprintf("%s-%s/%s", f, to, p), func(t *testing.T) {
					lengths(f, func(n, off, _ int) {
						codes := make([]byte, off+f.CodeBytes(n))
						scales := make([]byte, off+f.Groups(n))
						for i := range codes {
							codes[i] = uint8(r.Uint32())
						}
						for i := range scales {
							scales[i] = uint8(r.Uint32())
						}
						// Every scale code in turn for the whole tensor, and random scales.
						for s := -1; s < 256; s++ {
							if testing.Short() && s >= 0 && s%23 != 0 {
								continue
							}
							if s >= 0 {
								for i := range scales[off:] {
									scales[off+i] = uint8(s + i)
								}
							}
							want := decodeGuarded(t, kernels.Generic, f, to, codes[off:], scales[off:], n, off, guard)
							got := decodeGuarded(t, p, f, to, codes[off:], scales[off:], n, off, guard)
							if !bytes.Equal(got, want) {
								t.Fatalf("%s %s→%s, %d elements, scales from %#x: output differs from the generic path\n got %x\nwant %x", p, f, to, n, s, got, want)
							}
						}
					})
				})
			}
			for _, from := range valueTypes {
				t.Run(fmt.Sprintf("%s-%s/%s", from, f, p), func(t *testing.T) {
					lengths(f, func(n, off, nb int) {
						vals := quantizeInputs(f, from, nb+1, r)
						src := make([]byte, off+len(vals)*from.Bits()/8)
						for i, v := range vals {
							putBits(src[off:], from, i, v)
						}
						wc, ws := encodeGuarded(t, kernels.Generic, f, from, src[off:], n, off, guard)
						gc, gs := encodeGuarded(t, p, f, from, src[off:], n, off, guard)
						if !bytes.Equal(wc, gc) || !bytes.Equal(ws, gs) {
							t.Fatalf("%s %s→%s, %d elements: codes or scales differ from the generic path\n got %x %x\nwant %x %x", p, from, f, n, gc, gs, wc, ws)
						}
					})
				})
			}
		}
	}
}

// TestQuantizeLong encodes tensors of many groups on every path, against the generic path: the
// SIMD encoders take long runs of groups together (16 at a time on avx512), so this covers
// whole runs, runs followed by a remainder, and a NaN or an infinity in each position of a run,
// which sends that run group by group.
func TestQuantizeLong(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 4))
	const guard = 0x5A
	for _, p := range simdPaths() {
		for _, f := range schemes {
			for _, from := range valueTypes {
				t.Run(fmt.Sprintf("%s-%s/%s", from, f, p), func(t *testing.T) {
					for _, nb := range []int{15, 16, 17, 31, 32, 33, 48, 71} {
						vals := quantizeInputs(f, from, nb, r)
						for i, v := range vals { // finite everywhere, until a special value is put in
							vals[i] = finiteBits(from, v)
						}
						w, expShift := refOf(from).width(), refOf(from).p-1
						inf := (uint64(1)<<refOf(from).ebits - 1) << expShift
						special := []uint64{inf, inf | 1, inf | 1<<(w-1)} // +Inf, a NaN, -Inf
						for pos := -1; pos < nb; pos += 1 + nb/5 {
							in := append([]uint64(nil), vals...)
							if pos >= 0 {
								in[pos*f.Group+r.IntN(f.Group)] = special[r.IntN(len(special))]
							}
							n := nb * f.Group
							off := 1 + (pos+3)%3
							src := make([]byte, off+n*from.Bits()/8)
							for i, v := range in {
								putBits(src[off:], from, i, v)
							}
							wc, ws := encodeGuarded(t, kernels.Generic, f, from, src[off:], n, off, guard)
							gc, gs := encodeGuarded(t, p, f, from, src[off:], n, off, guard)
							if !bytes.Equal(wc, gc) || !bytes.Equal(ws, gs) {
								t.Fatalf("%s %s→%s, %d groups, special value in group %d: codes or scales differ from the generic path\n got %x %x\nwant %x %x", p, from, f, nb, pos, gc, gs, wc, ws)
							}
						}
					}
				})
			}
		}
	}
}

// decodeGuarded decodes into a destination at offset off of a buffer filled with guard bytes
// and checks that the bytes around the destination kept them.
func decodeGuarded(t *testing.T, p kernels.Path, f quant.Scheme, to element.Type, codes, scales []byte, n, off int, guard byte) []byte {
	t.Helper()
	db := n * to.Bits() / 8
	buf := bytes.Repeat([]byte{guard}, off+db+off+8)
	if err := (quant.Codec{Path: p}).Dequantize(buf[off:off+db], to, quant.Data{Codes: codes, Scales: scales}, f, n); err != nil {
		t.Fatal(err)
	}
	checkGuards(t, p, buf, off, db, guard)
	return buf[off : off+db]
}

// encodeGuarded is decodeGuarded for Quantize.
func encodeGuarded(t *testing.T, p kernels.Path, f quant.Scheme, from element.Type, src []byte, n, off int, guard byte) ([]byte, []byte) {
	t.Helper()
	cb, sb := f.CodeBytes(n), f.Groups(n)
	cbuf := bytes.Repeat([]byte{guard}, off+cb+off+8)
	sbuf := bytes.Repeat([]byte{guard}, off+sb+off+8)
	if err := (quant.Codec{Path: p}).Quantize(quant.Data{Codes: cbuf[off : off+cb], Scales: sbuf[off : off+sb]}, f, src, from, n); err != nil {
		t.Fatal(err)
	}
	checkGuards(t, p, cbuf, off, cb, guard)
	checkGuards(t, p, sbuf, off, sb, guard)
	return cbuf[off : off+cb], sbuf[off : off+sb]
}

func checkGuards(t *testing.T, p kernels.Path, buf []byte, off, size int, guard byte) {
	t.Helper()
	for i, b := range buf {
		if (i < off || i >= off+size) && b != guard {
			t.Fatalf("%s: byte %d outside the %d-byte output (at %d) was written: %#x", p, i, size, off, b)
		}
	}
}

// TestErrors checks that each bad call returns an error of its kind, that the error of an
// unimplemented scheme field names the field, and that no buffer is written.
func TestErrors(t *testing.T) {
	f := quant.MXFP4
	codes, scales, dst := make([]byte, 32), make([]byte, 2), make([]byte, 4*64)
	src := make([]byte, 4*64)
	q := quant.Data{Codes: codes, Scales: scales}
	data := func(c, s []byte) quant.Data { return quant.Data{Codes: c, Scales: s} }
	deq := func(dst []byte, to element.Type, q quant.Data, s quant.Scheme, n int) func() error {
		return func() error { return quant.Dequantize(dst, to, q, s, n) }
	}
	other := kernels.NEON // a path this CPU lacks, when it lacks one
	if runtime.GOARCH == "arm64" {
		other = kernels.AVX2
	}
	bad := []struct {
		name string
		err  error
		want string // a part of the message, "" for any
		call func() error
	}{
		{"short codes", kernels.ErrShortBuffer, "", deq(dst, element.F32, data(codes[:31], scales), f, 64)},
		{"short scales", kernels.ErrShortBuffer, "", deq(dst, element.F32, data(codes, scales[:1]), f, 64)},
		{"short scales, partial group", kernels.ErrShortBuffer, "", deq(dst, element.F32, data(codes, scales[:1]), f, 34)},
		{"short destination", kernels.ErrShortBuffer, "", deq(dst[:255], element.F32, q, f, 64)},
		{"short source", kernels.ErrShortBuffer, "", func() error { return quant.Quantize(q, f, src[:255], element.F32, 64) }},
		{"short codes (quantize)", kernels.ErrShortBuffer, "", func() error { return quant.Quantize(data(codes[:31], scales), f, src, element.F32, 64) }},
		{"short scales (quantize)", kernels.ErrShortBuffer, "", func() error { return quant.Quantize(data(codes, scales[:1]), f, src, element.F32, 64) }},
		{"f64 destination", kernels.ErrUnsupported, "", deq(dst, element.F64, q, f, 64)},
		{"i8 source", kernels.ErrUnsupported, "", func() error { return quant.Quantize(q, f, src, element.I8, 64) }},
		{"odd f4 group (quantize)", kernels.ErrUnsupported, "Group 3", func() error {
			return quant.Quantize(q, quant.Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Group: 3}, src, element.F32, 6)
		}},
		{"zero group", kernels.ErrUnsupported, "Group 0", deq(dst, element.F32, q, quant.Scheme{Code: element.F4E2M1, Scale: element.F8E8M0}, 6)},
		{"i16 codes", kernels.ErrUnsupported, "Code i16", deq(dst, element.F32, q, quant.Scheme{Code: element.I16, Scale: element.F8E8M0, Group: 32}, 6)},
		{"f64 scales", kernels.ErrUnsupported, "Scale f64", deq(dst, element.F32, q, quant.Scheme{Code: element.U4, Scale: element.F64, Group: 32}, 6)},
		{"i4 zero points", kernels.ErrUnsupported, "Zero i4", deq(dst, element.F32, q, quant.Scheme{Code: element.U4, Scale: element.F16, Zero: element.I4, Group: 32}, 6)},
		{"f16 second-level scale", kernels.ErrUnsupported, "Scale2 f16", deq(dst, element.F32, q, quant.Scheme{Code: element.U4, Scale: element.F16, Scale2: element.F16, Group: 32}, 6)},
		{"bf16 compute", kernels.ErrUnsupported, "Compute bf16", deq(dst, element.F32, q, quant.Scheme{Code: element.U4, Scale: element.F16, Compute: element.BF16, Group: 32}, 6)},
		{"scalar zero without a type", kernels.ErrUnsupported, "ScalarZero", deq(dst, element.F32, q, quant.Scheme{Code: element.U4, Scale: element.F16, ScalarZero: true, Group: 32}, 6)},
		{"f16 scales (quantize)", kernels.ErrUnsupported, "Scale f16", func() error {
			return quant.Quantize(q, quant.Scheme{Code: element.F4E2M1, Scale: element.F16, Group: 32}, src, element.F32, 64)
		}},
		{"f16 compute (quantize)", kernels.ErrUnsupported, "Compute f16", func() error {
			return quant.Quantize(q, quant.Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Compute: element.F16, Group: 32}, src, element.F32, 64)
		}},
		{"f32 scales (quantize)", kernels.ErrUnsupported, "Scale f32", func() error {
			return quant.Quantize(q, quant.Scheme{Code: element.F4E2M1, Scale: element.F32, Group: 32}, src, element.F32, 64)
		}},
		{"short zero points", kernels.ErrShortBuffer, "zero points hold 0 bytes, 64 elements need 1", deq(dst, element.F32, q, quant.Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Zero: element.U4, Group: 32}, 64)},
		{"short second-level scale", kernels.ErrShortBuffer, "second-level scale holds 0 bytes, not 4", deq(dst, element.F32, q, quant.Scheme{Code: element.F4E2M1, Scale: element.F8E4M3, Scale2: element.F32, Group: 16}, 64)},
		{"destination over zero points", kernels.ErrOverlap, "zero points", deq(dst, element.F32, quant.Data{Codes: codes, Scales: scales, Zeros: dst[:1]}, quant.Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Zero: element.U4, Group: 32}, 64)},
		{"zero points (quantize)", kernels.ErrUnsupported, "Zero u8", func() error {
			return quant.Quantize(q, quant.Scheme{Code: element.F8E4M3, Scale: element.F8E8M0, Zero: element.U8, Group: 32}, src, element.F32, 64)
		}},
		{"zero points for a scheme without", kernels.ErrInvalid, "", deq(dst, element.F32, quant.Data{Codes: codes, Scales: scales, Zeros: []byte{1}}, f, 64)},
		{"second-level scale for a scheme without", kernels.ErrInvalid, "", func() error {
			return quant.Quantize(quant.Data{Codes: codes, Scales: scales, Scale2: []byte{1}}, f, src, element.F32, 64)
		}},
		{"negative count", kernels.ErrInvalid, "", deq(dst, element.F32, q, f, -1)},
		{"unknown path", kernels.ErrUnsupported, "", func() error { return quant.Codec{Path: 200}.Dequantize(dst, element.F32, q, f, 64) }},
		{"destination over codes", kernels.ErrOverlap, "", deq(dst, element.F32, data(dst[100:132], scales), f, 64)},
		{"destination over scales", kernels.ErrOverlap, "", deq(dst, element.F32, data(codes, dst[254:]), f, 64)},
		{"codes over source", kernels.ErrOverlap, "", func() error { return quant.Quantize(data(src[:32], scales), f, src, element.F32, 64) }},
		{"scales over source", kernels.ErrOverlap, "", func() error { return quant.Quantize(data(codes, src[254:]), f, src, element.F32, 64) }},
		{"codes over scales", kernels.ErrOverlap, "", func() error { return quant.Quantize(data(codes, codes[30:]), f, src, element.F32, 64) }},
		{"typed helper lengths", kernels.ErrLengthMismatch, "", func() error { return quant.DequantizeF32s(make([]float32, 64), data(codes[:31], scales), f) }},
		{"typed helper lengths (quantize)", kernels.ErrLengthMismatch, "", func() error { return quant.QuantizeF32s(data(codes, scales[:1]), f, make([]float32, 64)) }},
		{"typed helper scheme", kernels.ErrUnsupported, "Zero u4", func() error {
			return quant.QuantizeF32s(q, quant.Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Zero: element.U4, Group: 32}, make([]float32, 64))
		}},
	}
	if !slices.Contains(kernels.Paths(), other) {
		bad = append(bad, struct {
			name string
			err  error
			want string
			call func() error
		}{"a path this CPU lacks", kernels.ErrUnsupported, other.String(), func() error { return quant.Codec{Path: other}.Quantize(q, f, src, element.F32, 64) }})
	}
	for i := range src {
		src[i] = byte(i)
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			before := [][]byte{append([]byte(nil), dst...), append([]byte(nil), codes...), append([]byte(nil), scales...), append([]byte(nil), src...)}
			err := c.call()
			if !errors.Is(err, c.err) {
				t.Errorf("error %v, want %v", err, c.err)
			}
			if err != nil && !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not name %q", err, c.want)
			}
			for i, b := range [][]byte{dst, codes, scales, src} {
				if !bytes.Equal(before[i], b) {
					t.Errorf("buffer %d (destination, codes, scales, source) was written", i)
				}
			}
		})
	}
	if err := quant.Dequantize(nil, element.F32, quant.Data{}, f, 0); err != nil {
		t.Errorf("zero elements: %v", err)
	}
	if err := quant.Quantize(quant.Data{}, f, nil, element.F32, 0); err != nil {
		t.Errorf("zero elements (quantize): %v", err)
	}
}

// TestParse reads back what String writes, for the named schemes, another scheme and schemes
// with a zero point or a second-level scale, and rejects what is not a scheme or not one the
// package implements (the latter wrapping kernels.ErrUnsupported).
func TestParse(t *testing.T) {
	for _, f := range append(schemes, quant.Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Group: 64}) {
		g, err := quant.Parse(f.String())
		if err != nil || g != f {
			t.Errorf("Parse(%q) = %v, %v", f.String(), g, err)
		}
	}
	if f, err := quant.Parse("MXFP4"); err != nil || f != quant.MXFP4 {
		t.Errorf("Parse(MXFP4) = %v, %v", f, err)
	}
	for _, s := range []string{"", "mxfp6", "f4e2m1/f8e8m0/x", "i16/f8e8m0/32", "u4/f64/32", "int4_asym", "int4_asym/x",
		"int4_asym/0", "int5_asym/128", "u4/f16/32/zero=i4", "f4e2m1/f8e8m0/32/zero=", "f4e2m1/f8e8m0/32/bias=u4",
		"f4e2m1/f8e8m0/32/zero=u4/zero=u4", "u4/f16/32/zero=u4/scalarzero=u4", "f4e2m1/f8e8m0"} {
		if _, err := quant.Parse(s); err == nil {
			t.Errorf("Parse(%q): no error", s)
		}
	}
	for s, want := range map[string]string{"i16/f16/32": "Code", "u4/f64/32": "Scale", "u4/f16/32/zero=i16": "Zero",
		"f4e2m1/f8e4m3/16/scale2=f16": "Scale2", "u4/f16/32/compute=bf16": "Compute", "int4_asym/0": "Group"} {
		if _, err := quant.Parse(s); !errors.Is(err, kernels.ErrUnsupported) || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want an unsupported %s", s, err, want)
		}
	}
	z := quant.Scheme{Code: element.U4, Scale: element.F16, Zero: element.U4, Scale2: element.F32, Group: 128}
	if got, want := z.String(), "u4/f16/128/zero=u4/scale2=f32"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := quant.MXFP4.Groups(65); got != 3 {
		t.Errorf("MXFP4.Groups(65) = %d, want 3", got)
	}
	if c, s := quant.NVFP4.CodeBytes(33), quant.NVFP4.ScaleBytes(33); c != 17 || s != 3 {
		t.Errorf("NVFP4: %d code bytes and %d scale bytes for 33 elements, want 17 and 3", c, s)
	}
}

func TestAllocations(t *testing.T) {
	n := 1000
	src := make([]float32, n)
	for i := range src {
		src[i] = float32(i) - 500
	}
	for _, f := range schemes {
		q := f.Alloc(n)
		dst := make([]byte, 2*n)
		for _, p := range kernels.Paths() {
			c := quant.Codec{Path: p}
			a := testing.AllocsPerRun(20, func() {
				_ = c.Quantize(q, f, kernels.AsBytes(src), element.F32, n)
				_ = c.Dequantize(dst, element.BF16, q, f, n)
			})
			if a != 0 {
				t.Errorf("%s %s: %v allocations per quantize and dequantize", p, f, a)
			}
		}
	}
}

// TestSpecialCases pins the documented special cases with hand-made groups.
func TestSpecialCases(t *testing.T) {
	f := quant.MXFP4
	vals := make([]float32, 32)
	codes, scales := make([]byte, 16), make([]byte, 1)
	q := quant.Data{Codes: codes, Scales: scales}
	check := func(name string, wantScale byte, wantCodes string) {
		t.Helper()
		if err := quant.QuantizeF32s(q, f, vals); err != nil {
			t.Fatal(err)
		}
		if scales[0] != wantScale || fmt.Sprintf("%x", codes[:4]) != wantCodes {
			t.Errorf("%s: scale %#x codes %x…, want %#x %s…", name, scales[0], codes[:4], wantScale, wantCodes)
		}
	}
	check("zeros", 0x00, "00000000")
	vals[1] = float32(math.Copysign(0, -1))
	check("a negative zero", 0x00, "80000000")
	vals[0], vals[1] = 6, -0.25 // amax 6: scale 2^(2-2) = 1; -0.25 ties to -0
	check("a tie to zero", 0x7F, "87000000")
	vals[1] = -0.75 // ties to -1 (code 2, even)
	check("a tie up", 0x7F, "a7000000")
	vals[2] = float32(math.NaN())
	check("a NaN", 0xFF, "00000000")
	vals[2] = float32(math.Inf(1))
	check("an infinity", 0xFF, "00000000")
	dec := make([]float32, 32)
	if err := quant.DequantizeF32s(dec, q, f); err != nil {
		t.Fatal(err)
	}
	for _, v := range dec {
		if math.Float32bits(v) != 0x7FC00000 {
			t.Fatalf("a NaN-scaled group decodes to %#x, want 0x7FC00000", math.Float32bits(v))
		}
	}
}

// TestDequantizePartial decodes counts that end inside a group (the last group shorter, with
// its own scale; for f4e2m1 an odd count ends on a low nibble) and checks every element against
// the reference and the destination bytes past the count against change.
func TestDequantizePartial(t *testing.T) {
	for _, f := range schemes {
		codes, scales, total, code := exhaustiveBlocks(f)
		q := quant.Data{Codes: codes, Scales: scales}
		for _, to := range valueTypes {
			w := to.Bits() / 8
			for _, p := range kernels.Paths() {
				t.Run(fmt.Sprintf("%s-%s/%s", f, to, p), func(t *testing.T) {
					for _, n := range []int{1, 3, f.Group - 1, f.Group + 1, 2*f.Group + f.Group/2 + 1, total - 1} {
						dst := bytes.Repeat([]byte{0xA5}, (n+3)*w)
						if err := (quant.Codec{Path: p}).Dequantize(dst, to, q, f, n); err != nil {
							t.Fatal(err)
						}
						for i := range n {
							if g, want := valueBits(dst, to, i), refDecodeBits(f, to, code(i), scales[i/f.Group]); g != want {
								t.Fatalf("%s %s→%s n=%d: element %d (code %#x, scale %#x) is %#x, want %#x", p, f, to, n, i, code(i), scales[i/f.Group], g, want)
							}
						}
						for j, b := range dst[n*w:] {
							if b != 0xA5 {
								t.Fatalf("%s %s→%s n=%d: byte %d past the elements was written", p, f, to, n, n*w+j)
							}
						}
					}
				})
			}
		}
	}
}
