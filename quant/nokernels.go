//go:build !gc || purego || !(amd64 || arm64)

package quant

// ownPaths are the paths this build has kernels for: none without assembly.
const ownPaths pathSet = 0

// kernelList lists the kernels of this build: none without assembly.
func kernelList() []kernelSpec { return nil }
