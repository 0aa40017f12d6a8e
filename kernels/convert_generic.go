package kernels

import "github.com/convertpromote/convertpromote/element"

// genericKernel returns the pure-Go loop for the pair, or nil for an unsupported pair.
// PLACEHOLDER: replaced by the pure-Go conversion work (issue 3).
func genericKernel(from, to element.Type) loopFunc { return nil }
