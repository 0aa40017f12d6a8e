package onnxruntime

import (
	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// fnuzTypes are the float8 types outside OpenVINO's set that ONNX Runtime also converts.
var fnuzTypes = []element.Type{element.F8E4M3FNUZ, element.F8E5M2FNUZ}

func fnuzFormat(t element.Type) (f8format, bool) {
	switch t {
	case element.F8E4M3FNUZ:
		return fmtE4M3FNUZ, true
	case element.F8E5M2FNUZ:
		return fmtE5M2FNUZ, true
	}
	return f8format{}, false
}

// onnxRules are convertpromote's onnx rules with the Cast attributes a.
func onnxRules(a CastAttrs) kernels.Rules {
	r := kernels.Rules{Set: kernels.ONNX, NoSaturate: a.NoSaturate}
	switch a.RoundMode {
	case "down":
		r.E8M0Round = kernels.RoundDown
	case "nearest":
		r.E8M0Round = kernels.RoundNearest
	}
	return r
}

func onnxConvert(a CastAttrs) func(dst []byte, to element.Type, src []byte, from element.Type, n int) error {
	return kernels.Converter{Rules: onnxRules(a)}.Convert
}
