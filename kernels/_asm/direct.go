package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strings"
)

// The pure-Go loops of the registry's rows (direct_generic.go): every row's loop becomes a
// function over the pair's Go types, and directLoops binds the functions to their pairs.

// goTypes are the Go types that a row's loop sees its buffers as, by element constant; the
// 4-bit types (packed) are read through nibble(src, i).
var goTypes = map[string]string{
	"Boolean": "uint8",
	"BF16":    "uint16", "F16": "uint16", "F32": "float32", "F64": "float64",
	"F8E4M3": "uint8", "F8E5M2": "uint8", "F8E8M0": "uint8", "F8E4M3FNUZ": "uint8", "F8E5M2FNUZ": "uint8",
	"I8": "int8", "I16": "int16", "I32": "int32", "I64": "int64",
	"U8": "uint8", "U16": "uint16", "U32": "uint32", "U64": "uint64",
}

// packed are the 4-bit types, two codes a byte, the low nibble first.
var packed = map[string]bool{"U4": true, "I4": true, "NF4": true, "F4E2M1": true}

// pairName returns the name of a function of a pair: f32ToF16 followed by suffix.
func pairName(from, to, suffix string) string {
	t := spell(to)
	return fromName(from) + strings.ToUpper(t[:1]) + t[1:] + suffix
}

// fromName returns the start of the name of a function from an element type, or from one of
// package quant's schemes: f32To, bf16To, mxfp4To.
func fromName(from string) string { return strings.ToLower(spell(from)) + "To" }

// loopExpr parses a row's loop, which must be one assignment dst[i] = e, optionally after one
// declaration t := v whose value uses none of i, src and dst (a table the loop reads, say), and
// returns the declaration's source ("" for none), the assignment's (comment included) and e. The
// generator writes the declaration before the loop, so that it runs once a call rather than
// once an element.
func loopExpr(r row) (string, string, ast.Expr, error) {
	const head = "package p\nfunc _() {\n\tfor i := range n {\n\t\t"
	src := head + r.loop + "\n\t}\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return "", "", nil, fmt.Errorf("loop of %s → %s: %v", r.from, r.to, err)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body.List[0].(*ast.RangeStmt).Body.List
	setup := ""
	if len(body) == 2 {
		d, ok := body[0].(*ast.AssignStmt)
		if !ok || d.Tok != token.DEFINE || len(d.Lhs) != 1 || len(d.Rhs) != 1 || mentions(d.Rhs[0], "i", "src", "dst") {
			return "", "", nil, fmt.Errorf("loop of %s → %s: a statement before dst[i] = … must be one t := v that uses none of i, src and dst: %q", r.from, r.to, r.loop)
		}
		var b bytes.Buffer
		if err := format.Node(&b, token.NewFileSet(), d); err != nil {
			return "", "", nil, err
		}
		setup, body = b.String(), body[1:]
	}
	if len(body) == 1 {
		if as, ok := body[0].(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
			if ix, ok := as.Lhs[0].(*ast.IndexExpr); ok && isIdent(ix.X, "dst") && isIdent(ix.Index, "i") {
				return setup, r.loop[fset.Position(as.Pos()).Offset-len(head):], as.Rhs[0], nil
			}
		}
	}
	return "", "", nil, fmt.Errorf("loop of %s → %s is not one assignment dst[i] = …: %q", r.from, r.to, r.loop)
}

// mentions reports whether e uses any of the identifiers names.
func mentions(e ast.Expr, names ...string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && slices.Contains(names, id.Name) {
			found = true
		}
		return !found
	})
	return found
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// codeExpr returns the source of the loop expression e of a 4-bit source with every
// nibble(src, i) replaced by c, and fails when e uses src, i or dst otherwise.
func codeExpr(r row, e ast.Expr) (string, error) {
	e = withCode(e)
	var bad bool
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && (id.Name == "src" || id.Name == "i" || id.Name == "dst" || id.Name == "nibble") {
			bad = true
		}
		return !bad
	})
	if bad {
		return "", fmt.Errorf("loop of %s → %s: a 4-bit source is read only as nibble(src, i): %q", r.from, r.to, r.loop)
	}
	var b bytes.Buffer
	if err := format.Node(&b, token.NewFileSet(), e); err != nil {
		return "", err
	}
	return b.String(), nil
}

// withCode returns e with every nibble(src, i) replaced by the identifier c.
func withCode(e ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.CallExpr:
		if isIdent(e.Fun, "nibble") && len(e.Args) == 2 && isIdent(e.Args[0], "src") && isIdent(e.Args[1], "i") {
			return ast.NewIdent("c")
		}
		for k, a := range e.Args {
			e.Args[k] = withCode(a)
		}
	case *ast.BinaryExpr:
		e.X, e.Y = withCode(e.X), withCode(e.Y)
	case *ast.UnaryExpr:
		e.X = withCode(e.X)
	case *ast.ParenExpr:
		e.X = withCode(e.X)
	case *ast.IndexExpr:
		e.X, e.Index = withCode(e.X), withCode(e.Index)
	}
	return e
}

// writeDirect writes the direct loops of the rows to path.
func writeDirect(path string, rows, ruleRows []row) error {
	var fns, list, rules bytes.Buffer
	usesMath := false
	for _, r := range append(rows, ruleRows...) {
		setup, assign, e, err := loopExpr(r)
		if err != nil {
			return err
		}
		if setup != "" && packed[r.from] {
			return fmt.Errorf("loop of %s → %s: a 4-bit source's loop has no declaration: %q", r.from, r.to, r.loop)
		}
		usesMath = usesMath || strings.Contains(r.loop, "math.")
		name := pairName(r.from, r.to, r.rules+"Generic")
		to, ok := goTypes[r.to]
		if !ok {
			return fmt.Errorf("pair %s → %s: no Go type for %s", r.from, r.to, r.to)
		}
		what := typeName(r.from) + " → " + typeName(r.to)
		if packed[r.from] {
			code, err := codeExpr(r, e)
			if err != nil {
				return err
			}
			values := pairName(r.from, r.to, "Values")
			comment(&fns, fmt.Sprintf("%s holds the loop of the pair %s for each 4-bit code c: %s.", values, what, code))
			fmt.Fprintf(&fns, "var %s = func() (t [16]%s) {\n\tfor c := range uint8(16) {\n\t\tt[c] = %s\n\t}\n\treturn t\n}()\n", values, to, code)
			comment(&fns, fmt.Sprintf("%s is the loop of the pair %s over n elements: the codes of src, two a byte, the low nibble first, into dst[:n].", name, what))
			fmt.Fprintf(&fns, "func %s(dst []%s, src []byte, n int) {\n\tnibblesTo(dst, src, n, &%s)\n}\n", name, to, values)
			fmt.Fprintf(&list, "\t{element.%s, element.%s, packedLoop(%s)},\n", r.from, r.to, name)
			continue
		}
		from, ok := goTypes[r.from]
		if !ok {
			return fmt.Errorf("pair %s → %s: no Go type for %s", r.from, r.to, r.from)
		}
		if r.rules != "" {
			what += " under " + r.rulesLit
		}
		comment(&fns, fmt.Sprintf("%s is the loop of the pair %s over len(dst) elements; src must be at least as long.", name, what))
		if setup != "" {
			setup = "\t" + setup + "\n"
		}
		fmt.Fprintf(&fns, "func %s(dst []%s, src []%s) {\n\tsrc = src[:len(dst)]\n%s\tfor i := range dst {\n\t\t%s\n\t}\n}\n", name, to, from, setup, assign)
		if r.rules != "" {
			fmt.Fprintf(&rules, "\t{%s, element.%s, element.%s, typedLoop(%s)},\n", r.rulesLit, r.from, r.to, name)
			continue
		}
		fmt.Fprintf(&list, "\t{element.%s, element.%s, typedLoop(%s)},\n", r.from, r.to, name)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n\npackage kernels\n\nimport (\n", generated())
	if usesMath {
		b.WriteString("\t\"math\"\n\n")
	}
	b.WriteString("\t\"github.com/convertpromote/convertpromote/element\"\n)\n\n")
	b.WriteString("// The direct loops: the loop of every registry row as a function over the pair's Go types (for\n" +
		"// a 4-bit source, the loop's value for each code and a loop over the bytes), and directLoops,\n" +
		"// which binds them to their pairs.\n")
	b.Write(fns.Bytes())
	b.WriteString("\n// directLoops holds the direct loop of every registry row, in the registry's order.\n")
	b.WriteString("var directLoops = [...]directLoop{\n")
	b.Write(list.Bytes())
	b.WriteString("}\n")
	b.WriteString("\n// ruleLoops holds the loop of every row of ruleRegistry, in its order.\n")
	b.WriteString("var ruleLoops = [...]ruleLoop{\n")
	b.Write(rules.Bytes())
	b.WriteString("}\n")
	return writeFormatted(path, b.Bytes())
}

// comment writes an empty line and text as a comment wrapped at 96 columns.
func comment(b *bytes.Buffer, text string) {
	b.WriteString("\n")
	for _, l := range wrap(text, 96) {
		fmt.Fprintf(b, "// %s\n", l)
	}
}
