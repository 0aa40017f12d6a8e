package onnxruntime

import "github.com/convertpromote/convertpromote/element"

// fnuzType maps the FNUZ float8 types, which OpenVINO lacks and ONNX has.
func fnuzType(t element.Type) (DataType, bool) {
	switch t {
	case element.F8E4M3FNUZ:
		return Float8E4M3FNUZ, true
	case element.F8E5M2FNUZ:
		return Float8E5M2FNUZ, true
	}
	return 0, false
}
