// Package safetensors reads and writes the safetensors file format of Hugging Face: an 8-byte
// little-endian header length, a JSON header naming each tensor's dtype, shape and byte range,
// and the tensors' little-endian, row-major bytes. It knows the format only: bytes and headers,
// never what a tensor's values are (package checkpoint gives a model's tensors their meaning).
//
// Parse and Open validate a header by the rules of the reference Rust reader
// (huggingface/safetensors), each rule an error of its own for errors.Is, and in addition
// refuse a header that names a tensor twice, which the Rust reader accepts by keeping one
// entry. A File reads a tensor's bytes on demand through io.ReaderAt, so a file of any size is
// opened in the memory its header takes (at most MaxHeaderSize bytes).
//
// A Writer declares every tensor first and then takes the data in pieces, sequentially or at
// offsets from several goroutines, so that a converter can stream a tensor of any size; Create
// writes a temporary file and renames it onto the target only when every byte is written.
//
// The dtypes are the format's 22 (DTypes), including the float8 types, F8_E8M0, the 4-bit F4
// (two elements a byte, the first in the low nibble) and the 6-bit F6 types; Element and
// DTypeOf map them to element types. See docs/safetensors.md.
package safetensors
