package cpu

import (
	"runtime"
	"testing"

	xcpu "golang.org/x/sys/cpu"
)

// TestFlags checks the flags against golang.org/x/sys/cpu, which they are read from, and that
// the other architecture's flags are all false.
func TestFlags(t *testing.T) {
	t.Logf("X86 %+v", X86)
	t.Logf("ARM64 %+v", ARM64)
	switch runtime.GOARCH {
	case "amd64":
		x := xcpu.X86
		want := [...]bool{x.HasAVX, x.HasAVX2, x.HasF16C, x.HasFMA, x.HasBMI2, x.HasAVX512F, x.HasAVX512BW,
			x.HasAVX512VL, x.HasAVX512DQ, x.HasAVX512VBMI, x.HasAVX512BF16}
		got := [...]bool{X86.HasAVX, X86.HasAVX2, X86.HasF16C, X86.HasFMA, X86.HasBMI2, X86.HasAVX512F, X86.HasAVX512BW,
			X86.HasAVX512VL, X86.HasAVX512DQ, X86.HasAVX512VBMI, X86.HasAVX512BF16}
		if got != want {
			t.Errorf("X86 flags %v, golang.org/x/sys/cpu says %v", got, want)
		}
		if ARM64.HasASIMD || ARM64.HasFPHP || ARM64.HasASIMDHP || ARM64.HasBF16 {
			t.Error("arm64 flags set on amd64")
		}
	case "arm64":
		if ARM64.HasASIMD != xcpu.ARM64.HasASIMD || ARM64.HasFPHP != xcpu.ARM64.HasFPHP || ARM64.HasASIMDHP != xcpu.ARM64.HasASIMDHP {
			t.Errorf("ARM64 flags %+v disagree with golang.org/x/sys/cpu", ARM64)
		}
		if X86.HasAVX || X86.HasAVX2 || X86.HasAVX512F {
			t.Error("x86 flags set on arm64")
		}
	}
}
