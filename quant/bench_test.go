package quant_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// benchSizes are the benchmarks' sizes in elements, with their names.
var benchSizes = []struct {
	name string
	n    int
}{{"16Ki", 16 << 10}, {"256Ki", 256 << 10}}

// prefaulted returns a buffer whose pages have been written, so that the first timed
// iteration does not pay for page faults.
func prefaulted(n int) []byte {
	b := make([]byte, n)
	for i := 0; i < n; i += 4096 {
		b[i] = 1
	}
	return b
}

// randomBytes returns n random bytes, the same for every run of a size. copy()'s source holds
// such data rather than zeros, as in package kernels' benchmarks (docs/perf/README.md, "What
// bounds each size").
func randomBytes(n int) []byte {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// normalF32s returns n normal random float32 values (standard deviation 100) as bytes, the same
// for every run of a size.
func normalF32s(n int) []byte {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	b := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(r.NormFloat64()*100)))
	}
	return b
}

// benchCopy measures copy() of random data moving traffic bytes (read plus written).
func benchCopy(b *testing.B, traffic int64) {
	half := traffic / 2
	cs, cd := randomBytes(int(half)), prefaulted(int(half))
	b.SetBytes(2 * half)
	for b.Loop() {
		copy(cd, cs)
	}
}

// BenchmarkDequantize decodes MXFP4, NVFP4 and MXFP8E4M3 to each value type at 16 Ki and
// 256 Ki elements on each path that has a kernel (and pure Go), beside copy() of the same
// traffic: the codes and scales read plus the values written. The scales are 32 distinct bytes
// at random, as a tensor's groups use a few; filter with e.g. -bench 'Dequantize/mxfp4-bf16'.
// For f4e2m1 codes, unscaled-<path> converts the same codes element by element
// (kernels.Convert, no scales) and reports it at the decoder's traffic, so that its GB/s
// compare directly: the cost of the elements before any per-group scale.
func BenchmarkDequantize(b *testing.B) {
	for _, s := range []quant.Scheme{quant.MXFP4, quant.NVFP4, quant.MXFP8E4M3} {
		for _, to := range []element.Type{element.F32, element.F16, element.BF16} {
			for _, size := range benchSizes {
				n := size.n
				b.Run(strings.ToLower(s.String())+"-"+to.String()+"/"+size.name, func(b *testing.B) {
					r := rand.New(rand.NewPCG(5, uint64(n)))
					q := quant.Data{Codes: randomBytes(s.CodeBytes(n)), Scales: make([]byte, s.ScaleBytes(n))}
					base := byte(0x6F) // f8e8m0: 2^-16 and up
					if s.Scale == element.F8E4M3 {
						base = 0x30 // f8e4m3: 0.5 and up
					}
					for i := range q.Scales {
						q.Scales[i] = base + byte(r.IntN(32))
					}
					dst := prefaulted(n * to.Bits() / 8)
					traffic := int64(len(q.Codes) + len(q.Scales) + len(dst))
					for _, p := range kernels.Paths() {
						if p != kernels.Generic && !quant.HasDequantizer(p, s, to) {
							continue
						}
						b.Run(p.String(), func(b *testing.B) {
							c := quant.Codec{Path: p}
							b.SetBytes(traffic)
							for b.Loop() {
								if err := c.Dequantize(dst, to, q, s, n); err != nil {
									b.Fatal(err)
								}
							}
						})
					}
					b.Run("copy", func(b *testing.B) { benchCopy(b, traffic) })
					// The same codes converted element by element, without scales, on the
					// fastest path that has the pair: what a decoder costs before its scales.
					p := kernels.Paths()[0]
					if s.Code == element.F4E2M1 && kernels.HasKernel(p, s.Code, to) {
						b.Run("unscaled-"+p.String(), func(b *testing.B) {
							c := kernels.WithPath(p, 1)
							b.SetBytes(traffic)
							for b.Loop() {
								if err := c.Convert(dst, to, q.Codes, s.Code, n); err != nil {
									b.Fatal(err)
								}
							}
						})
					}
				})
			}
		}
	}
}

// BenchmarkQuantize encodes normal random f32 values into MXFP4 and NVFP4 at 16 Ki and 256 Ki
// elements, as BenchmarkDequantize does the other way.
func BenchmarkQuantize(b *testing.B) {
	for _, s := range []quant.Scheme{quant.MXFP4, quant.NVFP4} {
		for _, size := range benchSizes {
			n := size.n
			b.Run("f32-"+strings.ToLower(s.String())+"/"+size.name, func(b *testing.B) {
				src := normalF32s(n)
				q := quant.Data{Codes: prefaulted(s.CodeBytes(n)), Scales: prefaulted(s.ScaleBytes(n))}
				traffic := int64(len(src) + len(q.Codes) + len(q.Scales))
				for _, p := range kernels.Paths() {
					if p != kernels.Generic && !quant.HasQuantizer(p, s, element.F32) {
						continue
					}
					b.Run(p.String(), func(b *testing.B) {
						c := quant.Codec{Path: p}
						b.SetBytes(traffic)
						for b.Loop() {
							if err := c.Quantize(q, s, src, element.F32, n); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
				b.Run("copy", func(b *testing.B) { benchCopy(b, traffic) })
			})
		}
	}
}

// BenchmarkDequantizeGroups decodes NNCF's modes (int4_asym and int4_sym with groups of 128,
// int8_asym and int8_sym per row of 4096, mxfp4 with groups of 32, all computed in f16) to f16,
// and int4_asym to f32, at 16 Ki and 64 Mi elements on each path that has a kernel (and pure
// Go), beside copy() of the same traffic: the codes, scales and zero points read plus the
// values written. The scales are f16 weight scales 2^-10..2^-4 at random, the codes and zero
// points random bytes; filter with e.g. -bench 'DequantizeGroups/int4_asym-128-f16/16Ki'. For
// the 4-bit modes, group4096-<path> decodes the same codes with groups of 4096, which builds
// the per-group table 32 times less often (the table's share of the time), and unscaled-<path>
// converts the codes element by element (kernels.Convert u4 → f16, no scales) at the decoder's
// traffic.
func BenchmarkDequantizeGroups(b *testing.B) {
	cases := []struct {
		mode  string
		group int
		to    element.Type
	}{
		{"int4_asym", 128, element.F16}, {"int4_asym", 128, element.F32}, {"int4_sym", 128, element.F16},
		{"int8_asym", 4096, element.F16}, {"int8_sym", 4096, element.F16}, {"mxfp4", 32, element.F16},
	}
	for _, c := range cases {
		s, err := quant.NNCF(c.mode, c.group)
		if err != nil {
			b.Fatal(err)
		}
		for _, size := range []struct {
			name string
			n    int
		}{{"16Ki", 16 << 10}, {"64Mi", 64 << 20}} {
			n := size.n
			b.Run(fmt.Sprintf("%s-%d-%s/%s", c.mode, c.group, c.to, size.name), func(b *testing.B) {
				data := func(s quant.Scheme) quant.Data {
					r := rand.New(rand.NewPCG(5, uint64(n)))
					q := quant.Data{Codes: randomBytes(s.CodeBytes(n)), Scales: make([]byte, s.ScaleBytes(n))}
					if s.Zero != element.Dynamic {
						q.Zeros = randomBytes(s.ZeroBytes(n))
					}
					for g := range s.Groups(n) {
						if s.Scale == element.F8E8M0 {
							q.Scales[g] = 0x6F + byte(r.IntN(32))
							continue
						}
						v := float32(math.Ldexp(1+r.Float64(), -10+r.IntN(6)))
						binary.LittleEndian.PutUint16(q.Scales[2*g:], kernels.F16FromF32(v))
					}
					return q
				}
				q := data(s)
				dst := prefaulted(n * c.to.Bits() / 8)
				traffic := int64(len(q.Codes) + len(q.Scales) + len(q.Zeros) + len(dst))
				run := func(name string, p kernels.Path, s quant.Scheme, q quant.Data) {
					b.Run(name, func(b *testing.B) {
						codec := quant.Codec{Path: p}
						b.SetBytes(traffic)
						for b.Loop() {
							if err := codec.Dequantize(dst, c.to, q, s, n); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
				for _, p := range kernels.Paths() {
					if p != kernels.Generic && !quant.HasDequantizer(p, s, c.to) {
						continue
					}
					run(p.String(), p, s, q)
				}
				b.Run("copy", func(b *testing.B) { benchCopy(b, traffic) })
				p := kernels.Paths()[0]
				if s.Code.Bits() == 4 && quant.HasDequantizer(p, s, c.to) {
					wide := s
					wide.Group = 4096
					run("group4096-"+p.String(), p, wide, data(wide))
					if kernels.HasKernel(p, s.Code, c.to) {
						b.Run("unscaled-"+p.String(), func(b *testing.B) {
							conv := kernels.WithPath(p, 1)
							b.SetBytes(traffic)
							for b.Loop() {
								if err := conv.Convert(dst, c.to, q.Codes, s.Code, n); err != nil {
									b.Fatal(err)
								}
							}
						})
					}
				}
			})
		}
	}
}
