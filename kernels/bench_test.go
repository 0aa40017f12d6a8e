package kernels_test

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/x448/float16"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// benchSizes is the size ladder in elements.
var benchSizes = []struct {
	name string
	n    int
}{{"1Ki", 1 << 10}, {"16Ki", 16 << 10}, {"256Ki", 256 << 10}, {"4Mi", 4 << 20}, {"64Mi", 64 << 20}}

// benchSource returns n elements of from with realistic values (see the package's own
// benchSource), the same for every run of a size.
func benchSource(from element.Type, n int) []byte {
	return kernels.BenchSource(from, n, rand.New(rand.NewPCG(7, uint64(n))))
}

// prefaulted returns a buffer whose pages have been written, so that the first timed
// iteration does not pay for page faults.
func prefaulted(n int) []byte {
	b := make([]byte, n)
	for i := 0; i < n; i += 4096 {
		b[i] = 1
	}
	return b
}

// randomBytes returns n random bytes (benchSource's u8 values), the same for every run of a size.
// copy()'s source in the benchmarks holds such data rather than zeros: on some CPUs,
// non-temporal stores of zero lines (which copy() uses from 1 MiB and clear() from 32 MiB) reach
// memory several times as fast as stores of other data, so a copy() of a zeroed buffer would
// overstate the speed of copying a tensor (docs/perf/README.md, "What bounds each size").
func randomBytes(n int) []byte { return benchSource(element.U8, n) }

// BenchmarkConvert runs every SIMD pair on the size ladder, on every path of this CPU (the
// generic path included, one goroutine) and, as "copy", the built-in copy of a buffer of the
// same traffic. Throughput counts bytes read plus bytes written, so MB/s of a kernel and of copy
// compare directly. Filter with e.g. -bench 'Convert/f32-f16/16Ki'.
func BenchmarkConvert(b *testing.B) {
	for _, pr := range simdPairs {
		from, to := pr[0], pr[1]
		name := from.String() + "-" + to.String()
		for _, sz := range benchSizes {
			b.Run(name+"/"+sz.name, func(b *testing.B) {
				sb, _ := from.ByteSize(int64(sz.n))
				db, _ := to.ByteSize(int64(sz.n))
				var src, dst []byte // allocated on first use: a filtered run only pays for what it runs
				setup := func() {
					if src == nil {
						src = benchSource(from, sz.n)
						dst = prefaulted(int(db))
					}
				}
				for _, p := range kernels.Paths() {
					if p != kernels.Generic && !kernels.HasKernel(p, from, to) {
						continue
					}
					b.Run(p.String(), func(b *testing.B) {
						setup()
						c := kernels.WithPath(p, 1)
						b.SetBytes(sb + db)
						for b.Loop() {
							if err := c.Convert(dst, to, src, from, sz.n); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
				b.Run("copy", func(b *testing.B) { benchCopy(b, sb+db) })
			})
		}
	}
}

// BenchmarkConvertRules runs every SIMD pair at 16Ki elements under the ONNX and ml_dtypes rule
// sets on the best path, beside copy() of the same traffic: the pairs that keep OpenVINO's
// kernels under a rule set run them at OpenVINO's speed, and the others (f32 → f8e4m3 and
// f8e5m2, f16 → f8e4m3 and f8e5m2, i32 → f16) show the cost of their pure-Go loop. Filter with
// e.g. -bench 'ConvertRules/onnx/f32-f16'.
func BenchmarkConvertRules(b *testing.B) {
	const n = 16 << 10
	for _, set := range []kernels.RuleSet{kernels.ONNX, kernels.MLDtypes} {
		for _, pr := range simdPairs {
			from, to := pr[0], pr[1]
			sb, _ := from.ByteSize(n)
			db, _ := to.ByteSize(n)
			b.Run(set.String()+"/"+from.String()+"-"+to.String(), func(b *testing.B) {
				src, dst := benchSource(from, n), prefaulted(int(db))
				c := kernels.Converter{Rules: kernels.Rules{Set: set}}
				b.Run("convert", func(b *testing.B) {
					b.SetBytes(sb + db)
					for b.Loop() {
						if err := c.Convert(dst, to, src, from, n); err != nil {
							b.Fatal(err)
						}
					}
				})
				b.Run("copy", func(b *testing.B) { benchCopy(b, sb+db) })
			})
		}
	}
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

// BenchmarkConvertDefault runs f32→f16 through the package-level Convert (best path, default
// goroutine count), to show the dispatch cost at 1Ki and the goroutine split at 64Mi.
func BenchmarkConvertDefault(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			src := benchSource(element.F32, sz.n)
			dst := prefaulted(2 * sz.n)
			b.SetBytes(int64(6 * sz.n))
			for b.Loop() {
				if err := kernels.Convert(dst, element.F16, src, element.F32, sz.n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkX448F32ToF16 is github.com/x448/float16's per-element loop, the baseline f32→f16
// is measured against.
func BenchmarkX448F32ToF16(b *testing.B) {
	for _, sz := range benchSizes[:3] {
		b.Run(sz.name, func(b *testing.B) {
			src := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(benchSource(element.F32, sz.n)))), sz.n)
			dst := make([]float16.Float16, sz.n)
			b.SetBytes(int64(6 * sz.n))
			for b.Loop() {
				for i, f := range src {
					dst[i] = float16.Fromfloat32(f)
				}
			}
		})
	}
}

// BenchmarkMemoryBounds measures the memory system with the runtime's own loops, one goroutine,
// on buffers of the sizes of the ladder's f32 sources, each counting the bytes it moves:
//   - read: reading alone (bytes.IndexByte for a byte that is absent; in L1 and L2 its compares
//     limit it, not the loads);
//   - write: writing random data alone with ordinary stores, as copy() of a 4 KiB source that
//     stays in L1 into each 4 KiB of the buffer;
//   - stream: the same with non-temporal stores, from 1 MiB of buffer on: copy() of a 1 MiB
//     source (it stays in L2) into each MiB (copy() stores non-temporally from 1 MiB, as the
//     kernels do for large conversions);
//   - zeros: clear(), the runtime's memclr (non-temporal from 32 MiB), which shows how much
//     faster a machine writes zero lines than data (about three times, here, from DRAM sizes);
//   - copy: copy() of random data.
//
// Where copy() moves its bytes no faster than writing alone (at 1 Ki elements, both at the
// core's store rate), a conversion that writes w of every r+w bytes it moves (w > r) runs at
// most at (r+w)/(2w) of copy() of the same traffic: 0.75 for f16 → f32, 0.625 for i8 → f32.
func BenchmarkMemoryBounds(b *testing.B) {
	for _, sz := range benchSizes {
		n := 4 * sz.n // bytes: the f32 source of the ladder's size
		b.Run(sz.name+"/read", func(b *testing.B) {
			buf := bytes.Repeat([]byte{1}, n)
			b.SetBytes(int64(n))
			for b.Loop() {
				if bytes.IndexByte(buf, 0) >= 0 {
					b.Fatal("found a zero")
				}
			}
		})
		write := func(piece int) func(b *testing.B) {
			return func(b *testing.B) {
				buf := prefaulted(n)
				src := randomBytes(piece)
				b.SetBytes(int64(n))
				for b.Loop() {
					for i := 0; i < n; i += piece {
						copy(buf[i:], src)
					}
				}
			}
		}
		b.Run(sz.name+"/write", write(4<<10))
		if n >= 1<<20 {
			b.Run(sz.name+"/stream", write(1<<20))
		}
		b.Run(sz.name+"/zeros", func(b *testing.B) {
			buf := prefaulted(n)
			b.SetBytes(int64(n))
			for b.Loop() {
				clear(buf)
			}
		})
		b.Run(sz.name+"/copy", func(b *testing.B) {
			src, dst := randomBytes(n/2), prefaulted(n/2)
			b.SetBytes(int64(n))
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}
