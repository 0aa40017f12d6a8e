// Package element defines the element types of OpenVINO tensors (plus the complex types that the
// framework promotion policies need) and their properties: names, bit widths, OpenVINO's
// real/signed/quantized predicates, integer ranges, float formats and packed buffer sizes.
//
// It is the leaf of the module: it imports none of the module's packages, and every package that
// handles element types imports it (all but internal/atomicfile and internal/membound).
package element

import (
	"fmt"
	"math"
	"strings"
)

// Type is an element type. The zero value is Dynamic.
type Type uint8

// The element types of OpenVINO, in OpenVINO's enum order, followed by the complex types that
// OpenVINO lacks but PyTorch, NumPy, JAX, TensorFlow and Paddle have, and the FNUZ float8 types
// of ONNX and ml_dtypes, which OpenVINO also lacks (see InOpenVINO).
const (
	Dynamic    Type = iota // unknown element type ("dynamic"; IR "UNSPECIFIED", "undefined")
	Boolean                // 8-bit boolean, one byte per value
	BF16                   // bfloat16: 1 sign, 8 exponent, 7 mantissa bits
	F16                    // IEEE 754 binary16
	F32                    // IEEE 754 binary32
	F64                    // IEEE 754 binary64
	I4                     // 4-bit two's-complement integer, packed two per byte, low nibble first
	I8                     // 8-bit signed integer
	I16                    // 16-bit signed integer
	I32                    // 32-bit signed integer
	I64                    // 64-bit signed integer
	U1                     // 1-bit unsigned integer, packed eight per byte, most significant bit first
	U2                     // 2-bit unsigned integer, packed four per byte, most significant bits first
	U3                     // 3-bit unsigned integer, packed eight per 3-byte group
	U4                     // 4-bit unsigned integer, packed two per byte, low nibble first
	U6                     // 6-bit unsigned integer, packed four per 3-byte group
	U8                     // 8-bit unsigned integer
	U16                    // 16-bit unsigned integer
	U32                    // 32-bit unsigned integer
	U64                    // 64-bit unsigned integer
	NF4                    // 4-bit NormalFloat: 16 fixed code values, packed like U4
	F8E4M3                 // 8-bit float E4M3FN: bias 7, no infinity, NaN S.1111.111, max 448
	F8E5M2                 // 8-bit float E5M2: bias 15, IEEE-like with infinities, max 57344
	String                 // variable-length string (not convertible)
	F4E2M1                 // 4-bit float E2M1: ±{0, .5, 1, 1.5, 2, 3, 4, 6}, packed like U4
	F8E8M0                 // 8-bit exponent-only scale: 2^(e-127), 0xFF is NaN
	C32                    // complex of two f16 (PyTorch's complex32)
	C64                    // complex of two f32
	C128                   // complex of two f64
	F8E4M3FNUZ             // 8-bit float E4M3FNUZ: bias 8, no infinity, no -0, NaN 0x80 only, max 240
	F8E5M2FNUZ             // 8-bit float E5M2FNUZ: bias 16, no infinity, no -0, NaN 0x80 only, max 57344

	numTypes = iota
)

type info struct {
	name      string // canonical (OpenVINO type_name) spelling
	ir        string // OpenVINO IR port precision spelling
	aliases   []string
	bits      int
	real      bool
	signed    bool
	quantized bool
}

var infos = [numTypes]info{
	Dynamic: {"dynamic", "UNSPECIFIED", []string{"undefined"}, 0, false, false, false},
	Boolean: {"boolean", "BOOL", []string{"bool"}, 8, false, true, false},
	BF16:    {"bf16", "BF16", []string{"bfloat16"}, 16, true, true, false},
	F16:     {"f16", "FP16", []string{"float16", "half"}, 16, true, true, false},
	F32:     {"f32", "FP32", []string{"float32", "float"}, 32, true, true, false},
	F64:     {"f64", "FP64", []string{"float64", "double"}, 64, true, true, false},
	I4:      {"i4", "I4", []string{"int4"}, 4, false, true, true},
	I8:      {"i8", "I8", []string{"int8"}, 8, false, true, true},
	I16:     {"i16", "I16", []string{"int16"}, 16, false, true, false},
	I32:     {"i32", "I32", []string{"int32"}, 32, false, true, true},
	I64:     {"i64", "I64", []string{"int64"}, 64, false, true, false},
	U1:      {"u1", "BIN", []string{"U1"}, 1, false, false, false},
	U2:      {"u2", "U2", []string{"uint2"}, 2, false, false, false},
	U3:      {"u3", "U3", nil, 3, false, false, false},
	U4:      {"u4", "U4", []string{"uint4"}, 4, false, false, false},
	U6:      {"u6", "U6", nil, 6, false, false, false},
	U8:      {"u8", "U8", []string{"uint8"}, 8, false, false, true},
	U16:     {"u16", "U16", []string{"uint16"}, 16, false, false, false},
	U32:     {"u32", "U32", []string{"uint32"}, 32, false, false, false},
	U64:     {"u64", "U64", []string{"uint64"}, 64, false, false, false},
	NF4:     {"nf4", "NF4", nil, 4, false, false, true},
	F8E4M3:  {"f8e4m3", "F8E4M3", []string{"float8_e4m3fn"}, 8, true, true, true},
	F8E5M2:  {"f8e5m2", "F8E5M2", []string{"float8_e5m2"}, 8, true, true, true},
	String:  {"string", "STRING", nil, 8, false, false, false},
	F4E2M1:  {"f4e2m1", "F4E2M1", []string{"float4_e2m1fn"}, 4, true, true, true},
	F8E8M0:  {"f8e8m0", "F8E8M0", []string{"float8_e8m0fnu"}, 8, true, true, true},
	C32:     {"c32", "C32", []string{"complex32"}, 32, false, true, false},
	C64:     {"c64", "C64", []string{"complex64"}, 64, false, true, false},
	C128:    {"c128", "C128", []string{"complex128"}, 128, false, true, false},
	// ONNX FLOAT8E4M3FNUZ and FLOAT8E5M2FNUZ; the aliases are ml_dtypes' names.
	F8E4M3FNUZ: {"f8e4m3fnuz", "F8E4M3FNUZ", []string{"float8_e4m3fnuz"}, 8, true, true, false},
	F8E5M2FNUZ: {"f8e5m2fnuz", "F8E5M2FNUZ", []string{"float8_e5m2fnuz"}, 8, true, true, false},
}

// All returns every element type, Dynamic first, in declaration order.
func All() []Type {
	ts := make([]Type, numTypes)
	for i := range ts {
		ts[i] = Type(i)
	}
	return ts
}

// Valid reports whether t is one of the declared types.
func (t Type) Valid() bool { return int(t) < numTypes }

// String returns the canonical lowercase name ("f32", "boolean", "u1", "c64"). An out-of-range
// value prints as "element.Type(N)".
func (t Type) String() string {
	if !t.Valid() {
		return fmt.Sprintf("element.Type(%d)", uint8(t))
	}
	return infos[t].name
}

// IRPrecision returns the spelling OpenVINO writes in a port's precision attribute
// ("FP32", "I64", "BIN" for u1, "BOOL", "NF4", "F8E4M3", "UNSPECIFIED" for dynamic). The types
// OpenVINO lacks (see InOpenVINO) return their names in capitals ("C64", "F8E4M3FNUZ"), which
// the IR reader rejects.
func (t Type) IRPrecision() string {
	if !t.Valid() {
		return t.String()
	}
	return infos[t].ir
}

// MarshalText implements encoding.TextMarshaler with the canonical name.
func (t Type) MarshalText() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("element: invalid type %d", uint8(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with Parse.
func (t *Type) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

var byName = func() map[string]Type {
	m := make(map[string]Type)
	for i := range infos {
		t := Type(i)
		in := infos[i]
		m[strings.ToLower(in.name)] = t
		m[strings.ToLower(in.ir)] = t
		for _, a := range in.aliases {
			m[strings.ToLower(a)] = t
		}
	}
	return m
}()

// Names returns the canonical names of all types, in declaration order.
func Names() []string {
	ns := make([]string, numTypes)
	for i := range ns {
		ns[i] = infos[i].name
	}
	return ns
}

// Parse reads a type name, case-insensitively: the canonical names ("f32", "boolean"), OpenVINO's
// IR spellings ("FP32", "BOOL", "BIN" for u1, "I64", "UNSPECIFIED" and "undefined" for dynamic),
// "complex32/64/128" for the complex types, and the NumPy, PyTorch and ml_dtypes spellings:
// "bool", "float16", "bfloat16", "float32", "float64", "int4".."int64", "uint2", "uint4",
// "uint8".."uint64", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "float4_e2m1fn", and
// PyTorch's "half" (f16), "float" (f32) and "double" (f64). An unknown name is an error that
// quotes it and lists the valid names.
func Parse(s string) (Type, error) {
	if t, ok := byName[strings.ToLower(strings.TrimSpace(s))]; ok {
		return t, nil
	}
	return Dynamic, fmt.Errorf("unknown element type %q (valid: %s)", s, strings.Join(Names(), ", "))
}

// MustParse is Parse for names known to be valid; it panics on an unknown name.
func MustParse(s string) Type {
	t, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return t
}

// Bits returns the bit width of one element: 1 for u1, 4 for i4/u4/nf4/f4e2m1, 3 for u3, 6 for u6,
// 8 for boolean, 128 for c128, 0 for dynamic. String reports 8 (one byte per stored offset unit);
// OpenVINO reports sizeof(std::string), which is meaningless here.
func (t Type) Bits() int {
	if !t.Valid() {
		return 0
	}
	return infos[t].bits
}

// IsDynamic reports whether t is Dynamic.
func (t Type) IsDynamic() bool { return t == Dynamic }

// IsStatic reports whether t is a known, non-dynamic type.
func (t Type) IsStatic() bool { return t.Valid() && t != Dynamic }

// IsReal reports whether t is a real floating-point type in OpenVINO's sense: f16, bf16, f32, f64,
// f8e4m3, f8e5m2, f8e8m0 and f4e2m1, and also f8e4m3fnuz and f8e5m2fnuz. nf4 is not real
// (OpenVINO's table says so), nor are the complex types.
func (t Type) IsReal() bool { return t.Valid() && infos[t].real }

// IsSigned reports OpenVINO's is_signed: every real type, every i* type and boolean (OpenVINO's
// table marks boolean signed); u*, nf4, string and dynamic are not. Complex types are signed.
func (t Type) IsSigned() bool { return t.Valid() && infos[t].signed }

// IsQuantized reports OpenVINO's is_quantized: i4, i8, i32, u8, nf4, f8e4m3, f8e5m2, f8e8m0 and
// f4e2m1.
func (t Type) IsQuantized() bool { return t.Valid() && infos[t].quantized }

// IsIntegral reports OpenVINO's is_integral (!is_real) for static, non-complex, non-string types:
// boolean, the i* and u* types and nf4.
func (t Type) IsIntegral() bool {
	return t.IsStatic() && !infos[t].real && !t.IsComplex() && t != String
}

// IsIntegralNumber is IsIntegral without boolean.
func (t Type) IsIntegralNumber() bool { return t.IsIntegral() && t != Boolean }

// IsInteger reports whether t is one of the i* or u* integer types (not boolean, not nf4).
func (t Type) IsInteger() bool {
	switch t {
	case I4, I8, I16, I32, I64, U1, U2, U3, U4, U6, U8, U16, U32, U64:
		return true
	}
	return false
}

// InOpenVINO reports whether t is one of OpenVINO's element types: every declared type except
// the complex types (c32, c64, c128) and the FNUZ float8 types (f8e4m3fnuz, f8e5m2fnuz).
func (t Type) InOpenVINO() bool { return t.Valid() && !t.IsComplex() && !t.IsFNUZ() }

// IsFNUZ reports whether t is f8e4m3fnuz or f8e5m2fnuz: the float8 types with a single NaN
// (0x80), no infinity and no negative zero.
func (t Type) IsFNUZ() bool { return t == F8E4M3FNUZ || t == F8E5M2FNUZ }

// IsComplex reports whether t is c32, c64 or c128.
func (t Type) IsComplex() bool { return t == C32 || t == C64 || t == C128 }

// IsFloat reports whether t is a real floating-point type (IsReal) or nf4: the types whose values
// are decoded through a float.
func (t Type) IsFloat() bool { return t.IsReal() || t == NF4 }

// IsPacked reports whether several elements share a byte (bit width below 8).
func (t Type) IsPacked() bool { b := t.Bits(); return b > 0 && b < 8 }

// ComplexPart returns the float type of each part of a complex type (f16, f32, f64) and false for
// other types.
func (t Type) ComplexPart() (Type, bool) {
	switch t {
	case C32:
		return F16, true
	case C64:
		return F32, true
	case C128:
		return F64, true
	}
	return Dynamic, false
}

// ByteSize returns the bytes needed for n elements of t: ceil(n·bits/8), except u3 and u6, which
// are stored in whole 3-byte groups (8 u3 or 4 u6 values a group). It returns an error for a
// negative n, for Dynamic and String, and when the size overflows int64.
func (t Type) ByteSize(n int64) (int64, error) {
	if n < 0 {
		return 0, fmt.Errorf("element: negative element count %d", n)
	}
	switch t {
	case Dynamic, String:
		return 0, fmt.Errorf("element: %s has no fixed byte size", t)
	case U3:
		groups := n/8 + boolInt(n%8 != 0)
		return mulCheck(groups, 3)
	case U6:
		groups := n/4 + boolInt(n%4 != 0)
		return mulCheck(groups, 3)
	}
	if !t.Valid() {
		return 0, fmt.Errorf("element: invalid type %d", uint8(t))
	}
	bits := int64(t.Bits())
	if bits%8 == 0 {
		return mulCheck(n, bits/8)
	}
	per := 8 / bits // 8, 4 or 2 elements a byte
	return n/per + boolInt(n%per != 0), nil
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func mulCheck(a, b int64) (int64, error) {
	if a != 0 && b > math.MaxInt64/a {
		return 0, fmt.Errorf("element: byte size of %d elements overflows int64", a)
	}
	return a * b, nil
}

// IntRange returns the smallest and largest value of an integer type (boolean: 0 and 1) and
// true; for other types it returns false. The maximum of u64 does not fit int64, so max is a
// uint64.
func (t Type) IntRange() (min int64, max uint64, ok bool) {
	switch t {
	case Boolean:
		return 0, 1, true
	case I4, I8, I16, I32, I64:
		b := uint(t.Bits())
		return -1 << (b - 1), 1<<(b-1) - 1, true
	case U1, U2, U3, U4, U6, U8, U16, U32:
		return 0, 1<<uint(t.Bits()) - 1, true
	case U64:
		return 0, math.MaxUint64, true
	}
	return 0, 0, false
}
