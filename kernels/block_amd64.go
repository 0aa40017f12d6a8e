//go:build !purego

package kernels

import "github.com/convertpromote/convertpromote/element"

// blockDecoder returns path p's kernel for decoding whole blocks of f to type to, or nil.
func blockDecoder(p Path, f BlockFormat, to element.Type) blockDecodeFunc {
	return blockTables.decoder(p, f, to)
}

// blockEncoder returns path p's kernel for encoding type from into whole blocks of f, or nil.
func blockEncoder(p Path, f BlockFormat, from element.Type) blockEncodeFunc {
	return blockTables.encoder(p, f, from)
}

// blockTables holds the generated block kernels (block_stubs_amd64.go) of the paths this CPU
// has.
var blockTables = newBlockSet(blockKernelList())
