//go:build gc && !purego

package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/cpu"
)

// neonPairs are the pairs that must have a NEON kernel: the registry's rows that name NEON.
var neonPairs = func() (ps [][2]element.Type) {
	for _, r := range registry {
		if r.paths.has(NEON) {
			ps = append(ps, [2]element.Type{r.from, r.to})
		}
	}
	return ps
}()

// withBFCVTN runs f with useBFCVTN set to on (which only matters on a CPU with FEAT_BF16).
func withBFCVTN(on bool, f func()) {
	old := useBFCVTN
	useBFCVTN = on
	defer func() { useBFCVTN = old }()
	f()
}

// bf16Branches are the f32 → bf16 dispatch branches this CPU can run.
func bf16Branches() []bool {
	if hasBF16 {
		return []bool{false, true}
	}
	return []bool{false}
}

func init() { kernelBranches = neonBranches }

// neonBranches returns, for NEON's f32 → bf16 kernel on a CPU with FEAT_BF16, its BFCVTN and its
// integer branch (TestPathsMatchReference runs both), and nil for every other kernel.
func neonBranches(p Path, from, to element.Type) []kernelBranch {
	if p != NEON || !togglesBFCVTN(from, to) {
		return nil
	}
	var bs []kernelBranch
	for _, bfc := range bf16Branches() {
		bs = append(bs, kernelBranch{fmt.Sprintf(" (BFCVTN %v)", bfc), func(f func()) { withBFCVTN(bfc, f) }})
	}
	return bs
}

// togglesBFCVTN reports whether a test of the pair switches useBFCVTN, to run both f32 → bf16
// branches: its subtest must not run in parallel with readers of useBFCVTN (every f32 → bf16
// conversion on NEON).
func togglesBFCVTN(from, to element.Type) bool {
	return from == element.F32 && to == element.BF16 && len(bf16Branches()) > 1
}

// parallelUnlessBFCVTN marks t parallel unless it is the subtest of the pair that switches
// useBFCVTN, which then runs before its parallel siblings start.
func parallelUnlessBFCVTN(t *testing.T, from, to element.Type) {
	if !togglesBFCVTN(from, to) {
		t.Parallel()
	}
}

// eachNEONPair runs f as the subtest pair/neon of t (pairName: "f32-f16/neon") for every NEON
// pair, in parallel except for the pair that switches useBFCVTN.
func eachNEONPair(t *testing.T, f func(t *testing.T, from, to element.Type)) {
	for _, p := range neonPairs {
		from, to := p[0], p[1]
		t.Run(pairName(from, to), func(t *testing.T) {
			parallelUnlessBFCVTN(t, from, to)
			t.Run(NEON.String(), func(t *testing.T) { f(t, from, to) })
		})
	}
}

func TestNEONHasKernels(t *testing.T) {
	if !hasASIMD {
		t.Skip("no Advanced SIMD")
	}
	if ps := Paths(); len(ps) != 2 || ps[0] != NEON || ps[1] != Generic {
		t.Fatalf("Paths() = %v, want [neon generic]", ps)
	}
	for _, p := range neonPairs {
		if !HasKernel(NEON, p[0], p[1]) {
			t.Errorf("no NEON kernel for %s → %s", p[0], p[1])
		}
	}
	if HasKernel(NEON, element.U1, element.F32) || archKernel(Generic, element.F32, element.F16) != nil {
		t.Error("archKernel answers for a pair or path without a NEON kernel")
	}
}

// TestNEONFeatureDispatch checks the f32 → bf16 choice against the CPU model qemu-user emulates
// (QEMU_CPU): cortex-a53 has neither FP16 arithmetic nor BF16, so BFCVTN must not be chosen;
// qemu's max model has both.
func TestNEONFeatureDispatch(t *testing.T) {
	model := os.Getenv("QEMU_CPU")
	t.Logf("QEMU_CPU=%q ASIMD=%v FPHP=%v ASIMDHP=%v BF16(HWCAP2)=%v", model, cpu.ARM64.HasASIMD,
		cpu.ARM64.HasFPHP, cpu.ARM64.HasASIMDHP, hasBF16)
	if bf16UsesBFCVTN() && !hasBF16 {
		t.Fatal("BFCVTN kernel chosen on a CPU without FEAT_BF16")
	}
	withBFCVTN(true, func() {
		if !hasBF16 && bf16UsesBFCVTN() {
			t.Fatal("BFCVTN kernel chosen on a CPU without FEAT_BF16 with useBFCVTN set")
		}
	})
	switch model {
	case "cortex-a53":
		if hasBF16 || cpu.ARM64.HasFPHP || cpu.ARM64.HasASIMDHP {
			t.Errorf("cortex-a53 reports BF16=%v FPHP=%v ASIMDHP=%v, want all false",
				hasBF16, cpu.ARM64.HasFPHP, cpu.ARM64.HasASIMDHP)
		}
		if bf16UsesBFCVTN() {
			t.Error("cortex-a53: f32 → bf16 does not use the integer NEON routine")
		}
	case "max":
		if !hasBF16 {
			t.Error("qemu max: FEAT_BF16 not detected from HWCAP2")
		}
		if !bf16UsesBFCVTN() {
			t.Error("qemu max: f32 → bf16 does not use BFCVTN")
		}
	default:
		t.Logf("not under qemu-user (QEMU_CPU unset or unknown): only the consistency checks ran")
	}
}

// TestNEONLengthsOffsets runs every kernel on lengths 0..257 at source and destination byte
// offsets 0..7, with guard bytes on both sides of the destination that must stay untouched. Its
// subtests are pair/neon.
func TestNEONLengthsOffsets(t *testing.T) {
	if !hasASIMD {
		t.Skip("no Advanced SIMD")
	}
	const maxN, guard = 257, 32
	eachNEONPair(t, func(t *testing.T, from, to element.Type) {
		rng := rand.New(rand.NewPCG(uint64(from)<<8|uint64(to), 7))
		full := make([]byte, outBytes(from, maxN)+8)
		for i := range full {
			full[i] = byte(rng.Uint32())
		}
		ref := refKernel(from, to)
		for _, bfc := range bf16Branches() {
			if bfc && !(from == element.F32 && to == element.BF16) {
				continue
			}
			withBFCVTN(bfc, func() {
				k := archKernel(NEON, from, to)
				for n := 0; n <= maxN; n++ {
					sb, db := outBytes(from, n), outBytes(to, n)
					want := make([]byte, db)
					ref(want, full[:sb], n)
					for so := range 8 {
						do := (so*5 + n) % 8
						src := make([]byte, so+sb)
						copy(src[so:], full[:sb])
						buf := make([]byte, guard+do+db+guard)
						for i := range buf {
							buf[i] = 0xA5
						}
						dst := buf[guard+do : guard+do+db : guard+do+db]
						k(dst, src[so:so+sb:so+sb], n)
						if d := firstDiff(from, to, src[so:], dst, want); d != "" {
							t.Fatalf("%s → %s (BFCVTN %v) n=%d src offset %d dst offset %d: %s",
								from, to, bfc, n, so, do, d)
						}
						for i, b := range buf {
							if (i < guard+do || i >= guard+do+db) && b != 0xA5 {
								t.Fatalf("%s → %s (BFCVTN %v) n=%d offsets %d/%d: guard byte %d overwritten",
									from, to, bfc, n, so, do, i-guard-do)
							}
						}
					}
				}
			})
		}
	})
}

// TestNEONBF16Branches compares the BFCVTN and integer f32 → bf16 kernels on every f32 high
// half with low halves around the rounding point, subnormals and NaNs included.
func TestNEONBF16Branches(t *testing.T) {
	if !hasBF16 {
		t.Skip("CPU without FEAT_BF16: only the integer routine runs (TestNEONFeatureDispatch checks it)")
	}
	src, n := sourceFor(element.F32, randomCount())
	a, b := make([]byte, 2*n), make([]byte, 2*n)
	f32ToBF16NEON(a, src, n)
	f32ToBF16BFCVTN(b, src, n)
	if d := firstDiff(element.F32, element.BF16, src, b, a); d != "" {
		t.Fatalf("BFCVTN differs from the integer routine: %s", d)
	}
}

// TestNEONNibbleTables checks the 4-bit decoding tables against the values docs/SEMANTICS.md §1.3, §1.4 list.
func TestNEONNibbleTables(t *testing.T) {
	if !hasASIMD {
		t.Skip("no Advanced SIMD")
	}
	e2m1 := [8]float32{0, 0.5, 1, 1.5, 2, 3, 4, 6}
	for c := range 16 {
		if nibbleValuesF32[0][c] != float32(c) || nibbleValuesF32[1][c] != float32(c-16*(c>>3)) ||
			nibbleValuesF32[2][c] != element.NF4Codes[c] {
			t.Errorf("code %d: u4/i4/nf4 tables %v %v %v", c, nibbleValuesF32[0][c], nibbleValuesF32[1][c], nibbleValuesF32[2][c])
		}
		w := e2m1[c&7]
		if c&8 != 0 {
			w = -w
		}
		if math.Float32bits(nibbleValuesF32[3][c]) != math.Float32bits(w) {
			t.Errorf("f4e2m1 code %#x: table %v, want %v", c, nibbleValuesF32[3][c], w)
		}
	}
}
