//go:build gc && !purego

package kernels

import "golang.org/x/sys/unix"

// Linux's auxiliary vector entry for the second hardware-capability word, and its FEAT_BF16 bit
// (arch/arm64/include/uapi/asm/hwcap.h).
const (
	atHWCAP2   = 26
	hwcap2BF16 = 1 << 14
)

// cpuHasBF16 reports whether the kernel says the CPU has FEAT_BF16 (BFCVTN, BFDOT, ...).
// golang.org/x/sys/cpu does not export this flag.
func cpuHasBF16() bool {
	av, err := unix.Auxv()
	if err != nil {
		return false
	}
	for _, kv := range av {
		if kv[0] == atHWCAP2 {
			return kv[1]&hwcap2BF16 != 0
		}
	}
	return false
}
