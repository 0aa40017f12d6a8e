package onnxruntime

import "github.com/convertpromote/convertpromote/element"

func fnuzFormat(t element.Type) (f8format, bool) { return f8format{}, false }

var fnuzTypes []element.Type

func onnxConvert(a CastAttrs) func(dst []byte, to element.Type, src []byte, from element.Type, n int) error {
	return nil
}
