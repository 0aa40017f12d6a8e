package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// The typed helpers (typed.go) and their test list (typed_helpers_test.go): one helper for
// every row, named destination first with plural type names like the scalar codecs
// (F16sFromF32s), generic over the underlying types, and documented by the row's doc.

// typedPreamble is the comment at the head of typed.go.
const typedPreamble = `// Typed helpers: one for every pair that has a SIMD kernel under OpenVINO's rules (the registry's
// pairs, and those of ruleRegistry's rows that convert as OpenVINO does). Naming:
// a slice helper reads like a scalar codec, destination first, with plural type names
// (F16sFromF32s(dst, src) converts as F16FromF32 does, element by element), and takes its
// arguments in that order. The helpers are generic over the underlying type, so a caller's
// []float16.Float16 (github.com/x448/float16) or another named type works without a copy. They
// run through Convert, so they use the same SIMD paths and goroutine split. dst and src must hold
// the same number of elements and must not share memory (not even F16sFromBF16s(x, x));
// otherwise the error wraps ErrLengthMismatch or ErrOverlap and nothing is written. A helper with
// a packed 4-bit source (u4, i4, nf4, f4e2m1) takes its element count from dst: src holds two
// codes a byte, low nibble first, and must be (len(dst)+1)/2 bytes long. Pairs without a typed
// helper convert through Convert and AsBytes.
`

// helperName returns the name of a pair's typed helper: F16sFromF32s, BoolsFromU8s.
func helperName(from, to string) string { return plural(to) + "From" + plural(from) }

// plural is an element constant's name in a helper's name: F32s, Bools.
func plural(t string) string {
	if t == "Boolean" {
		return "Bools"
	}
	return t + "s"
}

// constraint returns the type constraint of a helper's slice of t: ~float32, ~bool | ~uint8.
func constraint(t string) (string, error) {
	switch {
	case t == "Boolean":
		return "~bool | ~uint8", nil
	case packed[t]:
		return "~uint8", nil
	case goTypes[t] != "":
		return "~" + goTypes[t], nil
	}
	return "", fmt.Errorf("no Go type for %s", t)
}

// testType returns the type a test instantiates a helper's slice of t with: random bytes are
// valid values of it (uint8 for booleans, the packed bytes for the 4-bit types).
func testType(t string) string {
	if packed[t] {
		return "uint8"
	}
	return goTypes[t]
}

// typedRows returns the rows that get a typed helper: the registry's, then for each pair without
// one the first openvino row of ruleRegistry (OpenVINO's pair, converted by that row), which
// alone carries the helper's doc.
func typedRows(rows, ruleRows []row) ([]row, error) {
	out := slices.Clone(rows)
	have := byPair(rows)
	for _, r := range ruleRows {
		k := [2]string{r.from, r.to}
		_, done := have[k]
		first := r.openvino && !done
		if first {
			have[k] = r
			out = append(out, r)
		}
		if first != (r.doc != "") {
			return nil, fmt.Errorf("ruleRegistry row %s → %s under %s: only the first openvino row of a pair without a registry row has a doc", r.from, r.to, r.rulesLit)
		}
	}
	return out, nil
}

// writeTyped writes the typed helpers of the rows to path.
func writeTyped(path string, rows []row) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n\npackage kernels\n\nimport \"github.com/convertpromote/convertpromote/element\"\n\n%s", generated(), typedPreamble)
	for _, r := range rows {
		d, err := constraint(r.to)
		if err != nil {
			return fmt.Errorf("pair %s → %s: %v", r.from, r.to, err)
		}
		s, err := constraint(r.from)
		if err != nil {
			return fmt.Errorf("pair %s → %s: %v", r.from, r.to, err)
		}
		if !strings.HasPrefix(r.doc, "converts ") && !strings.HasPrefix(r.doc, "decodes ") || !strings.HasSuffix(r.doc, ".") {
			return fmt.Errorf("pair %s → %s: doc %q is not a sentence that starts with converts or decodes", r.from, r.to, r.doc)
		}
		name, convert := helperName(r.from, r.to), "convertSlices"
		if packed[r.from] {
			convert = "convertPacked"
		}
		comment(&b, name+" "+r.doc)
		fmt.Fprintf(&b, "func %s[D %s, S %s](dst []D, src []S) error {\n\treturn %s(dst, element.%s, src, element.%s)\n}\n",
			name, d, s, convert, r.to, r.from)
	}
	return writeFormatted(path, b.Bytes())
}

// writeTypedTest writes typedHelpers, the test list of the typed helpers, to path.
func writeTypedTest(path string, rows []row) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n\npackage kernels_test\n\nimport (\n\t\"github.com/convertpromote/convertpromote/element\"\n\t\"github.com/convertpromote/convertpromote/kernels\"\n)\n", generated())
	b.WriteString("\n// typedHelpers holds the typed helper of each registry pair, keyed by source and destination.\n" +
		"// Boolean sides are instantiated with uint8 so that random bytes are valid values.\n" +
		"var typedHelpers = map[[2]element.Type]typedCase{\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "\t{element.%s, element.%s}: typed(kernels.%s[%s, %s], %t),\n",
			r.from, r.to, helperName(r.from, r.to), testType(r.to), testType(r.from), packed[r.from])
	}
	b.WriteString("}\n")
	return writeFormatted(path, b.Bytes())
}
