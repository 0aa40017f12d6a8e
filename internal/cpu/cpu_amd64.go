package cpu

import xcpu "golang.org/x/sys/cpu"

func init() {
	x := &xcpu.X86
	X86.HasAVX, X86.HasAVX2, X86.HasF16C, X86.HasFMA, X86.HasBMI2 = x.HasAVX, x.HasAVX2, x.HasF16C, x.HasFMA, x.HasBMI2
	X86.HasAVX512F, X86.HasAVX512BW, X86.HasAVX512VL = x.HasAVX512F, x.HasAVX512BW, x.HasAVX512VL
	X86.HasAVX512DQ, X86.HasAVX512VBMI, X86.HasAVX512BF16 = x.HasAVX512DQ, x.HasAVX512VBMI, x.HasAVX512BF16
}
