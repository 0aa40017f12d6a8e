package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// The NEON kernels are written by hand in kernels_arm64.s; the generator writes their Go side
// (stubs_arm64.go): every row that names NEON has the kernel kname(from, to, NEON)
// (f32ToF16NEON), declared and documented by the row's loop, and arm64Kernels binds the kernels
// to their pairs. neonKernels lists what the rows do not say. Package quant's NEON kernels, in
// quant_arm64.s, get their Go side the same way (writeQuantArm64 in quant.go).

// neonKernel is a NEON kernel of package kernels or quant, as checkArm64 checks it against the
// assembly; neonKernels lists those of package kernels that need more than their rows give.
type neonKernel struct {
	name     string // its TEXT symbol in kernels_arm64.s (quant_arm64.s)
	from, to string // its pair (for quant, the scheme and the value type in the conversion's order)
	// doc is a paragraph after its loop.
	doc string
	// bind, when set, is the hand-written Go function (in kernels_arm64.go) that arm64Kernels
	// binds to the pair instead of the kernel: a choice between kernels made at run time.
	bind string
}

// neonKernels lists the NEON kernels beyond one a pair, and the documentation and binding of the
// ordinary ones that have more than their rows say.
var neonKernels = []neonKernel{
	{name: "f32ToBF16NEON", from: "F32", to: "BF16", bind: "f32ToBF16Dynamic",
		doc: "It rounds with integer arithmetic and runs on every arm64 CPU; f32ToBF16Dynamic chooses between it and f32ToBF16BFCVTN."},
	{name: "f32ToBF16BFCVTN", from: "F32", to: "BF16",
		doc: "It runs BFCVTN, which only a CPU with FEAT_BF16 has."},
}

// textSymbol matches the TEXT line of a Go-visible function in an arm64 assembly file.
var textSymbol = regexp.MustCompile(`(?m)^TEXT ·(\w+)\(SB\)`)

// writeArm64 writes the NEON kernels' stubs and arm64Kernels to path, after checking them
// against the assembly in dir: every stub it writes has a TEXT in kernels_arm64.s, and every TEXT
// there has a stub, its own or another arm64 Go file's of dir.
func writeArm64(dir, path string, rows, ruleRows []row) error {
	byPair := byPair(rows)
	var stubs []neonKernel
	binds := map[[2]string]string{}
	for _, r := range rows {
		if !r.has("NEON") {
			continue
		}
		k := neonKernel{name: pairName(r.from, r.to, "NEON"), from: r.from, to: r.to}
		if i := slices.IndexFunc(neonKernels, func(n neonKernel) bool { return n.name == k.name }); i >= 0 {
			k = neonKernels[i]
		}
		stubs = append(stubs, k)
		binds[[2]string{r.from, r.to}] = k.name
		if k.bind != "" {
			binds[[2]string{r.from, r.to}] = k.bind
		}
	}
	for _, k := range neonKernels {
		r, ok := byPair[[2]string{k.from, k.to}]
		switch {
		case !ok || !r.has("NEON"):
			return fmt.Errorf("NEON kernel %s: pair %s → %s has no row that names NEON", k.name, k.from, k.to)
		case !slices.ContainsFunc(stubs, func(s neonKernel) bool { return s.name == k.name }):
			if k.bind != "" {
				return fmt.Errorf("NEON kernel %s binds %s, but is not its pair's kernel", k.name, k.bind)
			}
			stubs = append(stubs, k)
		}
	}
	ruleLoops := map[string]row{}
	for _, r := range ruleRows {
		if r.has("NEON") {
			name := pairName(r.from, r.to, r.rules+"NEON")
			ruleLoops[name] = r
			stubs = append(stubs, neonKernel{name: name, from: r.from, to: r.to})
		}
	}
	if err := checkArm64(dir, "kernels_arm64.s", path, stubs); err != nil {
		return err
	}

	var b bytes.Buffer
	stubsHeader(&b, "kernels", elementPkg)
	comment(&b, "The NEON kernels of kernels_arm64.s. Each is a loopFunc: it converts n elements, the last "+
		"partial block included, and reads or writes nothing outside src and dst, as the loop of its "+
		"pair's registry row, in which src and dst are the buffers viewed as slices of the pair's Go types.")
	for _, k := range stubs {
		var docs []string
		if k.doc != "" {
			docs = append(docs, k.doc)
		}
		if r, ok := ruleLoops[k.name]; ok {
			st := pairStub(k.name, "NEON", [][2]string{{k.from, k.to}}, r.loop, docs)
			st.what = strings.Replace(st.what, "as the registry's loop", "under "+r.rulesLit+", as the loop of its row of ruleRegistry", 1)
			st.write(&b)
			continue
		}
		pairStub(k.name, "NEON", [][2]string{{k.from, k.to}}, byPair[[2]string{k.from, k.to}].loop, docs).write(&b)
	}
	b.WriteString("\n// arm64Kernels lists the NEON kernels with their pairs, for bindKernels.\nfunc arm64Kernels() []kernelSpec {\n\treturn []kernelSpec{\n")
	for _, r := range rows {
		if r.has("NEON") {
			fmt.Fprintf(&b, "\t\t{NEON, element.%s, element.%s, %s, false},\n", r.from, r.to, binds[[2]string{r.from, r.to}])
		}
	}
	b.WriteString("\t}\n}\n")
	b.WriteString("\n// arm64RuleKernels lists the NEON kernels of the rows of ruleRegistry with their rules and pairs.\nfunc arm64RuleKernels() []ruleKernelSpec {\n\treturn []ruleKernelSpec{\n")
	for _, r := range ruleRows {
		if r.has("NEON") {
			fmt.Fprintf(&b, "\t\t{NEON, %s, element.%s, element.%s, %s, false},\n", r.rulesLit, r.from, r.to, pairName(r.from, r.to, r.rules+"NEON"))
		}
	}
	b.WriteString("\t}\n}\n")
	return writeFormatted(path, b.Bytes())
}

// checkArm64 checks the NEON stubs the generator writes to path, package kernels' or quant's,
// against the arm64 files of dir: each has a TEXT in the package's hand-written assembly file asm
// and no declaration elsewhere, every TEXT of asm is declared by a stub or by a function without
// a body in another arm64 Go file, and every function that a kernel binds is declared with a
// body.
func checkArm64(dir, asm, path string, stubs []neonKernel) error {
	src, err := os.ReadFile(filepath.Join(dir, asm))
	if err != nil {
		return err
	}
	texts := map[string]bool{}
	for _, m := range textSymbol.FindAllStringSubmatch(string(src), -1) {
		texts[m[1]] = true
	}
	declared := map[string]bool{} // declared without a body in the other arm64 Go files
	defined := map[string]bool{}  // declared with a body
	files, err := filepath.Glob(filepath.Join(dir, "*_arm64.go"))
	if err != nil {
		return err
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") || filepath.Base(file) == filepath.Base(path) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				if fd.Body == nil {
					declared[fd.Name.Name] = true
				} else {
					defined[fd.Name.Name] = true
				}
			}
		}
	}
	names := map[string]bool{}
	for _, k := range stubs {
		switch {
		case !texts[k.name]:
			return fmt.Errorf("NEON kernel %s (pair %s → %s) has no TEXT in %s", k.name, k.from, k.to, asm)
		case declared[k.name] || defined[k.name]:
			return fmt.Errorf("NEON kernel %s is declared in another arm64 Go file as well", k.name)
		case k.bind != "" && !defined[k.bind]:
			return fmt.Errorf("NEON kernel %s binds %s, which no arm64 Go file defines", k.name, k.bind)
		}
		names[k.name] = true
	}
	for _, t := range slices.Sorted(maps.Keys(texts)) {
		if !names[t] && !declared[t] {
			return fmt.Errorf("%s has TEXT ·%s, which neither a generated stub (a registry row's, or neonKernels') nor an arm64 Go file declares", asm, t)
		}
	}
	return nil
}
