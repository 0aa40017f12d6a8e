// Package checkpoint reads, converts, dequantizes and quantizes Hugging Face checkpoints: a
// directory of safetensors shards with its model.safetensors.index.json, config.json and
// other files, or one .safetensors file. It gives the tensors of package safetensors their
// meaning: which tensors are quantized weights and which are their scales, under each scheme
// (Plain, DeepSeekFP8, CompressedFP8, GptOssMXFP4, ModelOptNVFP4, CompressedNVFP4), how their
// names and shapes change when dequantized, and what config.json and the index say.
//
// Every value is computed by package quant (the scaled formats) or kernels (casts); this
// package only moves bytes, in chunks read from the input shards and written at their offsets
// in the output shards, so that a checkpoint of any size converts in bounded memory
// (MaxMemory) with any number of goroutines. Outputs are written atomically, the index last.
// See docs/safetensors.md for the rules and docs/SEMANTICS.md §9.7 for the arithmetic.
package checkpoint
