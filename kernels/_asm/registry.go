package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// row is what the generator needs of a row of the registry (kernels/registry.go): the pair, by
// the names of its element constants (F32, F8E4M3), its SIMD paths and scalar loop (kernelRow),
// its non-temporal block and the documentation of its typed helper.
type row struct {
	from, to string
	kernelRow
	nt  int
	doc string // the typed helper's documentation after its name
	// rules, for a row of ruleRegistry, names its rule set in its kernels' names (ONNX,
	// ONNXNoSat, MLDtypes), and rulesLit is its Rules literal; both are empty for the rows of
	// registry, OpenVINO's.
	rules, rulesLit string
	// openvino, for a row of ruleRegistry, says that its loop gives OpenVINO's codes: it may
	// name no path, its pair's kernels being the registry's.
	openvino bool
}

// kernelRow is what a row of either registry, package kernels' or quant's, says of its kernels:
// the SIMD paths with a kernel for the row, by the names of their Path constants (AVX2, AVX512,
// NEON), and the loop that they compute, which documents their stubs.
type kernelRow struct {
	paths []string
	loop  string
}

// pathSets are the names of the registries' pathSet constants and the paths they hold.
var pathSets = map[string][]string{
	"onAVX2":   {"AVX2"},
	"onAVX512": {"AVX512"},
	"onNEON":   {"NEON"},
	"onAll":    {"AVX2", "AVX512", "NEON"},
}

// has reports whether the row names the path.
func (r kernelRow) has(path string) bool { return slices.Contains(r.paths, path) }

// field reads the field key of a row, if it is paths or loop, from its value v.
func (r *kernelRow) field(key string, v ast.Expr) (err error) {
	switch key {
	case "paths":
		r.paths, err = readPaths(v)
	case "loop":
		r.loop, err = readString(v)
	}
	return err
}

// readRegistry parses the registry variable of the kernels package's registry.go and returns its
// rows in order, so that the pairs and their loops are written in one place.
func readRegistry(path string) ([]row, error) {
	return readRows(path, "registry", func(r *row, key string, v ast.Expr) (err error) {
		switch key {
		case "from":
			r.from, err = readElement(v)
		case "to":
			r.to, err = readElement(v)
		case "nt":
			r.nt, err = readInt(v)
		case "doc":
			r.doc, err = readString(v)
		default:
			err = r.field(key, v)
		}
		return err
	}, func(r row) (string, error) {
		if r.from == "" || r.to == "" || r.loop == "" || r.doc == "" || len(r.paths) == 0 {
			return "", fmt.Errorf("registry row without from, to, paths, loop or doc")
		}
		return r.from + " → " + r.to, nil
	})
}

// readRows parses the Go file at path and returns the rows of its variable varName, a composite
// literal of rows with field names, in order: field sets the field key of a row from its value,
// then check, once all the row's fields are set, returns its name, which no other row may have,
// or an error that refuses it. It reads package kernels' registry (readRegistry) and package
// quant's (readBlockRegistry).
func readRows[R any](path, varName string, field func(r *R, key string, v ast.Expr) error, check func(r R) (string, error)) ([]R, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		return nil, err
	}
	var lit *ast.CompositeLit
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok && len(v.Names) == 1 && v.Names[0].Name == varName && len(v.Values) == 1 {
			lit, _ = v.Values[0].(*ast.CompositeLit)
		}
		return lit == nil
	})
	if lit == nil {
		return nil, fmt.Errorf("%s: no composite literal assigned to var %s", path, varName)
	}
	var rows []R
	seen := map[string]bool{}
	for _, e := range lit.Elts {
		el, ok := e.(*ast.CompositeLit)
		if !ok {
			return nil, fmt.Errorf("%s: registry element is not a composite literal", fset.Position(e.Pos()))
		}
		var r R
		for _, f := range el.Elts {
			kv, ok := f.(*ast.KeyValueExpr)
			if !ok {
				return nil, fmt.Errorf("%s: registry row without field names", fset.Position(f.Pos()))
			}
			key := kv.Key.(*ast.Ident).Name
			if err := field(&r, key, kv.Value); err != nil {
				return nil, fmt.Errorf("%s: %s: %v", fset.Position(kv.Pos()), key, err)
			}
		}
		name, err := check(r)
		if err == nil && seen[name] {
			err = fmt.Errorf("a second row for %s", name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fset.Position(el.Pos()), err)
		}
		seen[name] = true
		rows = append(rows, r)
	}
	return rows, nil
}

// readInt reads an integer literal.
func readInt(v ast.Expr) (int, error) {
	bl, ok := v.(*ast.BasicLit)
	if !ok || bl.Kind != token.INT {
		return 0, fmt.Errorf("not an integer literal")
	}
	return strconv.Atoi(bl.Value)
}

// readElement reads an element constant, element.Name, and returns its name.
func readElement(e ast.Expr) (string, error) {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == "element" {
			return sel.Sel.Name, nil
		}
	}
	return "", fmt.Errorf("not element.Name")
}

// readPaths reads a union of the registry's path sets: onAll, onAVX2 | onAVX512.
func readPaths(e ast.Expr) ([]string, error) {
	switch e := e.(type) {
	case *ast.Ident:
		if ps, ok := pathSets[e.Name]; ok {
			return ps, nil
		}
	case *ast.BinaryExpr:
		if e.Op == token.OR {
			x, err := readPaths(e.X)
			if err != nil {
				return nil, err
			}
			y, err := readPaths(e.Y)
			if err != nil {
				return nil, err
			}
			var ps []string
			for _, p := range []string{"AVX2", "AVX512", "NEON"} {
				if slices.Contains(x, p) || slices.Contains(y, p) {
					ps = append(ps, p)
				}
			}
			return ps, nil
		}
	}
	return nil, fmt.Errorf("not a union of %v", slices.Sorted(maps.Keys(pathSets)))
}

// readString reads a string literal, or a sum of string literals.
func readString(e ast.Expr) (string, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			return strconv.Unquote(e.Value)
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			x, err := readString(e.X)
			if err != nil {
				return "", err
			}
			y, err := readString(e.Y)
			return x + y, err
		}
	}
	return "", fmt.Errorf("not a string literal")
}

// byPair indexes rows by their pairs.
func byPair(rows []row) map[[2]string]row {
	m := make(map[[2]string]row, len(rows))
	for _, r := range rows {
		m[[2]string{r.from, r.to}] = r
	}
	return m
}

// readNibbleTypes returns the element names of the nibbleTypes array of the kernels package's
// tables.go, the order of the rows of its 4-bit tables.
func readNibbleTypes(path string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		return nil, err
	}
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		v, ok := n.(*ast.ValueSpec)
		if !ok || len(v.Names) != 1 || v.Names[0].Name != "nibbleTypes" || len(v.Values) != 1 {
			return names == nil
		}
		if lit, ok := v.Values[0].(*ast.CompositeLit); ok {
			for _, e := range lit.Elts {
				if sel, ok := e.(*ast.SelectorExpr); ok {
					names = append(names, sel.Sel.Name)
				}
			}
		}
		return false
	})
	if names == nil {
		return nil, fmt.Errorf("%s: no var nibbleTypes with element names", path)
	}
	return names, nil
}

// readRuleRegistry parses the ruleRegistry variable of registry.go: the rows of the pairs that
// the rule sets convert differently from OpenVINO, each with its rules, pair, paths and loop.
func readRuleRegistry(path string) ([]row, error) {
	return readRows(path, "ruleRegistry", func(r *row, key string, v ast.Expr) (err error) {
		switch key {
		case "rules":
			r.rules, r.rulesLit, err = readRules(v)
		case "from":
			r.from, err = readElement(v)
		case "to":
			r.to, err = readElement(v)
		case "openvino":
			r.openvino = isIdent(v, "true")
		case "nt":
			r.nt, err = readInt(v)
		case "doc":
			r.doc, err = readString(v)
		default:
			err = r.field(key, v)
		}
		return err
	}, func(r row) (string, error) {
		if r.rules == "" || r.from == "" || r.to == "" || r.loop == "" || len(r.paths) == 0 && !r.openvino {
			return "", fmt.Errorf("ruleRegistry row without rules, from, to, loop, or paths (which only an openvino row may leave out)")
		}
		return r.from + " → " + r.to + " under " + r.rulesLit, nil
	})
}

// readRules reads a Rules literal, Rules{Set: ONNX, NoSaturate: true, E8M0Round: RoundDown},
// and returns the name its kernels carry (ONNXNoSatDown; RoundUp, the default, adds nothing)
// and the literal as Go source.
func readRules(e ast.Expr) (name, lit string, err error) {
	cl, ok := e.(*ast.CompositeLit)
	if !ok || !isIdent(cl.Type, "Rules") {
		return "", "", fmt.Errorf("not a Rules literal")
	}
	var set, noSat, round string
	for _, f := range cl.Elts {
		kv, ok := f.(*ast.KeyValueExpr)
		id, ok2 := kv.Value.(*ast.Ident)
		if !ok || !ok2 {
			return "", "", fmt.Errorf("Rules literal without field names or with a value that is not a name")
		}
		switch kv.Key.(*ast.Ident).Name {
		case "Set":
			set = id.Name
		case "NoSaturate":
			noSat = id.Name
		case "E8M0Round":
			round = id.Name
		default:
			return "", "", fmt.Errorf("unknown Rules field %s", kv.Key.(*ast.Ident).Name)
		}
	}
	if set != "ONNX" && set != "MLDtypes" {
		return "", "", fmt.Errorf("Rules literal whose Set is not ONNX or MLDtypes")
	}
	name, lit = set, "Rules{Set: "+set
	if noSat == "true" {
		name, lit = name+"NoSat", lit+", NoSaturate: true"
	}
	if round != "" {
		name, lit = name+strings.TrimPrefix(round, "Round"), lit+", E8M0Round: "+round
	}
	return name, lit + "}", nil
}

// byRules indexes the rows of ruleRegistry by pair and rules.
func byRules(rows []row) map[[3]string]row {
	m := make(map[[3]string]row, len(rows))
	for _, r := range rows {
		m[[3]string{r.from, r.to, r.rules}] = r
	}
	return m
}
