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

// TestBindRuleKernelsRejects: bindRuleKernels refuses a kernel list that disagrees with
// ruleRegistry, the non-temporal kernels included.
func TestBindRuleKernelsRejects(t *testing.T) {
	f := func(dst, src []byte, n int) {}
	full := func(p Path) []ruleKernelSpec {
		var s []ruleKernelSpec
		for _, r := range ruleRegistry {
			if r.paths.has(p) {
				s = append(s, ruleKernelSpec{p, r.rules, r.from, r.to, f, false})
			}
			if p == AVX512 && r.nt != 0 {
				s = append(s, ruleKernelSpec{p, r.rules, r.from, r.to, f, true})
			}
		}
		return s
	}
	var withNT, withoutNT *ruleRow
	for i := range ruleRegistry {
		if r := &ruleRegistry[i]; r.nt != 0 && withNT == nil && r.paths.has(AVX512) {
			withNT = r
		} else if r.nt == 0 && withoutNT == nil && r.paths.has(AVX512) {
			withoutNT = r
		}
	}
	if withNT == nil || withoutNT == nil {
		t.Fatal("ruleRegistry has no AVX-512 row with a non-temporal block, or none without")
	}
	var dropNT []ruleKernelSpec
	for _, s := range full(AVX512) {
		if !(s.nt && s.rules == withNT.rules && s.from == withNT.from && s.to == withNT.to) {
			dropNT = append(dropNT, s)
		}
	}
	never := func(Path) bool { return false }
	for _, c := range []struct {
		name  string
		specs []ruleKernelSpec
		own   pathSet
	}{
		{"no row", append(full(NEON), ruleKernelSpec{NEON, Rules{Set: ONNX}, element.String, element.F32, f, false}), onNEON},
		{"row without kernel", full(NEON)[1:], onNEON},
		{"non-temporal without block", append(full(AVX512), ruleKernelSpec{AVX512, withoutNT.rules, withoutNT.from, withoutNT.to, f, true}), onAVX512},
		{"non-temporal off AVX-512", append(full(AVX2), ruleKernelSpec{AVX2, withNT.rules, withNT.from, withNT.to, f, true}), onAVX2},
		{"missing non-temporal", dropNT, onAVX512},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: bindRuleKernels accepted it", c.name)
				}
			}()
			bindRuleKernels(c.specs, c.own, never)
		}()
	}
	bindRuleKernels(append(full(AVX2), full(AVX512)...), onAVX2|onAVX512, never)
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
	b.WriteString("| rules | pair | loop: for i := range n { … } | paths | non-temporal block |\n| --- | --- | --- | --- | ---: |\n")
	for _, r := range ruleRegistry {
		nt := "–"
		if r.nt != 0 {
			nt = fmt.Sprint(r.nt)
		}
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
		fmt.Fprintf(&b, "| %s | %s → %s | `%s` | %s | %s |\n", r.rules, r.from, r.to, r.loop, ps, nt)
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
