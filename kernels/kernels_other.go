//go:build (!amd64 && !arm64) || !gc || purego

package kernels

import "github.com/convertpromote/convertpromote/element"

// archPaths returns the SIMD paths this CPU can run, best first: none without assembly.
func archPaths() []Path { return nil }

// archKernel returns the SIMD kernel for the pair on path p, or nil: none without assembly.
func archKernel(p Path, from, to element.Type) loopFunc { return nil }

// archInit has nothing to set up without assembly.
func archInit() {}
