//go:build !linux

package cpu

// hwcapBF16 reports false off Linux: there is no auxiliary vector to read.
func hwcapBF16() bool { return false }
