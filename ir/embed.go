package ir

import (
	_ "embed"
)

//go:embed embedded/spec_examples.xml
var embeddedXML []byte

//go:embed embedded/spec_examples.bin
var embeddedBin []byte

// embeddedName is the file name Embedded gives its model (used in messages).
const embeddedName = "embedded/spec_examples.xml"

// Embedded returns a model compiled into the package: the three examples of the
// ConvertPromoteTypes-14 specification (f16[256,56] + f32[3] → f32; i16[256,56] + u32[3] with
// promote_unsafe → i64; i16[256,56] + u64[3] with promote_unsafe → u64_integer_promotion_target
// f32), each fed by Const layers whose data is compiled in too. It lets the CLI and examples run
// on a fresh checkout without any model files.
func Embedded() *Model {
	m, err := ParseBytes(embeddedXML, embeddedBin, embeddedName)
	if err != nil {
		panic("ir: the embedded model does not parse: " + err.Error())
	}
	return m
}
