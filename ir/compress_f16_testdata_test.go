package ir

// f32WeightsMatMul are the values of matmul_weight in testdata/ir/f32_weights.xml: ordinary
// weights, one value beyond 65504 (clamped) and one below 2^-24 (rounded to 0), so 2 of 12 are
// out of f16's range.
var f32WeightsMatMul = []float32{0.1, -0.2, 0.3, 1.0 / 3, 70000, 1e-8, -2.5, 4, 0.0625, -0.75, 1000.1, -1e-3}

// f32WeightsConsts are the Consts of testdata/ir/f32_weights.xml; TestTestdataBins generates
// and checks its .bin from them (go test ./ir -run TestTestdataBins -update).
var f32WeightsConsts = map[string][]byte{
	"matmul_weight": le(f32WeightsMatMul...),
	"precise_bias":  le[float32](0.1, 0.2, 0.3),
	"embedding":     le[float32](0, 0.5, -0.5, 1, 1.5, -1.5, 2, -2, 3.14159, 2.71828, 1.41421, 1.73205, 100, -100, 1e4, -1e4, 1e-5, -1e-5, 6e-5, 65504),
	"ids":           le[int64](4, 1),
	"gather_axis":   le[int64](0),
	"reshape_shape": le[float32](4, 2),
	// Three of four beyond 65504: 75% out of range, so it stays f32.
	"big_scale": le[float32](1e5, -1e6, 7e4, 0.5),
}

func init() { testdataBins["testdata/ir/f32_weights.xml"] = f32WeightsConsts }
