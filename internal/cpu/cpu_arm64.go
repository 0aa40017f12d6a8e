package cpu

import xcpu "golang.org/x/sys/cpu"

func init() {
	ARM64.HasASIMD = xcpu.ARM64.HasASIMD
	ARM64.HasFPHP, ARM64.HasASIMDHP = xcpu.ARM64.HasFPHP, xcpu.ARM64.HasASIMDHP
	ARM64.HasBF16 = hwcapBF16()
}
