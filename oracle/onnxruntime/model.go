// Package onnxruntime runs ONNX Runtime's own Cast operator on raw tensor bytes, so that the
// conversions of package kernels can be checked against an implementation written elsewhere.
//
// It is a separate module because it needs cgo and the ONNX Runtime shared library; the main
// module stays pure Go. The tests of this package compare ONNX Runtime with kernels.Converter bit
// for bit and name every difference.
package onnxruntime

import (
	"fmt"

	"github.com/convertpromote/convertpromote/element"
	"google.golang.org/protobuf/encoding/protowire"
)

// DataType is an ONNX TensorProto.DataType code.
type DataType int32

// The ONNX data types that have an element.Type counterpart.
const (
	Float          DataType = 1
	Uint8          DataType = 2
	Int8           DataType = 3
	Uint16         DataType = 4
	Int16          DataType = 5
	Int32          DataType = 6
	Int64          DataType = 7
	Bool           DataType = 9
	Float16        DataType = 10
	Double         DataType = 11
	Uint32         DataType = 12
	Uint64         DataType = 13
	BFloat16       DataType = 16
	Float8E4M3FN   DataType = 17
	Float8E4M3FNUZ DataType = 18
	Float8E5M2     DataType = 19
	Float8E5M2FNUZ DataType = 20
	Uint4          DataType = 21
	Int4           DataType = 22
	Float4E2M1     DataType = 23
	Float8E8M0     DataType = 24
)

// Opset is the ONNX operator set the Cast models import: Cast-25, the first version whose
// round_mode attribute and float8e8m0 type ONNX Runtime 1.30 implements on the CPU.
const Opset = 25

// irVersion is the ONNX IR version that goes with opset 25 (ONNX 1.20).
const irVersion = 13

// ONNXType returns the ONNX data type of t, and false for a type ONNX lacks (packed types
// other than 4-bit integers and f4e2m1, nf4, string, complex types, dynamic).
func ONNXType(t element.Type) (DataType, bool) {
	switch t {
	case element.F32:
		return Float, true
	case element.U8:
		return Uint8, true
	case element.I8:
		return Int8, true
	case element.U16:
		return Uint16, true
	case element.I16:
		return Int16, true
	case element.I32:
		return Int32, true
	case element.I64:
		return Int64, true
	case element.Boolean:
		return Bool, true
	case element.F16:
		return Float16, true
	case element.F64:
		return Double, true
	case element.U32:
		return Uint32, true
	case element.U64:
		return Uint64, true
	case element.BF16:
		return BFloat16, true
	case element.F8E4M3:
		return Float8E4M3FN, true
	case element.F8E5M2:
		return Float8E5M2, true
	case element.U4:
		return Uint4, true
	case element.I4:
		return Int4, true
	case element.F4E2M1:
		return Float4E2M1, true
	case element.F8E8M0:
		return Float8E8M0, true
	case element.F8E4M3FNUZ:
		return Float8E4M3FNUZ, true
	case element.F8E5M2FNUZ:
		return Float8E5M2FNUZ, true
	}
	return 0, false
}

// CastAttrs are the Cast attributes besides `to`.
type CastAttrs struct {
	// NoSaturate writes saturate=0 (the default is 1). The attribute is written only for
	// float8 targets, the only ones it applies to.
	NoSaturate bool
	// RoundMode is "up", "down" or "nearest"; empty leaves the attribute out (default "up").
	// It is written only for the float8e8m0 target.
	RoundMode string
}

func isFloat8(t DataType) bool {
	return t >= Float8E4M3FN && t <= Float8E5M2FNUZ || t == Float8E8M0
}

// CastModel returns an ONNX model (a serialized ModelProto) with one input "x" of type from, one
// Cast node to type to and one output "y". Both tensors have rank 1 and a symbolic length, so one
// session runs any number of elements.
func CastModel(from, to DataType, a CastAttrs) ([]byte, error) {
	if a.RoundMode != "" && a.RoundMode != "up" && a.RoundMode != "down" && a.RoundMode != "nearest" {
		return nil, fmt.Errorf("cast model: round_mode %q is not up, down or nearest", a.RoundMode)
	}
	var node []byte
	node = protowire.AppendTag(node, 1, protowire.BytesType) // input
	node = protowire.AppendString(node, "x")
	node = protowire.AppendTag(node, 2, protowire.BytesType) // output
	node = protowire.AppendString(node, "y")
	node = protowire.AppendTag(node, 3, protowire.BytesType) // name
	node = protowire.AppendString(node, "cast")
	node = protowire.AppendTag(node, 4, protowire.BytesType) // op_type
	node = protowire.AppendString(node, "Cast")
	node = appendMessage(node, 5, intAttr("to", int64(to)))
	if isFloat8(to) {
		sat := int64(1)
		if a.NoSaturate {
			sat = 0
		}
		node = appendMessage(node, 5, intAttr("saturate", sat))
	}
	if to == Float8E8M0 && a.RoundMode != "" {
		node = appendMessage(node, 5, stringAttr("round_mode", a.RoundMode))
	}

	var graph []byte
	graph = appendMessage(graph, 1, node)
	graph = protowire.AppendTag(graph, 2, protowire.BytesType) // name
	graph = protowire.AppendString(graph, "cast")
	graph = appendMessage(graph, 11, valueInfo("x", from))
	graph = appendMessage(graph, 12, valueInfo("y", to))

	var opset []byte
	opset = protowire.AppendTag(opset, 1, protowire.BytesType) // domain: the default one
	opset = protowire.AppendString(opset, "")
	opset = protowire.AppendTag(opset, 2, protowire.VarintType)
	opset = protowire.AppendVarint(opset, Opset)

	var model []byte
	model = protowire.AppendTag(model, 1, protowire.VarintType) // ir_version
	model = protowire.AppendVarint(model, irVersion)
	model = protowire.AppendTag(model, 2, protowire.BytesType) // producer_name
	model = protowire.AppendString(model, "convertpromote-oracle")
	model = appendMessage(model, 7, graph)
	model = appendMessage(model, 8, opset)
	return model, nil
}

func appendMessage(b []byte, field protowire.Number, msg []byte) []byte {
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}

// AttributeProto.AttributeType values.
const (
	attrInt    = 2
	attrString = 3
)

func intAttr(name string, v int64) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, name)
	b = protowire.AppendTag(b, 3, protowire.VarintType) // i
	b = protowire.AppendVarint(b, uint64(v))
	b = protowire.AppendTag(b, 20, protowire.VarintType) // type
	return protowire.AppendVarint(b, attrInt)
}

func stringAttr(name, v string) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, name)
	b = protowire.AppendTag(b, 4, protowire.BytesType) // s
	b = protowire.AppendString(b, v)
	b = protowire.AppendTag(b, 20, protowire.VarintType) // type
	return protowire.AppendVarint(b, attrString)
}

// valueInfo is a ValueInfoProto for a rank-1 tensor of type t and symbolic length "n".
func valueInfo(name string, t DataType) []byte {
	var dim []byte
	dim = protowire.AppendTag(dim, 2, protowire.BytesType) // dim_param
	dim = protowire.AppendString(dim, "n")
	var shape []byte
	shape = appendMessage(shape, 1, dim)
	var tensor []byte
	tensor = protowire.AppendTag(tensor, 1, protowire.VarintType) // elem_type
	tensor = protowire.AppendVarint(tensor, uint64(t))
	tensor = appendMessage(tensor, 2, shape)
	var typ []byte
	typ = appendMessage(typ, 1, tensor) // tensor_type
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, name)
	return appendMessage(b, 2, typ)
}
