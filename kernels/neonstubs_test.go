package kernels

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// stubDoc is what a NEON kernel's documentation says it computes.
type stubDoc struct {
	from, to element.Type
	loop     string // the body of its scalar loop
	asm      bool   // declared without a body (implemented in kernels_arm64.s)
	rules    string // the Rules literal of a kernel of ruleRegistry, as its documentation names it
}

// rulesDoc matches the rules a rule-set kernel's documentation names.
var rulesDoc = regexp.MustCompile(`on the NEON path, under (Rules\{[^}]*\})`)

// rulesLiteral writes r as the generator names a row's rules: Rules{Set: ONNX, NoSaturate: true}.
func rulesLiteral(r Rules) string {
	s := "Rules{Set: " + map[RuleSet]string{OpenVINO: "OpenVINO", ONNX: "ONNX", MLDtypes: "MLDtypes"}[r.Set]
	if r.NoSaturate {
		s += ", NoSaturate: true"
	}
	if r.E8M0Round != RoundUp {
		s += ", E8M0Round: Round" + strings.ToUpper(r.E8M0Round.String()[:1]) + r.E8M0Round.String()[1:]
	}
	return s + "}"
}

// pairDoc matches the pair a kernel's documentation names.
var pairDoc = regexp.MustCompile(`of the pair (\S+) → (\S+) on the NEON path`)

// pkgFile returns the path of a file of the package's directory. A test binary run elsewhere
// (qemu-aarch64 from the repository root) finds it from this file's compile-time path.
func pkgFile(name string) string {
	if _, err := os.Stat(name); err != nil {
		if _, self, _, ok := runtime.Caller(0); ok {
			return filepath.Join(filepath.Dir(self), name)
		}
	}
	return name
}

// neonStubDocs parses the NEON kernels' stubs (stubs_arm64.go, generated) and kernels_arm64.go
// and returns, by function name, the pair and loop that the documentation of each function
// naming a registry pair gives. It reports an error for a function declared without a body (an
// assembly kernel) whose documentation names no pair, and for a documentation that names a
// pair but not as a loop in a code block:
//
//	for i := range n {
//		<loop>
//	}
func neonStubDocs(t *testing.T) map[string]stubDoc {
	t.Helper()
	docs := map[string]stubDoc{}
	for _, path := range []string{pkgFile("stubs_arm64.go"), pkgFile("kernels_arm64.go")} {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name, text := fd.Name.Name, fd.Doc.Text()
			m := pairDoc.FindStringSubmatch(text)
			if m == nil {
				if fd.Body == nil {
					t.Errorf("%s: assembly kernel whose documentation names no registry pair", name)
				}
				continue
			}
			from, err1 := element.Parse(m[1])
			to, err2 := element.Parse(m[2])
			if err1 != nil || err2 != nil {
				t.Errorf("%s: documented pair %s → %s: %v %v", name, m[1], m[2], err1, err2)
				continue
			}
			var code []string
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(l, "\t") {
					code = append(code, l)
				}
			}
			if len(code) != 3 || code[0] != "\tfor i := range n {" || code[2] != "\t}" ||
				!strings.HasPrefix(code[1], "\t\t") {
				t.Errorf("%s: documentation without the code block of a scalar loop: %q", name, code)
				continue
			}
			var rules string
			if m := rulesDoc.FindStringSubmatch(strings.Join(strings.Fields(text), " ")); m != nil {
				rules = m[1]
			}
			docs[name] = stubDoc{from, to, strings.TrimPrefix(code[1], "\t\t"), fd.Body == nil, rules}
		}
	}
	return docs
}

// TestNEONStubLoops checks that every NEON kernel is documented by the loop of its pair's
// registry row, and that every pair the registry gives NEON has an assembly kernel. It parses
// the arm64 Go files, so it runs on every architecture.
func TestNEONStubLoops(t *testing.T) {
	docs := neonStubDocs(t)
	covered := map[[2]element.Type]bool{}
	coveredRules := map[string]bool{}
	for name, d := range docs {
		if d.rules != "" {
			var row *ruleRow
			for i := range ruleRegistry {
				if w := &ruleRegistry[i]; w.from == d.from && w.to == d.to && rulesLiteral(w.rules) == d.rules {
					row = w
				}
			}
			switch {
			case row == nil:
				t.Errorf("%s: documented pair %s → %s under %s has no ruleRegistry row", name, d.from, d.to, d.rules)
			case !row.paths.has(NEON):
				t.Errorf("%s: ruleRegistry row does not name NEON", name)
			case d.loop != row.loop:
				t.Errorf("%s: documented loop\n\t%s\ndiffers from its ruleRegistry row's:\n\t%s", name, d.loop, row.loop)
			}
			if d.asm {
				coveredRules[fmt.Sprint(d.from, d.to, d.rules)] = true
			}
			continue
		}
		r := registryRow(d.from, d.to)
		switch {
		case r == nil:
			t.Errorf("%s: documented pair %s → %s has no registry row", name, d.from, d.to)
		case !r.paths.has(NEON):
			t.Errorf("%s: registry row %s → %s does not name NEON", name, d.from, d.to)
		case d.loop != r.loop:
			t.Errorf("%s: documented loop\n\t%s\ndiffers from the registry row %s → %s:\n\t%s",
				name, d.loop, d.from, d.to, r.loop)
		}
		if d.asm {
			covered[[2]element.Type{d.from, d.to}] = true
		}
	}
	for _, r := range registry {
		if r.paths.has(NEON) && !covered[[2]element.Type{r.from, r.to}] {
			t.Errorf("registry row %s → %s names NEON, but no documented assembly kernel computes it", r.from, r.to)
		}
	}
	for _, r := range ruleRegistry {
		if r.paths.has(NEON) && !coveredRules[fmt.Sprint(r.from, r.to, rulesLiteral(r.rules))] {
			t.Errorf("ruleRegistry row %s → %s under %s names NEON, but no documented assembly kernel computes it", r.from, r.to, r.rules)
		}
	}
}

// textSymbol matches the TEXT line of a Go-visible function in Go assembly.
var textSymbol = regexp.MustCompile(`(?m)^TEXT ·(\w+)\(SB\)`)

// TestNEONTextSymbols checks that the functions of kernels_arm64.s and the Go declarations
// without a body of the arm64 Go files (the generated stubs_arm64.go and the block kernels')
// are the same set. It parses the files, so it runs on every architecture.
func TestNEONTextSymbols(t *testing.T) {
	asm, err := os.ReadFile(pkgFile("kernels_arm64.s"))
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]bool{} // the functions kernels_arm64.s defines
	for _, m := range textSymbol.FindAllStringSubmatch(string(asm), -1) {
		texts[m[1]] = true
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(pkgFile("kernels_arm64.go")), "*_arm64.go"))
	declared := map[string]bool{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
				declared[fd.Name.Name] = true
				if !texts[fd.Name.Name] {
					t.Errorf("%s declares %s, which kernels_arm64.s does not define", filepath.Base(path), fd.Name.Name)
				}
			}
		}
	}
	for name := range texts {
		if !declared[name] {
			t.Errorf("kernels_arm64.s defines %s, which no arm64 Go file declares", name)
		}
	}
	if len(texts) == 0 {
		t.Error("kernels_arm64.s defines no functions")
	}
}
