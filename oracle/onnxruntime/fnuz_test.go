package onnxruntime

import "github.com/convertpromote/convertpromote/element"

func fnuzFormat(t element.Type) (f8format, bool) { return f8format{}, false }

var fnuzTypes []element.Type
