//go:build gc && !purego && !linux

package kernels

// cpuHasBF16 reports false off Linux: there is no auxiliary vector to read, so BFCVTN is never
// used and f32 → bf16 runs the integer NEON routine.
func cpuHasBF16() bool { return false }
