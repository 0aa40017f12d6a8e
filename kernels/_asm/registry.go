package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// row is what the generator needs of a row of the registry (kernels/registry.go): the pair, by
// the names of its element constants (F32, F8E4M3), its non-temporal block and its scalar loop.
type row struct {
	from, to string
	nt       int
	loop     string
}

// readRegistry parses the registry variable of the kernels package's registry.go, so that the
// pairs and their loops are written in one place.
func readRegistry(path string) (map[[2]string]row, error) {
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
	rows := make(map[[2]string]row)
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
			case "nt", "loop":
				bl, ok := kv.Value.(*ast.BasicLit)
				if !ok {
					return nil, fmt.Errorf("%s: %s is not a literal", fset.Position(kv.Pos()), key)
				}
				if key == "nt" {
					r.nt, err = strconv.Atoi(bl.Value)
				} else {
					r.loop, err = strconv.Unquote(bl.Value)
				}
				if err != nil {
					return nil, fmt.Errorf("%s: %v", fset.Position(kv.Pos()), err)
				}
			}
		}
		if r.from == "" || r.to == "" || r.loop == "" {
			return nil, fmt.Errorf("%s: registry row without from, to or loop", fset.Position(el.Pos()))
		}
		rows[[2]string{r.from, r.to}] = r
	}
	return rows, nil
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
