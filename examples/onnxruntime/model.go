package main

import "google.golang.org/protobuf/encoding/protowire"

// The model is written as ONNX protobuf with protowire, field by field, so that the example
// needs no generated ONNX package. Field numbers are those of onnx.proto (ONNX 1.x).

// ONNX element types (TensorProto.DataType).
const (
	onnxFloat    = 1
	onnxFloat16  = 10
	onnxBFloat16 = 16
)

// message is a protobuf message under construction.
type message []byte

func (m message) varint(field protowire.Number, v uint64) message {
	m = protowire.AppendTag(m, field, protowire.VarintType)
	return protowire.AppendVarint(m, v)
}

func (m message) str(field protowire.Number, s string) message {
	m = protowire.AppendTag(m, field, protowire.BytesType)
	return protowire.AppendString(m, s)
}

func (m message) sub(field protowire.Number, sub message) message {
	m = protowire.AppendTag(m, field, protowire.BytesType)
	return protowire.AppendBytes(m, sub)
}

// valueInfo is a ValueInfoProto: a named tensor of an element type and a static shape.
func valueInfo(name string, elemType int, dims ...int64) message {
	var shape message
	for _, d := range dims {
		shape = shape.sub(1, message(nil).varint(1, uint64(d))) // TensorShapeProto.dim{dim_value}
	}
	tensor := message(nil).varint(1, uint64(elemType)).sub(2, shape) // TypeProto.Tensor
	typ := message(nil).sub(1, tensor)                               // TypeProto.tensor_type
	return message(nil).str(1, name).sub(2, typ)
}

// node is a NodeProto; cast, when not zero, adds the attribute to (AttributeProto type INT).
func node(op string, inputs []string, output string, castTo int) message {
	var n message
	for _, in := range inputs {
		n = n.str(1, in)
	}
	n = n.str(2, output).str(3, output).str(4, op)
	if castTo != 0 {
		attr := message(nil).str(1, "to").varint(3, uint64(castTo)).varint(20, 2)
		n = n.sub(5, attr)
	}
	return n
}

// buildModel returns a ModelProto with two independent computations of Y = X·W + B over
// inputs of shape [rows, cols] (B: [cols], broadcast over the rows):
//
//   - Y16 from X16, W16, B16, all f16, with Mul and Add on f16 tensors;
//   - YBF from XBF, WBF, BBF, all bf16. ONNX Runtime's CPU provider has no bf16 kernels for Mul
//     and Add, so the graph casts the inputs to f32, computes in f32 and casts the result back
//     to bf16: the bf16 values are the graph's inputs and outputs, the arithmetic is f32.
func buildModel(rows, cols int64) []byte {
	var g message
	g = g.sub(1, node("Mul", []string{"X16", "W16"}, "XW16", 0))
	g = g.sub(1, node("Add", []string{"XW16", "B16"}, "Y16", 0))
	for _, in := range []string{"XBF", "WBF", "BBF"} {
		g = g.sub(1, node("Cast", []string{in}, in+"_f32", onnxFloat))
	}
	g = g.sub(1, node("Mul", []string{"XBF_f32", "WBF_f32"}, "XWBF_f32", 0))
	g = g.sub(1, node("Add", []string{"XWBF_f32", "BBF_f32"}, "YBF_f32", 0))
	g = g.sub(1, node("Cast", []string{"YBF_f32"}, "YBF", onnxBFloat16))
	g = g.str(2, "convertpromote_example")
	for _, in := range []struct {
		name string
		typ  int
		dims []int64
	}{
		{"X16", onnxFloat16, []int64{rows, cols}}, {"W16", onnxFloat16, []int64{rows, cols}}, {"B16", onnxFloat16, []int64{cols}},
		{"XBF", onnxBFloat16, []int64{rows, cols}}, {"WBF", onnxBFloat16, []int64{rows, cols}}, {"BBF", onnxBFloat16, []int64{cols}},
	} {
		g = g.sub(11, valueInfo(in.name, in.typ, in.dims...))
	}
	g = g.sub(12, valueInfo("Y16", onnxFloat16, rows, cols))
	g = g.sub(12, valueInfo("YBF", onnxBFloat16, rows, cols))

	var m message
	m = m.varint(1, 8) // ir_version 8
	m = m.str(2, "convertpromote example")
	m = m.sub(7, g)
	m = m.sub(8, message(nil).str(1, "").varint(2, 17)) // opset_import: ai.onnx 17
	return m
}
