package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"path/filepath"
	"slices"
	"strings"
)

// With -quant DIR the generator writes package quant's files into DIR instead of package
// kernels', from quant's registry rows (DIR/registry.go) and the kernel bodies of block.go: the
// amd64 kernels (quant_amd64.s) and their stubs and list (stubs_amd64.go), and the Go side of the
// NEON kernels, which are hand-written in quant_arm64.s: their stubs and list (stubs_arm64.go).
// Package quant runs it with go generate (the directive is in its registry.go):
//
//	go -C ../kernels/_asm run . -quant ../../quant
var quantDir = flag.String("quant", "", "write package quant's kernels to the package's `directory` instead of package kernels'")

// blockRow is what the generator needs of a row of package quant's registry (quant/registry.go):
// the scheme, by the name of its variable (MXFP4), the value type, by the name of its element
// constant (F32), the direction, and its SIMD paths and loop (kernelRow), the pure-Go call that
// its kernels compute.
type blockRow struct {
	scheme, typ string
	decode      bool
	// grouped: a group row, whose scheme is a family and whose kernels take the group size.
	grouped bool
	kernelRow
}

// pair returns the row's scheme and value type in the order of the conversion: the scheme first
// for a dequantizer, the value type first for a quantizer.
func (r blockRow) pair() (from, to string) {
	if r.decode {
		return r.scheme, r.typ
	}
	return r.typ, r.scheme
}

// String names the row as package quant does: mxfp4 → f32, f32 → mxfp4.
func (r blockRow) String() string {
	from, to := r.pair()
	return typeName(from) + " → " + typeName(to)
}

// readBlockRegistry parses the registry variable of package quant's registry.go and returns its
// rows in order.
func readBlockRegistry(path string) ([]blockRow, error) {
	return readRows(path, "registry", func(r *blockRow, key string, v ast.Expr) (err error) {
		switch key {
		case "scheme":
			id, ok := v.(*ast.Ident)
			if !ok {
				return fmt.Errorf("not a Scheme variable")
			}
			r.scheme = id.Name
		case "typ":
			r.typ, err = readElement(v)
		case "decode":
			id, ok := v.(*ast.Ident)
			if !ok || id.Name != "true" && id.Name != "false" {
				return fmt.Errorf("not true or false")
			}
			r.decode = id.Name == "true"
		case "grouped":
			id, ok := v.(*ast.Ident)
			if !ok || id.Name != "true" && id.Name != "false" {
				return fmt.Errorf("not true or false")
			}
			r.grouped = id.Name == "true"
		default:
			err = r.field(key, v)
		}
		return err
	}, func(r blockRow) (string, error) {
		if r.scheme == "" || r.typ == "" || r.loop == "" {
			return "", fmt.Errorf("registry row without scheme, typ or loop")
		}
		return r.String(), nil
	})
}

// blockStub is a kernel of package quant as a stubs file declares and lists it: its row, its path
// and a paragraph after its loop, if any.
type blockStub struct {
	row  blockRow
	path string
	doc  string
}

// name returns the kernel's name, its TEXT symbol.
func (k blockStub) name() string { return blockName(k.row.scheme, k.row.typ, k.row.decode, k.path) }

// stub returns the kernel's declaration, documented by its row's loop.
func (k blockStub) stub() stub {
	s := stub{name: k.name(), code: []string{k.row.loop}, params: blockParams(k.row.decode)}
	scheme, typ := typeName(k.row.scheme), typeName(k.row.typ)
	if k.row.grouped {
		s.params = groupParams
		s.what = fmt.Sprintf("dequantizes groups groups of group elements (a multiple of %d) of the %s family to %s on the %s path, as the pure-Go loop does:", groupStep, k.row.scheme, typ, k.path)
	} else if k.row.decode {
		s.what = fmt.Sprintf("dequantizes steps·32 elements of %s to %s on the %s path, as the pure-Go loop does:", scheme, typ, k.path)
	} else {
		s.what = fmt.Sprintf("quantizes steps·32 %s values into %s on the %s path, as the pure-Go loop does:", typ, scheme, k.path)
	}
	if k.doc != "" {
		s.docs = []string{k.doc}
	}
	return s
}

// mainQuant writes package quant's files into dir.
func mainQuant(dir string) {
	rows, err := readBlockRegistry(filepath.Join(dir, "registry.go"))
	if err != nil {
		fatal(err)
	}
	amd64, err := blockStubs(rows)
	if err != nil {
		fatal(err)
	}
	var out asmFiles
	out.add("quant_amd64.s", asmConstraint)
	for _, k := range blockKernels {
		emitBlock(k)
		out.text(k.name(), "quant_amd64.s")
	}
	for _, k := range groupKernels {
		emitGroup(k)
		out.text(k.name(), "quant_amd64.s")
	}
	if err := out.write(dir); err != nil {
		fatal(err)
	}
	if err := writeQuantGo(filepath.Join(dir, "stubs_amd64.go"), []string{avx2.path, avx512.path}, "", amd64); err != nil {
		fatal(err)
	}
	if err := writeQuantArm64(dir, rows); err != nil {
		fatal(err)
	}
}

// blockStubs returns the stubs of the amd64 block kernels, in the order of blockKernels, after
// refusing a kernel whose row is missing or does not name its path, and two kernels for one row
// and path.
func blockStubs(rows []blockRow) ([]blockStub, error) {
	var stubs []blockStub
	type kern struct {
		row        blockRow
		name, path string
		doc        string
	}
	var ks []kern
	for _, k := range blockKernels {
		ks = append(ks, kern{blockRow{scheme: k.format, typ: k.typ, decode: k.decode}, k.name(), k.isa.path, k.doc})
	}
	for _, k := range groupKernels {
		ks = append(ks, kern{blockRow{scheme: k.family, typ: k.typ, decode: true, grouped: true}, k.name(), k.isa.path, k.doc})
	}
	for _, k := range ks {
		want := k.row
		i := slices.IndexFunc(rows, func(r blockRow) bool { return r.String() == want.String() })
		s := blockStub{path: k.path, doc: k.doc}
		if i >= 0 {
			s.row = rows[i]
		}
		switch {
		case i < 0:
			return nil, fmt.Errorf("quant kernel %s: %s has no registry row", k.name, want)
		case s.row.grouped != want.grouped:
			return nil, fmt.Errorf("quant kernel %s: registry row %s is not a group row", k.name, want)
		case !s.row.has(s.path):
			return nil, fmt.Errorf("quant kernel %s: registry row %s does not name %s", k.name, want, s.path)
		case slices.ContainsFunc(stubs, func(o blockStub) bool { return o.name() == s.name() }):
			return nil, fmt.Errorf("two block kernels for %s on %s", want, s.path)
		}
		stubs = append(stubs, s)
	}
	return stubs, nil
}

// writeQuantArm64 writes the Go side of package quant's NEON kernels, which are hand-written in
// quant_arm64.s, to stubs_arm64.go in dir: the stub of every row that names NEON, named by
// blockName as the amd64 kernels are, and kernelList; checkArm64 checks them against
// quant_arm64.s first, as it checks package kernels'.
func writeQuantArm64(dir string, rows []blockRow) error {
	var stubs []blockStub
	var neon []neonKernel
	for _, r := range rows {
		if r.has("NEON") {
			s := blockStub{row: r, path: "NEON"}
			from, to := r.pair()
			stubs = append(stubs, s)
			neon = append(neon, neonKernel{name: s.name(), from: from, to: to})
		}
	}
	path := filepath.Join(dir, "stubs_arm64.go")
	if err := checkArm64(dir, "quant_arm64.s", path, neon); err != nil {
		return err
	}
	return writeQuantGo(path, []string{"NEON"}, "The NEON kernels of quant_arm64.s. Each converts steps·32 elements (a group "+
		"kernel: groups·group elements), as the pure-Go call in its documentation does (its row's loop; TestStubLoops "+
		"checks them); the call runs the elements after the last whole step (group) on the pure-Go loop.", stubs)
}

// writeQuantGo writes a stubs file of package quant, amd64's or arm64's, to path: ownPaths, the
// architecture's paths own, a paragraph intro, if any, the kernels' stubs, each documented by
// the pure-Go call it computes (the loop of its row; TestStubLoops checks them), and kernelList,
// which binds them to the rows.
func writeQuantGo(path string, own []string, intro string, stubs []blockStub) error {
	var b bytes.Buffer
	stubsHeader(&b, "quant", elementPkg, kernelsPkg)
	var sets []string
	for _, p := range own {
		sets = append(sets, "on"+p)
	}
	fmt.Fprintf(&b, "\n// ownPaths are the paths this architecture has kernels for, whether or not the CPU runs them.\nconst ownPaths = %s\n", strings.Join(sets, " | "))
	if intro != "" {
		comment(&b, intro)
	}
	for _, k := range stubs {
		k.stub().write(&b)
	}
	b.WriteString("\n// kernelList lists the kernels with their paths, schemes, value types and directions.\nfunc kernelList() []kernelSpec {\n\treturn []kernelSpec{\n")
	for _, k := range stubs {
		fn := "encode"
		switch {
		case k.row.grouped:
			fn = "group"
		case k.row.decode:
			fn = "decode"
		}
		fmt.Fprintf(&b, "\t\t{path: kernels.%s, scheme: %s, typ: element.%s, %s: %s},\n", k.path, k.row.scheme, k.row.typ, fn, k.name())
	}
	b.WriteString("\t}\n}\n")
	return writeFormatted(path, b.Bytes())
}
