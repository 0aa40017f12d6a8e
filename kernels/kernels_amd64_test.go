//go:build gc && !purego

package kernels

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// TestAMD64AlternateKernels checks the kernels that the dispatch tables may not hold on this CPU
// (the AVX-512 path prefers the AVX512_BF16 kernels for → bf16 when the CPU has them), so that
// every kernel runs here whichever variant Convert picks: against the generic loop, on every
// f16 pattern, on float32 specials and random patterns (a third of them subnormal), and on
// every length 0..100. Its subtests are pair/avx512, each looping over the pair's kernels.
func TestAMD64AlternateKernels(t *testing.T) {
	type alt struct {
		name     string
		from, to element.Type
		f        loopFunc
		need     bool
	}
	alts := []alt{
		{"f32ToBF16AVX512", element.F32, element.BF16, f32ToBF16AVX512, haveAVX512},
		{"f16ToBF16AVX512", element.F16, element.BF16, f16ToBF16AVX512, haveAVX512},
		{"f32ToBF16AVX512BF", element.F32, element.BF16, f32ToBF16AVX512BF, haveBF16},
		{"f16ToBF16AVX512BF", element.F16, element.BF16, f16ToBF16AVX512BF, haveBF16},
	}
	r := rand.New(rand.NewPCG(11, 12))
	f32src := make([]byte, 4*(1<<18))
	for i := 0; i < len(f32src); i += 4 {
		v := r.Uint32()
		switch i % 3 {
		case 0:
			v &= 0x807FFFFF // subnormal or zero
		case 1:
			v = v&0x80000000 | 0x7F800000 | v&0x7FFFFF // inf or NaN
		}
		binary.LittleEndian.PutUint32(f32src[i:], v)
	}
	f16src := make([]byte, 2<<16)
	for i := range 1 << 16 {
		binary.LittleEndian.PutUint16(f16src[2*i:], uint16(i))
	}
	byPair := map[[2]element.Type][]alt{} // the kernels this CPU runs, by pair
	var pairs [][2]element.Type
	for _, a := range alts {
		if !a.need {
			continue
		}
		pr := [2]element.Type{a.from, a.to}
		if byPair[pr] == nil {
			pairs = append(pairs, pr)
		}
		byPair[pr] = append(byPair[pr], a)
	}
	if len(pairs) == 0 {
		t.Skip("no AVX-512 on this CPU")
	}
	for _, pr := range pairs {
		t.Run(pairName(pr[0], pr[1]), func(t *testing.T) {
			t.Parallel()
			t.Run(AVX512.String(), func(t *testing.T) {
				for _, a := range byPair[pr] {
					src := f32src // f32src and f16src are read-only in the subtests
					if a.from == element.F16 {
						src = f16src
					}
					n := len(src) / (a.from.Bits() / 8)
					want := make([]byte, n*a.to.Bits()/8)
					got := make([]byte, len(want)+8)
					genericKernel(a.from, a.to)(want, src, n)
					for ln := 0; ln <= 100; ln++ {
						for i := range got {
							got[i] = 0xA5
						}
						sb, db := ln*a.from.Bits()/8, ln*a.to.Bits()/8
						a.f(got[:db], src[:sb], ln)
						if !bytes.Equal(got[:db], want[:db]) || got[db] != 0xA5 {
							t.Fatalf("%s n=%d: got %x, want %x", a.name, ln, got[:db+1], want[:db])
						}
					}
					a.f(got[:len(want)], src, n)
					if !bytes.Equal(got[:len(want)], want) {
						for i := 0; i < len(want); i += 2 {
							if got[i] != want[i] || got[i+1] != want[i+1] {
								e := i / 2
								t.Fatalf("%s element %d (source %x): got %x, want %x", a.name, e,
									src[e*a.from.Bits()/8:(e+1)*a.from.Bits()/8], got[i:i+2], want[i:i+2])
							}
						}
					}
				}
			})
		})
	}
}

// TestAMD64NonTemporal lowers the size from which Convert uses the non-temporal kernels, so
// that they run on buffers of a few MiB, and compares them with the generic loops at
// destination offsets that can and cannot be 64-byte aligned and with counts that leave a tail.
// Its subtests are pair/avx512.
func TestAMD64NonTemporal(t *testing.T) {
	if !haveAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	defer func(old int64) { largeMinBytes = old }(largeMinBytes)
	largeMinBytes = 1 << 20
	r := rand.New(rand.NewPCG(13, 14))
	ran := 0
	for from := range element.Type(numTypes) {
		for to := range element.Type(numTypes) {
			if ntTable[from][to] == nil {
				continue
			}
			ran++
			// Not in parallel: the subtests run while largeMinBytes is lowered.
			t.Run(pairName(from, to), func(t *testing.T) {
				t.Run(AVX512.String(), func(t *testing.T) {
					n := (2<<20)/(to.Bits()/8) + 61
					if !streams(int64(n*from.Bits()/8), int64(n*to.Bits()/8)) {
						t.Fatalf("%s→%s: %d elements do not take the non-temporal kernel", from, to, n)
					}
					src := make([]byte, n*from.Bits()/8)
					for i := range src {
						src[i] = byte(r.Uint32())
					}
					want := make([]byte, n*to.Bits()/8)
					genericKernel(from, to)(want, src, n)
					convertAtOffsets(t, WithPath(AVX512, 1), want, to, src, from, n)
				})
			})
		}
	}
	// The registry's rows with a non-temporal block, and the pairs without a registry row whose
	// first openvino row of ruleRegistry has one (shareKernels): each must have its kernel bound.
	want := 0
	for _, row := range registry {
		if row.nt != 0 {
			want++
		}
	}
	seen := map[[2]element.Type]bool{}
	for _, row := range ruleRegistry {
		if p := [2]element.Type{row.from, row.to}; row.openvino && registryRow(row.from, row.to) == nil && !seen[p] {
			seen[p] = true
			if row.nt != 0 {
				want++
			}
		}
	}
	if ran != want {
		t.Errorf("%d pairs have non-temporal kernels, want %d (the registry's rows with nt, and the openvino rows' pairs)", ran, want)
	}
}

// convertAtOffsets converts n elements of src with c into a zeroed buffer at destination
// offsets that can and cannot be 64-byte aligned, and reports where the result is not want or a
// byte outside the destination is not zero.
func convertAtOffsets(t *testing.T, c Converter, want []byte, to element.Type, src []byte, from element.Type, n int) {
	t.Helper()
	buf := make([]byte, len(want)+256)
	for _, off := range []int{0, 2, 4, 6, 8, 1, 62} {
		clear(buf)
		if err := c.Convert(buf[off:off+len(want)], to, src, from, n); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf[off:off+len(want)], want) {
			t.Errorf("%s→%s at offset %d differs from the pure-Go loop", from, to, off)
		}
		if bytes.Count(buf[:off], []byte{0}) != off || bytes.Count(buf[off+len(want):], []byte{0}) != len(buf)-off-len(want) {
			t.Errorf("%s→%s at offset %d wrote outside the destination", from, to, off)
		}
	}
}

// TestAMD64RuleNonTemporal is TestAMD64NonTemporal for the rule sets' non-temporal kernels
// (ruleNT): each pair under each rule variant that has one, through a Converter with those
// rules, against the variant's pure-Go loop. The sources mix values of every magnitude (random
// bits, shifted right by a random count for 32-bit and integer sources) with values next to
// a bfloat16 midpoint or on one, which send the kernels to bfloat16 to their rounding to odd.
// Its subtests are pair/rules.
func TestAMD64RuleNonTemporal(t *testing.T) {
	if !haveAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	defer func(old int64) { largeMinBytes = old }(largeMinBytes)
	largeMinBytes = 1 << 20
	r := rand.New(rand.NewPCG(15, 16))
	ran := 0
	for v, rules := range ruleVariants {
		for from := range element.Type(numTypes) {
			for to := range element.Type(numTypes) {
				nt := ruleNT[v][from][to]
				if nt == nil {
					continue
				}
				ran++
				t.Run(pairName(from, to)+"/"+rules.String(), func(t *testing.T) {
					n := (2<<20)/(to.Bits()/8) + 61
					sz := from.Bits() / 8
					if !streams(int64(n*sz), int64(n*to.Bits()/8)) {
						t.Fatalf("%d elements do not take the non-temporal kernel", n)
					}
					src := make([]byte, n*sz)
					for i := 0; i < n; i++ {
						bits := r.Uint64()
						if i%4 == 1 {
							// A value next to a bfloat16 midpoint, or on it: its float32 to
							// nearest is the midpoint, whose rounding to nearest even may
							// differ from the value's one rounding.
							m := uint32(bits)&^0xFFFF | 0x8000
							d := min(int(bits>>62)-1, 1) // -1, 0 or 1: below, on, above
							switch from {
							case element.F64:
								f := float64(math.Float32frombits(m &^ (1 << 30))) // finite
								bits = math.Float64bits(math.Nextafter(f, f+float64(d)*math.Abs(f)))
							default:
								f := math.Float32frombits(m&0x4EFFFFFF | 0x4C000000) // 2^25..2^31
								bits = uint64(int64(f) + int64(d))
							}
						} else if from != element.F64 {
							bits >>= r.IntN(64)
						}
						for b := range sz {
							src[i*sz+b] = byte(bits >> (8 * b))
						}
					}
					want := make([]byte, n*to.Bits()/8)
					rulesTable[v][from][to](want, src, n)
					got := make([]byte, len(want))
					nt(got, src, n)
					if !bytes.Equal(got, want) {
						t.Fatalf("the non-temporal kernel differs from the pure-Go loop")
					}
					convertAtOffsets(t, Converter{Path: AVX512, Threads: 1, Rules: rules}, want, to, src, from, n)
				})
			}
		}
	}
	want := 0 // every variant that reduces to a row with a non-temporal block
	for _, row := range ruleRegistry {
		for _, rv := range ruleVariants {
			if row.nt != 0 && rv.forPair(row.to) == row.rules {
				want++
			}
		}
	}
	if ran != want || want == 0 {
		t.Errorf("%d pairs and variants have non-temporal kernels, want %d (the variants of ruleRegistry's rows with nt)", ran, want)
	}
}

// BenchmarkCallOverhead measures the fixed cost of a call, with 0 and 16 elements of f16 → f32
// on AVX-512: the kernel called directly (its entry, argument loads, tail test and VZEROUPPER),
// through a func value (adding the ABI wrapper of an assembly function), and through a
// Converter's and the package's Convert (adding the dispatch table lookup and the size checks).
func BenchmarkCallOverhead(b *testing.B) {
	if !haveAVX512 {
		b.Skip("no AVX-512 on this CPU")
	}
	src, dst := make([]byte, 64), make([]byte, 64)
	var viaValue loopFunc = f16ToF32AVX512
	conv := WithPath(AVX512, 1)
	for _, n := range []int{0, 16} {
		b.Run(fmt.Sprintf("n=%d/direct", n), func(b *testing.B) {
			for b.Loop() {
				f16ToF32AVX512(dst, src, n)
			}
		})
		b.Run(fmt.Sprintf("n=%d/funcvalue", n), func(b *testing.B) {
			for b.Loop() {
				viaValue(dst, src, n)
			}
		})
		b.Run(fmt.Sprintf("n=%d/Converter", n), func(b *testing.B) {
			for b.Loop() {
				if err := conv.Convert(dst, element.F32, src, element.F16, n); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/Convert", n), func(b *testing.B) {
			for b.Loop() {
				if err := Convert(dst, element.F32, src, element.F16, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
