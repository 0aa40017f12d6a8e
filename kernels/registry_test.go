package kernels

import (
	"flag"
	"fmt"
	"github.com/convertpromote/convertpromote/internal/testkit"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the registry's table in docs/kernels.md")

// TestRegistryRows checks each row on its own: one row a pair, a supported pair, some path, a
// power-of-two non-temporal block, and a loop that parses as Go.
func TestRegistryRows(t *testing.T) {
	seen := map[[2]element.Type]bool{}
	for _, r := range registry {
		name := r.from.String() + "→" + r.to.String()
		if seen[[2]element.Type{r.from, r.to}] {
			t.Errorf("%s: two rows", name)
		}
		seen[[2]element.Type{r.from, r.to}] = true
		if genericKernel(r.from, r.to) == nil {
			t.Errorf("%s: no pure-Go loop", name)
		}
		if r.paths == 0 || r.paths&^onAll != 0 {
			t.Errorf("%s: paths %b", name, r.paths)
		}
		if r.nt < 0 || r.nt&(r.nt-1) != 0 || r.nt != 0 && !r.paths.has(AVX512) {
			t.Errorf("%s: non-temporal block %d", name, r.nt)
		}
		src := "package p\nfunc _() {\n\tfor i := range n {\n\t\t" + r.loop + "\n\t}\n}\n"
		if _, err := parser.ParseFile(token.NewFileSet(), name, src, 0); err != nil {
			t.Errorf("%s: loop %q does not parse: %v", name, r.loop, err)
		}
	}
}

// TestRegistryDispatch: on every path this CPU runs, a pair has a SIMD kernel exactly when its
// row names the path.
func TestRegistryDispatch(t *testing.T) {
	for _, p := range Paths() {
		if p == Generic {
			continue
		}
		for _, from := range element.All() {
			for _, to := range element.All() {
				want := openvinoPaths(from, to).has(p)
				if got := HasKernel(p, from, to); got != want {
					t.Errorf("%s %s→%s: HasKernel %v, registry and openvino rows %v", p, from, to, got, want)
				}
			}
		}
	}
}

// TestBindKernelsRejects: bindKernels refuses a kernel list that disagrees with the registry.
func TestBindKernelsRejects(t *testing.T) {
	saved, savedNT := simdTable, ntTable
	defer func() { simdTable, ntTable = saved, savedNT }()
	f := func(dst, src []byte, n int) {}
	r := registry[0]
	full := func(p Path) []kernelSpec {
		var s []kernelSpec
		for _, r := range registry {
			if r.paths.has(p) {
				s = append(s, kernelSpec{p, r.from, r.to, f, false})
			}
			if p == AVX512 && r.nt != 0 {
				s = append(s, kernelSpec{p, r.from, r.to, f, true})
			}
		}
		return s
	}
	never := func(Path) bool { return false }
	for _, c := range []struct {
		name  string
		specs []kernelSpec
		own   pathSet
	}{
		{"no row", append(full(NEON), kernelSpec{NEON, element.String, element.F32, f, false}), onNEON},
		{"path not in row", []kernelSpec{{NEON, r.from, r.to, f, false}}, onAVX2},
		{"row without kernel", full(NEON)[1:], onNEON},
		{"non-temporal without block", append(full(AVX512), kernelSpec{AVX512, element.F16, element.BF16, f, true}), onAVX512},
		{"missing non-temporal", full(AVX2), onAVX2 | onAVX512},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: bindKernels accepted it", c.name)
				}
			}()
			bindKernels(c.specs, c.own, never)
		}()
	}
	bindKernels(append(full(AVX2), full(AVX512)...), onAVX2|onAVX512, never)
}

// registryTable renders the registry as the Markdown table of docs/kernels.md.
func registryTable() string {
	var b strings.Builder
	b.WriteString("| pair | loop: for i := range n { … } | paths | non-temporal block |\n| --- | --- | --- | ---: |\n")
	for _, r := range registry {
		ps := pathSetNames(r.paths)
		nt := "–"
		if r.nt != 0 {
			nt = fmt.Sprint(r.nt)
		}
		fmt.Fprintf(&b, "| %s → %s | `%s` | %s | %s |\n", r.from, r.to, r.loop, strings.Join(ps, ", "), nt)
	}
	return b.String()
}

// pathSetNames returns the names of the paths in s, in Path order.
func pathSetNames(s pathSet) []string {
	var ps []string
	for p := range numPaths {
		if s.has(p) {
			ps = append(ps, p.String())
		}
	}
	return ps
}

// ruleRegistryTable renders ruleRegistry as the Markdown table of docs/kernels.md.
func ruleRegistryTable() string {
	var b strings.Builder
	b.WriteString("| rules | pair | loop: for i := range n { … } | paths |\n| --- | --- | --- | --- |\n")
	for _, r := range ruleRegistry {
		ps := strings.Join(pathSetNames(r.paths), ", ")
		if r.openvino {
			if ps != "" {
				ps += "; "
			}
			ps += "OpenVINO's codes"
			if reg := registryRow(r.from, r.to); reg != nil {
				ps += ", its kernels: " + strings.Join(pathSetNames(reg.paths), ", ")
			}
		}
		fmt.Fprintf(&b, "| %s | %s → %s | `%s` | %s |\n", r.rules, r.from, r.to, r.loop, ps)
	}
	return b.String()
}

// TestRegistryDocTable: docs/kernels.md lists exactly the registry's rows, between its two
// registry markers, and ruleRegistry's between its two rule-registry markers. go test ./kernels
// -run TestRegistryDocTable -update-docs rewrites them.
func TestRegistryDocTable(t *testing.T) {
	testkit.DocSection(t, "../docs/kernels.md", "registry", registryTable(), *updateDocs, "go test ./kernels -run TestRegistryDocTable -update-docs")
	testkit.DocSection(t, "../docs/kernels.md", "rule-registry", ruleRegistryTable(), *updateDocs, "go test ./kernels -run TestRegistryDocTable -update-docs")
}
