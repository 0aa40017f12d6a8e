//go:build !purego

package kernels

import "github.com/convertpromote/convertpromote/element"

// The NEON block kernels (in kernels_arm64.s). Each converts steps·32 elements, as the pure-Go loop
// in its comment does; blockSet runs a last block that does not fill a step on the pure-Go loop.

// blockmxfp4ToF32NEON decodes steps·32 elements of mxfp4 to f32, as
//
//	decodeBlocksGeneric(dst, element.F32, codes, scales, MXFP4, steps*32)
//
//go:noescape
func blockmxfp4ToF32NEON(dst, codes, scales []byte, steps int)

// blockmxfp4ToF16NEON decodes steps·32 elements of mxfp4 to f16, as
//
//	decodeBlocksGeneric(dst, element.F16, codes, scales, MXFP4, steps*32)
//
//go:noescape
func blockmxfp4ToF16NEON(dst, codes, scales []byte, steps int)

// blockmxfp4ToBF16NEON decodes steps·32 elements of mxfp4 to bf16, as
//
//	decodeBlocksGeneric(dst, element.BF16, codes, scales, MXFP4, steps*32)
//
//go:noescape
func blockmxfp4ToBF16NEON(dst, codes, scales []byte, steps int)

// blocknvfp4ToF32NEON decodes steps·32 elements of nvfp4 to f32, as
//
//	decodeBlocksGeneric(dst, element.F32, codes, scales, NVFP4, steps*32)
//
//go:noescape
func blocknvfp4ToF32NEON(dst, codes, scales []byte, steps int)

// blocknvfp4ToF16NEON decodes steps·32 elements of nvfp4 to f16, as
//
//	decodeBlocksGeneric(dst, element.F16, codes, scales, NVFP4, steps*32)
//
//go:noescape
func blocknvfp4ToF16NEON(dst, codes, scales []byte, steps int)

// blocknvfp4ToBF16NEON decodes steps·32 elements of nvfp4 to bf16, as
//
//	decodeBlocksGeneric(dst, element.BF16, codes, scales, NVFP4, steps*32)
//
//go:noescape
func blocknvfp4ToBF16NEON(dst, codes, scales []byte, steps int)

// blockmxfp8e4m3ToF32NEON decodes steps·32 elements of mxfp8e4m3 to f32, as
//
//	decodeBlocksGeneric(dst, element.F32, codes, scales, MXFP8E4M3, steps*32)
//
//go:noescape
func blockmxfp8e4m3ToF32NEON(dst, codes, scales []byte, steps int)

// blockmxfp8e4m3ToBF16NEON decodes steps·32 elements of mxfp8e4m3 to bf16, as
//
//	decodeBlocksGeneric(dst, element.BF16, codes, scales, MXFP8E4M3, steps*32)
//
//go:noescape
func blockmxfp8e4m3ToBF16NEON(dst, codes, scales []byte, steps int)

// blockF32ToMxfp4NEON encodes steps·32 f32 values into mxfp4, as
//
//	encodeBlocksGeneric(codes, scales, MXFP4, src, element.F32, steps*32)
//
//go:noescape
func blockF32ToMxfp4NEON(codes, scales, src []byte, steps int)

// blockKernelList lists the NEON block kernels with their formats and value types.
func blockKernelList() []blockKernelSpec {
	return []blockKernelSpec{
		{path: NEON, format: MXFP4, typ: element.F32, decode: blockmxfp4ToF32NEON},
		{path: NEON, format: MXFP4, typ: element.F16, decode: blockmxfp4ToF16NEON},
		{path: NEON, format: MXFP4, typ: element.BF16, decode: blockmxfp4ToBF16NEON},
		{path: NEON, format: NVFP4, typ: element.F32, decode: blocknvfp4ToF32NEON},
		{path: NEON, format: NVFP4, typ: element.F16, decode: blocknvfp4ToF16NEON},
		{path: NEON, format: NVFP4, typ: element.BF16, decode: blocknvfp4ToBF16NEON},
		{path: NEON, format: MXFP8E4M3, typ: element.F32, decode: blockmxfp8e4m3ToF32NEON},
		{path: NEON, format: MXFP8E4M3, typ: element.BF16, decode: blockmxfp8e4m3ToBF16NEON},
		{path: NEON, format: MXFP4, typ: element.F32, encode: blockF32ToMxfp4NEON},
	}
}

// blockDecoder returns path p's kernel for decoding whole blocks of f to type to, or nil.
func blockDecoder(p Path, f BlockFormat, to element.Type) blockDecodeFunc {
	return blockTables.decoder(p, f, to)
}

// blockEncoder returns path p's kernel for encoding type from into whole blocks of f, or nil.
func blockEncoder(p Path, f BlockFormat, from element.Type) blockEncodeFunc {
	return blockTables.encoder(p, f, from)
}

// blockTables holds the NEON block kernels when the CPU has NEON.
var blockTables = newBlockSet(blockKernelList())
