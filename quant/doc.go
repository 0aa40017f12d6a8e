// Package quant dequantizes and quantizes 1-D tensors stored as codes with one scale per group
// of consecutive elements (docs/SEMANTICS.md §9): the block-scaled formats MXFP4, MXFP8 and
// NVFP4, the compressed weights of OpenVINO IR (integer, nf4, f4 and f8 codes, f16 or other
// scales, zero points, computed in f16 as OpenVINO evaluates them; NNCF's modes), and, as a
// Scheme, any code type, scale type, zero point and group size.
//
// A Scheme says how a tensor is quantized; a Data holds its buffers. Dequantize decodes codes
// into f32, f16 or bf16 values; Quantize encodes such values into codes and scales. Each has a
// pure-Go implementation, the specification in code, and SIMD kernels (AVX2, AVX-512, NEON) for
// the schemes, value types and directions of the registry (registry.go), chosen at run time
// from the CPU's features and tested to give the same bits as the pure-Go path. A Codec runs
// them on a chosen kernels.Path. Build with the tag purego to leave all assembly out.
//
// Buffers are raw bytes in the machine's (little-endian) byte order. Errors wrap the sentinels
// of package kernels (kernels.ErrUnsupported, ErrShortBuffer, ErrOverlap, ErrInvalid,
// ErrLengthMismatch), for errors.Is.
package quant
