package onnxruntime

import "github.com/convertpromote/convertpromote/element"

// fnuzType maps the FNUZ float8 types; element gains them with the rule sets.
func fnuzType(t element.Type) (DataType, bool) { return 0, false }
