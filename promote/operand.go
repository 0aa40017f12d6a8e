package promote

import (
	"fmt"
	"strings"

	"github.com/convertpromote/convertpromote/element"
)

// ParseOperand reads an operand as the CLI writes it:
//
//	TYPE            a rank-1 tensor with one dynamic dimension ("f32")
//	TYPE[]          a rank-0 tensor (a scalar)
//	TYPE[2,3]       dims: integers, "?" or -1 (dynamic), intervals "1..5", "2..", "..7"
//	TYPE[...]       dynamic rank
//	weak:TYPE…      the same, weakly typed (a weak literal, as JAX and anvil have)
//	py:bool, py:int, py:float, py:complex
//	                a Python scalar: weak, rank 0, of type boolean, i64, f64 or c128
//
// TYPE is any spelling element.Parse accepts. Errors quote the bad word.
func ParseOperand(s string) (Operand, error) {
	word := strings.TrimSpace(s)
	if rest, ok := cutPrefixFold(word, "py:"); ok {
		var t element.Type
		switch strings.ToLower(rest) {
		case "bool":
			t = element.Boolean
		case "int":
			t = element.I64
		case "float":
			t = element.F64
		case "complex":
			t = element.C128
		default:
			return Operand{}, fmt.Errorf("operand %q: unknown Python scalar %q (valid: py:bool, py:int, py:float, py:complex)", s, rest)
		}
		return Operand{Type: t, Shape: Shape{Dims: []Dim{}}, Weak: true}, nil
	}
	weak := false
	if rest, ok := cutPrefixFold(word, "weak:"); ok {
		weak, word = true, rest
	}
	name, shape := word, ""
	if i := strings.IndexByte(word, '['); i >= 0 {
		name, shape = word[:i], word[i:]
		if !strings.HasSuffix(shape, "]") {
			return Operand{}, fmt.Errorf("operand %q: shape must end with ']'", s)
		}
	}
	t, err := element.Parse(name)
	if err != nil {
		return Operand{}, fmt.Errorf("operand %q: %w", s, err)
	}
	op := Operand{Type: t, Weak: weak, Shape: Shape{Dims: []Dim{DynamicDim()}}}
	if shape != "" {
		if op.Shape, err = ParseShape(shape); err != nil {
			return Operand{}, fmt.Errorf("operand %q: %w", s, err)
		}
	}
	return op, nil
}

// String formats an operand so that ParseOperand reads it back: "f32[2,3]", "weak:i64[]".
func (o Operand) String() string {
	s := o.Type.String() + o.Shape.String()
	if o.Weak {
		s = "weak:" + s
	}
	return s
}

// String formats a result as the CLI prints it: the type name, "weak:" first when it is weak.
func (r Result) String() string {
	if r.Weak {
		return "weak:" + r.Type.String()
	}
	return r.Type.String()
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
