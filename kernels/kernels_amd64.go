//go:build !purego

package kernels

import "github.com/convertpromote/convertpromote/element"

// archPaths returns the SIMD paths this CPU can run, best first.
// PLACEHOLDER: replaced by the amd64 SIMD work.
func archPaths() []Path { return nil }

// archKernel returns the SIMD kernel for the pair on path p, or nil.
func archKernel(p Path, from, to element.Type) loopFunc { return nil }
