package quant

import (
	"flag"
	"fmt"
	"github.com/convertpromote/convertpromote/internal/testkit"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the registry's table in docs/kernels.md")

// allPaths are the kernels.Path values a row may name or a test may ask about.
var allPaths = []kernels.Path{kernels.Best, kernels.Generic, kernels.AVX2, kernels.AVX512, kernels.NEON}

// TestRegistryRows checks the rows: exactly one block row for every named scheme, value type
// (f32, f16, bf16) and direction, so that a scheme without a kernel is a row without paths; only
// SIMD paths; a scheme whose group divides a step when it has a kernel; group rows that are a
// family's dequantizers; and a loop that is the row's pure-Go call.
func TestRegistryRows(t *testing.T) {
	seen := map[rowKey]bool{}
	groupRows := 0
	for _, r := range registry {
		k := rowKey{r.scheme, r.typ, r.decode}
		if seen[k] {
			t.Errorf("%s: two rows", &r)
		}
		seen[k] = true
		if r.paths&^onAll != 0 {
			t.Errorf("%s: paths %b", &r, r.paths)
		}
		if r.grouped {
			// A family: a scheme of it with a group of groupStep is valid, and the family is
			// one of families, under the name its loop uses.
			if err := r.scheme.withGroup(groupStep).check(false); err != nil || !r.decode || r.scheme.Group != 0 {
				t.Errorf("%s: not a family's dequantizer (%v)", &r, err)
			}
			name := ""
			for v, f := range families {
				if f == r.scheme {
					name = v
				}
			}
			zeros := ""
			if r.scheme.Zero != element.Dynamic {
				zeros = ", Zeros: zeros"
			}
			want := fmt.Sprintf("decodeGroups(dst, element.%s, Data{Codes: codes, Scales: scales%s}, %s.withGroup(group), groups*group)", strings.ToUpper(r.typ.String()), zeros, name)
			if name == "" || r.loop != want {
				t.Errorf("%s: loop %q, want %q", &r, r.loop, want)
			}
			groupRows++
			continue
		}
		if err := r.scheme.check(!r.decode); err != nil {
			t.Errorf("%s: %v", &r, err)
		}
		if r.paths != 0 && step%r.scheme.Group != 0 {
			t.Errorf("%s: kernels, but the group %d does not divide a step", &r, r.scheme.Group)
		}
		name := strings.ToUpper(r.scheme.String())
		want := fmt.Sprintf("encodeGeneric(codes, scales, %s, src, element.%s, steps*32)", name, strings.ToUpper(r.typ.String()))
		if r.decode {
			want = fmt.Sprintf("decodeGeneric(dst, element.%s, codes, scales, %s, steps*32)", strings.ToUpper(r.typ.String()), name)
		}
		if r.loop != want {
			t.Errorf("%s: loop %q, want %q", &r, r.loop, want)
		}
	}
	for _, e := range named {
		for _, typ := range []element.Type{element.F32, element.F16, element.BF16} {
			for _, decode := range []bool{true, false} {
				if !seen[rowKey{e.s, typ, decode}] {
					t.Errorf("no row for %s (decode %v)", &row{scheme: e.s, typ: typ, decode: decode}, decode)
				}
			}
		}
	}
	if len(registry)-groupRows != len(named)*3*2 {
		t.Errorf("%d block rows, want one for each of %d schemes, 3 types and 2 directions", len(registry)-groupRows, len(named))
	}
}

// TestRegistryDispatch: on every path, a row has a SIMD kernel exactly when it names the path
// and the CPU runs it; kernels.Best answers for the best path; a scheme or type without a row
// has none.
func TestRegistryDispatch(t *testing.T) {
	t.Logf("paths on this CPU: %v", kernels.Paths())
	for _, p := range allPaths {
		q := resolve(p)
		for _, r := range registry {
			want := r.paths.has(q) && pathAvailable(q) && ownPaths.has(q)
			var got bool
			switch {
			case r.grouped:
				for _, g := range []int{groupStep, 4 * groupStep, 4096} {
					if got = HasDequantizer(p, r.scheme.withGroup(g), r.typ); got != want {
						break
					}
				}
				// A group that is not a multiple of groupStep, and the family itself, have none.
				if HasDequantizer(p, r.scheme.withGroup(groupStep+2), r.typ) || HasDequantizer(p, r.scheme, r.typ) {
					t.Errorf("%s on %s: a kernel for group %d or 0", &r, p, groupStep+2)
				}
			case r.decode:
				got = HasDequantizer(p, r.scheme, r.typ)
			default:
				got = HasQuantizer(p, r.scheme, r.typ)
			}
			if got != want {
				t.Errorf("%s on %s: a kernel %v, want %v", &r, p, got, want)
			}
		}
		other := Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Group: 32 * 2}
		if HasDequantizer(p, other, element.F32) || HasQuantizer(p, other, element.F32) || HasDequantizer(p, MXFP4, element.F64) {
			t.Errorf("%s: a kernel for a scheme or type without a row", p)
		}
	}
	if HasDequantizer(200, MXFP4, element.F32) {
		t.Error("a kernel on an unknown path")
	}
}

// TestRegistryPathsHaveKernels: the table holds every row, and every path of this CPU that a
// row names has a kernel bound for it, so that a row cannot name a path whose kernel is missing
// from the list.
func TestRegistryPathsHaveKernels(t *testing.T) {
	for i := range registry {
		r := &registry[i]
		s := r.scheme
		if r.grouped {
			s.Group = 2 * groupStep
		}
		e := lookup(s, r.typ, r.decode)
		if e == nil || e.row != r {
			t.Fatalf("%s: the table's entry is not the row", r)
		}
		for _, p := range kernels.Paths() {
			if r.paths.has(p) && ownPaths.has(p) && e.decode[p] == nil && e.encode[p] == nil && e.group[p] == nil {
				t.Errorf("%s names %s, which has no kernel bound", r, p)
			}
		}
	}
}

// TestBindKernelsRejects: bindKernels refuses a kernel list that disagrees with the rows.
func TestBindKernelsRejects(t *testing.T) {
	dec := func(dst, codes, scales []byte, steps int) {}
	enc := func(codes, scales, src []byte, steps int) {}
	grp := func(dst, codes, scales, zeros []byte, groups, group int) {}
	// full lists a kernel for every row that names p.
	full := func(p kernels.Path) []kernelSpec {
		var s []kernelSpec
		for _, r := range registry {
			if r.paths.has(p) {
				k := kernelSpec{path: p, scheme: r.scheme, typ: r.typ}
				switch {
				case r.grouped:
					k.group = grp
				case r.decode:
					k.decode = dec
				default:
					k.encode = enc
				}
				s = append(s, k)
			}
		}
		return s
	}
	never := func(kernels.Path) bool { return false }
	odd := Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Group: 64}
	rowsWithOdd := append(append([]row(nil), registry...), row{scheme: odd, typ: element.F32, decode: true, paths: onNEON})
	rowsWithFamily := append(append([]row(nil), registry...), row{scheme: int4Asym, typ: element.BF16, decode: true, grouped: true, paths: onNEON})
	for _, c := range []struct {
		name  string
		rows  []row
		specs []kernelSpec
		own   pathSet
	}{
		{"no row", registry, append(full(kernels.NEON), kernelSpec{path: kernels.NEON, scheme: odd, typ: element.F32, decode: dec}), onNEON},
		{"no row for the type", registry, append(full(kernels.NEON), kernelSpec{path: kernels.NEON, scheme: MXFP4, typ: element.F64, decode: dec}), onNEON},
		{"path not in row", registry, append(full(kernels.NEON), kernelSpec{path: kernels.NEON, scheme: MXFP8E5M2, typ: element.F32, decode: dec}), onNEON},
		{"path not the architecture's", registry, full(kernels.AVX2), onNEON},
		{"row without kernel", registry, full(kernels.NEON)[1:], onNEON},
		{"missing path", registry, full(kernels.AVX2), onAVX2 | onAVX512},
		{"two kernels", registry, append(full(kernels.NEON), full(kernels.NEON)[0]), onNEON},
		{"both functions", registry, append(full(kernels.NEON)[1:], kernelSpec{path: kernels.NEON, scheme: MXFP4, typ: element.F32, decode: dec, encode: enc}), onNEON},
		{"no function", registry, append(full(kernels.NEON)[1:], kernelSpec{path: kernels.NEON, scheme: MXFP4, typ: element.F32}), onNEON},
		{"group not dividing a step", rowsWithOdd, append(full(kernels.NEON), kernelSpec{path: kernels.NEON, scheme: odd, typ: element.F32, decode: dec}), onNEON},
		{"two rows", append(append([]row(nil), registry...), registry[0]), nil, 0},
		{"group kernel for a block row", registry, append(full(kernels.NEON)[1:], kernelSpec{path: kernels.NEON, scheme: MXFP4, typ: element.F32, group: grp}), onNEON},
		{"block kernel for a group row", rowsWithFamily, append(full(kernels.NEON), kernelSpec{path: kernels.NEON, scheme: int4Asym, typ: element.BF16, decode: dec}), onNEON},
		{"decode and group", rowsWithFamily, append(full(kernels.NEON), kernelSpec{path: kernels.NEON, scheme: int4Asym, typ: element.BF16, decode: dec, group: grp}), onNEON},
		{"group row with a group", append(append([]row(nil), registry...), row{scheme: int4Asym.withGroup(32), typ: element.BF16, decode: true, grouped: true}), nil, 0},
		{"quantizing group row", append(append([]row(nil), registry...), row{scheme: int4Asym, typ: element.BF16, grouped: true}), nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("bindKernels accepted it")
				}
			}()
			bindKernels(c.rows, c.specs, c.own, never)
		})
	}
	// The lists that agree bind, and only the paths that run are filled in.
	tab := bindKernels(registry, append(full(kernels.AVX2), full(kernels.AVX512)...), onAVX2|onAVX512, func(p kernels.Path) bool { return p == kernels.AVX2 })
	if e := tab.entry(MXFP4, element.F32, true); e.decode[kernels.AVX2] == nil || e.decode[kernels.AVX512] != nil {
		t.Error("bindKernels did not bind exactly the running path's kernel")
	}
	bindKernels(registry, full(kernels.NEON), onNEON, never)
	bindKernels(registry, nil, 0, never)
}

// registryTable renders the registry as the Markdown table of docs/kernels.md.
func registryTable() string {
	var b strings.Builder
	b.WriteString("| kernel | pure-Go call (block rows: steps·32 elements; group rows: groups·group) | paths |\n| --- | --- | --- |\n")
	for _, r := range registry {
		var ps []string
		for _, p := range allPaths {
			if r.paths.has(p) {
				ps = append(ps, p.String())
			}
		}
		paths := strings.Join(ps, ", ")
		if paths == "" {
			paths = "– (pure Go)"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", &r, r.loop, paths)
	}
	return b.String()
}

// TestRegistryDocTable: docs/kernels.md lists exactly the registry's rows, between its two
// quant registry markers. go test ./quant -run TestRegistryDocTable -update-docs rewrites it.
func TestRegistryDocTable(t *testing.T) {
	testkit.DocSection(t, "../docs/kernels.md", "quant registry", registryTable(), *updateDocs, "go test ./quant -run TestRegistryDocTable -update-docs")
}

// TestStubLoops reads the kernel lists and stubs of both architectures' files (whatever the
// architecture of the test) and checks that each listed kernel's row names its path and that
// its stub's documentation shows its row's loop.
func TestStubLoops(t *testing.T) {
	schemeVars := map[string]Scheme{}
	for _, e := range named {
		schemeVars[strings.ToUpper(e.name)] = e.s
	}
	for v, f := range families {
		schemeVars[v] = f.withGroup(groupStep)
	}
	for _, file := range []string{"stubs_amd64.go", "stubs_arm64.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		docs := map[string]string{}
		var list *ast.CompositeLit
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if fd.Body == nil {
				docs[fd.Name.Name] = fd.Doc.Text()
			}
			if fd.Name.Name == "kernelList" {
				list = fd.Body.List[0].(*ast.ReturnStmt).Results[0].(*ast.CompositeLit)
			}
		}
		if list == nil || len(list.Elts) == 0 {
			t.Fatalf("%s: no kernelList", file)
		}
		for _, elt := range list.Elts {
			fields := map[string]string{}
			for _, kv := range elt.(*ast.CompositeLit).Elts {
				kv := kv.(*ast.KeyValueExpr)
				var v string
				switch x := kv.Value.(type) {
				case *ast.Ident:
					v = x.Name
				case *ast.SelectorExpr:
					v = x.Sel.Name
				}
				fields[kv.Key.(*ast.Ident).Name] = v
			}
			decode := fields["encode"] == ""
			name := fields["decode"] + fields["encode"] + fields["group"]
			typ, err := element.Parse(strings.ToLower(fields["typ"]))
			if err != nil {
				t.Fatalf("%s: %s: %v", file, name, err)
			}
			p, err := kernels.ParsePath(strings.ToLower(fields["path"]))
			if err != nil {
				t.Fatalf("%s: %s: %v", file, name, err)
			}
			e := lookup(schemeVars[fields["scheme"]], typ, decode)
			switch {
			case e == nil:
				t.Errorf("%s: %s has no row", file, name)
			case !e.row.paths.has(p):
				t.Errorf("%s: %s: row %s does not name %s", file, name, e.row, p)
			case !strings.Contains(docs[name], "\t"+e.row.loop+"\n"):
				t.Errorf("%s: %s's documentation does not show its row's loop %q:\n%s", file, name, e.row.loop, docs[name])
			}
		}
	}
}

// TestDispatchTable fills a table with many schemes, so that slots collide and lookups probe,
// and checks that each row is found under its own key only; a table of too many schemes panics.
func TestDispatchTable(t *testing.T) {
	var rows []row
	for g := 1; g <= dispatchSlots/2; g++ {
		s := Scheme{Code: element.F8E4M3, Scale: element.F8E8M0, Group: g * 2}
		rows = append(rows, row{scheme: s, typ: element.BF16, decode: g%2 == 0})
	}
	tab := newTable(rows)
	for i := range rows {
		r := &rows[i]
		if e := tab.entry(r.scheme, r.typ, r.decode); e == nil || e.row != r {
			t.Fatalf("%s: not found", r)
		}
		if tab.entry(r.scheme, r.typ, !r.decode) != nil || tab.entry(r.scheme, element.F32, r.decode) != nil {
			t.Fatalf("%s: found for another direction or type", r)
		}
		other := r.scheme
		other.Group++
		if tab.entry(other, r.typ, r.decode) != nil {
			t.Fatalf("%s: found for %s", r, other)
		}
	}
	for _, s := range []Scheme{{}, {Code: element.F8E4M3, Scale: element.F8E8M0, Group: -2}, {Code: element.F8E4M3, Scale: element.F8E8M0, Group: 2 + maxGroup}} {
		if tab.entry(s, element.BF16, true) != nil || tab.entry(s, element.BF16, false) != nil {
			t.Errorf("%s: found", s)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("newTable accepted more schemes than half its slots")
		}
	}()
	newTable(append(rows, row{scheme: Scheme{Code: element.F8E5M2, Scale: element.F8E8M0, Group: 32}, typ: element.F32}))
}
