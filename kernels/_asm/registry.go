package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
)

// row is what the generator needs of a row of the registry (kernels/registry.go): the pair, by
// the names of its element constants (F32, F8E4M3), its SIMD paths by the names of their Path
// constants (AVX2, AVX512, NEON), its non-temporal block, its scalar loop and the documentation
// of its typed helper.
type row struct {
	from, to string
	paths    []string
	nt       int
	loop     string
	doc      string // the typed helper's documentation after its name
}

// pathSets are the names of the registry's pathSet constants and the paths they hold.
var pathSets = map[string][]string{
	"onAVX2":   {"AVX2"},
	"onAVX512": {"AVX512"},
	"onNEON":   {"NEON"},
	"onAll":    {"AVX2", "AVX512", "NEON"},
}

// has reports whether the row names the path.
func (r row) has(path string) bool { return slices.Contains(r.paths, path) }

// readRegistry parses the registry variable of the kernels package's registry.go and returns its
// rows in order, so that the pairs and their loops are written in one place.
func readRegistry(path string) ([]row, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		return nil, err
	}
	var lit *ast.CompositeLit
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok && len(v.Names) == 1 && v.Names[0].Name == "registry" && len(v.Values) == 1 {
			lit, _ = v.Values[0].(*ast.CompositeLit)
		}
		return lit == nil
	})
	if lit == nil {
		return nil, fmt.Errorf("%s: no composite literal assigned to var registry", path)
	}
	var rows []row
	seen := map[[2]string]bool{}
	for _, e := range lit.Elts {
		el, ok := e.(*ast.CompositeLit)
		if !ok {
			return nil, fmt.Errorf("%s: registry element is not a composite literal", fset.Position(e.Pos()))
		}
		var r row
		for _, f := range el.Elts {
			kv, ok := f.(*ast.KeyValueExpr)
			if !ok {
				return nil, fmt.Errorf("%s: registry row without field names", fset.Position(f.Pos()))
			}
			key := kv.Key.(*ast.Ident).Name
			switch key {
			case "from", "to":
				sel, ok := kv.Value.(*ast.SelectorExpr)
				if !ok {
					return nil, fmt.Errorf("%s: %s is not element.Name", fset.Position(kv.Pos()), key)
				}
				if key == "from" {
					r.from = sel.Sel.Name
				} else {
					r.to = sel.Sel.Name
				}
			case "paths":
				r.paths, err = readPaths(kv.Value)
			case "nt":
				bl, ok := kv.Value.(*ast.BasicLit)
				if !ok {
					return nil, fmt.Errorf("%s: nt is not a literal", fset.Position(kv.Pos()))
				}
				r.nt, err = strconv.Atoi(bl.Value)
			case "loop":
				r.loop, err = readString(kv.Value)
			case "doc":
				r.doc, err = readString(kv.Value)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v", fset.Position(kv.Pos()), key, err)
			}
		}
		if r.from == "" || r.to == "" || r.loop == "" || r.doc == "" || len(r.paths) == 0 {
			return nil, fmt.Errorf("%s: registry row without from, to, paths, loop or doc", fset.Position(el.Pos()))
		}
		if seen[[2]string{r.from, r.to}] {
			return nil, fmt.Errorf("%s: a second row for %s → %s", fset.Position(el.Pos()), r.from, r.to)
		}
		seen[[2]string{r.from, r.to}] = true
		rows = append(rows, r)
	}
	return rows, nil
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
