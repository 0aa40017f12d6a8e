//go:build purego || !(amd64 || arm64)

package kernels

import "github.com/convertpromote/convertpromote/element"

// blockDecoder returns path p's kernel for decoding whole blocks of f to type to, or nil: this
// build has none.
func blockDecoder(p Path, f BlockFormat, to element.Type) blockDecodeFunc { return nil }

// blockEncoder returns path p's kernel for encoding type from into whole blocks of f, or nil:
// this build has none.
func blockEncoder(p Path, f BlockFormat, from element.Type) blockEncodeFunc { return nil }
