//go:build gc && !purego

package quant

import (
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// ownPaths are the paths this architecture has kernels for, whether or not the CPU runs them.
const ownPaths = onNEON

// The NEON kernels (quant_arm64.s). Each converts steps·32 elements, as the pure-Go call in its
// comment does (its row's loop; TestStubLoops checks them); the call runs the elements after the
// last whole step on the pure-Go loop.

// mxfp4ToF32NEON dequantizes steps·32 elements of mxfp4 to f32, as
//
//	decodeGeneric(dst, element.F32, codes, scales, MXFP4, steps*32)
//
//go:noescape
func mxfp4ToF32NEON(dst, codes, scales []byte, steps int)

// mxfp4ToF16NEON dequantizes steps·32 elements of mxfp4 to f16, as
//
//	decodeGeneric(dst, element.F16, codes, scales, MXFP4, steps*32)
//
//go:noescape
func mxfp4ToF16NEON(dst, codes, scales []byte, steps int)

// mxfp4ToBF16NEON dequantizes steps·32 elements of mxfp4 to bf16, as
//
//	decodeGeneric(dst, element.BF16, codes, scales, MXFP4, steps*32)
//
//go:noescape
func mxfp4ToBF16NEON(dst, codes, scales []byte, steps int)

// nvfp4ToF32NEON dequantizes steps·32 elements of nvfp4 to f32, as
//
//	decodeGeneric(dst, element.F32, codes, scales, NVFP4, steps*32)
//
//go:noescape
func nvfp4ToF32NEON(dst, codes, scales []byte, steps int)

// nvfp4ToF16NEON dequantizes steps·32 elements of nvfp4 to f16, as
//
//	decodeGeneric(dst, element.F16, codes, scales, NVFP4, steps*32)
//
//go:noescape
func nvfp4ToF16NEON(dst, codes, scales []byte, steps int)

// nvfp4ToBF16NEON dequantizes steps·32 elements of nvfp4 to bf16, as
//
//	decodeGeneric(dst, element.BF16, codes, scales, NVFP4, steps*32)
//
//go:noescape
func nvfp4ToBF16NEON(dst, codes, scales []byte, steps int)

// mxfp8e4m3ToF32NEON dequantizes steps·32 elements of mxfp8e4m3 to f32, as
//
//	decodeGeneric(dst, element.F32, codes, scales, MXFP8E4M3, steps*32)
//
//go:noescape
func mxfp8e4m3ToF32NEON(dst, codes, scales []byte, steps int)

// mxfp8e4m3ToBF16NEON dequantizes steps·32 elements of mxfp8e4m3 to bf16, as
//
//	decodeGeneric(dst, element.BF16, codes, scales, MXFP8E4M3, steps*32)
//
//go:noescape
func mxfp8e4m3ToBF16NEON(dst, codes, scales []byte, steps int)

// f32ToMXFP4NEON quantizes steps·32 f32 values into mxfp4, as
//
//	encodeGeneric(codes, scales, MXFP4, src, element.F32, steps*32)
//
//go:noescape
func f32ToMXFP4NEON(codes, scales, src []byte, steps int)

// kernelList lists the NEON kernels with their schemes, value types and directions.
func kernelList() []kernelSpec {
	return []kernelSpec{
		{path: kernels.NEON, scheme: MXFP4, typ: element.F32, decode: mxfp4ToF32NEON},
		{path: kernels.NEON, scheme: MXFP4, typ: element.F16, decode: mxfp4ToF16NEON},
		{path: kernels.NEON, scheme: MXFP4, typ: element.BF16, decode: mxfp4ToBF16NEON},
		{path: kernels.NEON, scheme: NVFP4, typ: element.F32, decode: nvfp4ToF32NEON},
		{path: kernels.NEON, scheme: NVFP4, typ: element.F16, decode: nvfp4ToF16NEON},
		{path: kernels.NEON, scheme: NVFP4, typ: element.BF16, decode: nvfp4ToBF16NEON},
		{path: kernels.NEON, scheme: MXFP8E4M3, typ: element.F32, decode: mxfp8e4m3ToF32NEON},
		{path: kernels.NEON, scheme: MXFP8E4M3, typ: element.BF16, decode: mxfp8e4m3ToBF16NEON},
		{path: kernels.NEON, scheme: MXFP4, typ: element.F32, encode: f32ToMXFP4NEON},
	}
}
