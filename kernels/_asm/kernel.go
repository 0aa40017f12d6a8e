package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// kernel declares one generated kernel: a Go function func(dst, src []byte, n int) that
// converts n elements of its pair.
type kernel struct {
	name string
	isa  *isa
	// from and to name the pair by its element constants (F32, F8E4M3); also lists more pairs
	// the same kernel serves (boolean ↔ u8), which must have the same loop in the registry.
	from, to string
	also     [][2]string
	// nt marks the non-temporal variant of the pair (n a multiple of the row's block, dst
	// 64-byte aligned); feature, the CPU feature beyond the path's that a variant needs: such
	// a kernel goes to its own list, which archInit binds when the CPU has the feature.
	nt      bool
	feature string
	// doc says how the kernel computes the loop, and for a variant what differs from the
	// pair's ordinary kernel; each string is a paragraph.
	doc []string
	// noFrame drops the 512-byte stack frame of the tail (the non-temporal kernels have none).
	noFrame bool
	// body emits the kernel after the arguments are loaded: DI = dst, SI = src, CX = n.
	body func()
	// file is the assembly file of the kernel's family, set by add.
	file string
	// rules is the rule set of a kernel of a ruleRegistry row, as the row's rules (ONNX,
	// ONNXNoSat, MLDtypes); empty for OpenVINO's rows.
	rules string
}

// kernels lists the kernels in the order they are written: the families' in the order of
// families (main.go), each family's in the order it adds them.
var kernels []*kernel

// family is the assembly file of the family whose kernels are being declared.
var family string

// add declares kernels of the family being declared.
func add(ks ...*kernel) {
	for _, k := range ks {
		k.file = family
	}
	kernels = append(kernels, ks...)
}

// frame is the kernel's stack frame: the last partial block's source in its first 256 bytes and
// its destination in the last 256 (see loop).
var frame Mem

// emit writes the TEXT of k.
func emit(k *kernel) {
	TEXT(k.name, NOSPLIT, "func(dst, src []byte, n int)")
	labels = map[string]int{}
	if !k.noFrame {
		frame = AllocLocal(512)
	}
	Load(Param("dst").Base(), RDI)
	Load(Param("src").Base(), RSI)
	Load(Param("n"), RCX)
	k.body()
}

// labels counts the labels of the kernel being written, by base name.
var labels map[string]int

// label returns a label name unique within the kernel being written: base, then base2, base3….
func label(base string) string {
	labels[base]++
	if c := labels[base]; c > 1 {
		return fmt.Sprintf("%s%d", base, c)
	}
	return base
}

// checkKernels reports a kernel whose pair has no registry row, two kernels under one name, or
// two kernels for one pair, path and variant.
func checkKernels(rows map[[2]string]row, ruleRows map[[3]string]row) error {
	names := map[string]bool{}
	slots := map[string]string{}
	for _, k := range kernels {
		if names[k.name] {
			return fmt.Errorf("two kernels named %s", k.name)
		}
		names[k.name] = true
		for _, p := range k.pairs() {
			r, ok := k.row(p, rows, ruleRows)
			if !ok {
				return fmt.Errorf("kernel %s: pair %s → %s has no registry row%s", k.name, p[0], p[1], k.rulesNote())
			}
			if first, _ := k.row(k.pairs()[0], rows, ruleRows); r.loop != first.loop {
				return fmt.Errorf("kernel %s: pairs with different loops", k.name)
			}
			if k.nt && r.nt == 0 {
				return fmt.Errorf("kernel %s: non-temporal, but row %s → %s has no block", k.name, p[0], p[1])
			}
			slot := fmt.Sprint(k.isa.path, p, k.nt, k.feature, k.rules)
			if o, dup := slots[slot]; dup {
				return fmt.Errorf("kernels %s and %s for one pair, path and variant", o, k.name)
			}
			slots[slot] = k.name
		}
	}
	return nil
}

// row returns the row of k's pair p: registry's, or for a kernel of a rule set ruleRegistry's.
func (k *kernel) row(p [2]string, rows map[[2]string]row, ruleRows map[[3]string]row) (row, bool) {
	if k.rules != "" {
		r, ok := ruleRows[[3]string{p[0], p[1], k.rules}]
		return r, ok
	}
	r, ok := rows[p]
	return r, ok
}

// rulesNote returns " under rules R" for a kernel of a rule set, for errors.
func (k *kernel) rulesNote() string {
	if k.rules == "" {
		return ""
	}
	return " under rules " + k.rules
}

// pairs returns the pairs k serves.
func (k *kernel) pairs() [][2]string { return append([][2]string{{k.from, k.to}}, k.also...) }

// typeName returns the docs' name of an element constant: F8E4M3 → f8e4m3.
func typeName(c string) string { return strings.ToLower(c) }

// writeGo writes the stubs and the kernel lists to path.
func writeGo(path string, rows map[[2]string]row, ruleRows map[[3]string]row) error {
	var b bytes.Buffer
	stubsHeader(&b, "kernels", elementPkg)
	for _, k := range kernels {
		r, _ := k.row(k.pairs()[0], rows, ruleRows)
		var docs []string
		if k.nt {
			docs = append(docs, fmt.Sprintf("It is the non-temporal variant: it stores with VMOVNTDQ, bypassing the caches, and ends "+
				"with an SFENCE; n must be a multiple of %d and dst 64-byte aligned (ntKernel splits off the rest).", r.nt))
		}
		st := pairStub(k.name, k.isa.path, k.pairs(), r.loop, append(docs, k.doc...))
		if k.rules != "" {
			st.what = strings.Replace(st.what, "as the registry's loop", "under "+r.rulesLit+", as the loop of its row of ruleRegistry", 1)
		}
		st.write(&b)
	}
	lists := []struct{ fn, path, feature, doc string }{
		{"avx2Kernels", "AVX2", "", "the AVX2 kernels"},
		{"avx512Kernels", "AVX512", "", "the AVX-512 kernels, the non-temporal variants included"},
		{"avx512BF16Kernels", "AVX512", "AVX512_BF16", "the AVX-512 kernels that replace avx512Kernels' when the CPU has AVX512_BF16"},
	}
	for _, l := range lists {
		fmt.Fprintf(&b, "\n// %s lists %s with their pairs.\nfunc %s() []kernelSpec {\n\treturn []kernelSpec{\n", l.fn, l.doc, l.fn)
		for _, k := range kernels {
			if k.isa.path != l.path || k.feature != l.feature || k.rules != "" {
				continue
			}
			for _, p := range k.pairs() {
				fmt.Fprintf(&b, "\t\t{%s, element.%s, element.%s, %s, %t},\n", l.path, p[0], p[1], k.name, k.nt)
			}
		}
		b.WriteString("\t}\n}\n")
	}
	for _, path := range []string{"AVX2", "AVX512"} {
		fmt.Fprintf(&b, "\n// %sRuleKernels lists the %s kernels of the rows of ruleRegistry with their rules and pairs.\n", strings.ToLower(path), path)
		fmt.Fprintf(&b, "func %sRuleKernels() []ruleKernelSpec {\n\treturn []ruleKernelSpec{\n", strings.ToLower(path))
		for _, k := range kernels {
			if k.isa.path == path && k.rules != "" {
				r, _ := k.row(k.pairs()[0], rows, ruleRows)
				fmt.Fprintf(&b, "\t\t{%s, %s, element.%s, element.%s, %s, %t},\n", path, r.rulesLit, k.from, k.to, k.name, k.nt)
			}
		}
		b.WriteString("\t}\n}\n")
	}
	return writeFormatted(path, b.Bytes())
}

// The import paths of the packages that the generated files use.
const (
	elementPkg = "github.com/convertpromote/convertpromote/element"
	kernelsPkg = "github.com/convertpromote/convertpromote/kernels"
)

// stubsHeader writes the start of a file of assembly kernels' stubs, amd64's or arm64's, of
// package kernels or quant: the generated line, the build constraint, the package clause and
// the imports.
func stubsHeader(b *bytes.Buffer, pkg string, imports ...string) {
	fmt.Fprintf(b, "%s\n\n//go:build %s\n\npackage %s\n\n", generated(), asmConstraint, pkg)
	if len(imports) == 1 {
		fmt.Fprintf(b, "import %q\n", imports[0])
		return
	}
	b.WriteString("import (\n")
	for _, p := range imports {
		fmt.Fprintf(b, "\t%q\n", p)
	}
	b.WriteString(")\n")
}

// stub is the Go declaration of an assembly kernel, as every stubs file writes one: its name and
// what it computes, a sentence that ends with a colon, then the Go code it computes as a code
// block, a paragraph for each of docs, and go:noescape.
type stub struct {
	name, what string
	code       []string
	docs       []string
	params     string // the function's parameters: "dst, src []byte, n int"
}

// pairStub returns the stub of a kernel of package kernels on path that converts the pairs by the
// registry's loop.
func pairStub(name, path string, pairs [][2]string, loop string, docs []string) stub {
	var ps []string
	for _, p := range pairs {
		ps = append(ps, typeName(p[0])+" → "+typeName(p[1]))
	}
	return stub{
		name:   name,
		what:   fmt.Sprintf("converts n elements of the pair %s on the %s path, as the registry's loop:", strings.Join(ps, " and the pair "), path),
		code:   []string{"for i := range n {", "\t" + loop, "}"},
		docs:   docs,
		params: "dst, src []byte, n int",
	}
}

// write writes the stub to b, after an empty line.
func (s stub) write(b *bytes.Buffer) {
	fmt.Fprintf(b, "\n// %s %s\n//\n", s.name, s.what)
	for _, l := range s.code {
		fmt.Fprintf(b, "//\t%s\n", l)
	}
	for _, d := range s.docs {
		b.WriteString("//\n")
		for _, l := range wrap(d, 96) {
			fmt.Fprintf(b, "// %s\n", l)
		}
	}
	fmt.Fprintf(b, "//\n//go:noescape\nfunc %s(%s)\n", s.name, s.params)
}

// wrap breaks text into lines of at most width bytes at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// bytesOf returns the size of an element type by its constant name.
func bytesOf(t string) int {
	switch t {
	case "I64", "U64", "F64":
		return 8
	case "I32", "U32", "F32":
		return 4
	case "I16", "U16", "F16", "BF16":
		return 2
	}
	return 1
}

// kname returns the name of the ordinary kernel of a pair on a path: i8ToI32AVX2.
func kname(from, to string, a *isa) string { return pairName(from, to, a.path) }

// spell returns the spelling of an element type in kernel names: f8e4m3, bool, and BF16
// capitalised whole.
func spell(t string) string {
	switch t {
	case "Boolean":
		return "bool"
	case "BF16":
		return "BF16"
	}
	return strings.ToLower(t)
}

// generated returns the first line of every generated file.
func generated() string {
	return fmt.Sprintf("// Code generated by command: go run main.go %s. DO NOT EDIT.", strings.Join(os.Args[1:], " "))
}

// writeFormatted gofmts the Go source src and writes it to path through a temporary file and a
// rename, so that an interrupted run leaves the old file whole.
func writeFormatted(path string, src []byte) error {
	out, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("formatting %s: %v", path, err)
	}
	return writeFile(path, out)
}

// writeFile writes data to path through a temporary file and a rename, so that an interrupted
// run leaves the old file whole.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
