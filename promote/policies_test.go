package promote

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// Helpers and cross-policy properties shared by the framework policies' tests.

// pcase is one promotion: two operands in the CLI's syntax and the expected result ("i32",
// "weak:f64") or "error".
type pcase struct {
	a, b, want string
}

func mustPolicy(t *testing.T, name string, c Config) Policy {
	t.Helper()
	p, err := New(name, c)
	if err != nil {
		t.Fatalf("New(%q, %+v): %v", name, c, err)
	}
	return p
}

func mustOperand(t *testing.T, s string) Operand {
	t.Helper()
	o, err := ParseOperand(s)
	if err != nil {
		t.Fatalf("ParseOperand(%q): %v", s, err)
	}
	return o
}

// outcome formats a promotion's outcome as pcase.want does.
func outcome(r Result, err error) string {
	if err != nil {
		return "error"
	}
	return r.String()
}

// runCases checks every case; src names where the cases come from, for failure messages.
func runCases(t *testing.T, p Policy, src string, cases []pcase) {
	t.Helper()
	for _, c := range cases {
		a, b := mustOperand(t, c.a), mustOperand(t, c.b)
		r, err := p.Promote(a, b)
		if got := outcome(r, err); got != c.want {
			t.Errorf("%s (%s): %s + %s = %s (err %v), want %s", p.Name(), src, c.a, c.b, got, err, c.want)
		}
	}
}

// seedDir returns the shared seeds folder: ../shared/seeds beside the repository, else
// $CONVERTPROMOTE_SHARED/seeds. The test is skipped when neither exists.
func seedDir(t *testing.T) string {
	t.Helper()
	candidates := []string{filepath.Join("..", "..", "shared", "seeds")}
	if env := os.Getenv("CONVERTPROMOTE_SHARED"); env != "" {
		candidates = append(candidates, filepath.Join(env, "seeds"))
	}
	for _, d := range candidates {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	t.Skip("seeds not found (../shared/seeds or $CONVERTPROMOTE_SHARED/seeds)")
	return ""
}

func readSeed(t *testing.T, prefix string) string {
	t.Helper()
	dir := seedDir(t)
	matches, _ := filepath.Glob(filepath.Join(dir, prefix+"*"))
	if len(matches) != 1 {
		t.Fatalf("want one seed %s* in %s, found %v", prefix, dir, matches)
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// grid is a promotion table: header names and, per row name, one cell per header.
type grid struct {
	cols []string
	rows map[string][]string
	keys []string // row names in order
}

// parseGrid reads a whitespace- or '|'-separated table typed in a test: the first line is the
// column header (its first field, if any, is a corner label when hasCorner), each other line a row
// name followed by one cell per column.
func parseGrid(t *testing.T, text string) grid {
	t.Helper()
	g := grid{rows: map[string][]string{}}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '|' })
		if len(f) == 0 {
			continue
		}
		if g.cols == nil {
			g.cols = f
			continue
		}
		if len(f) != len(g.cols)+1 {
			t.Fatalf("grid row %q has %d cells, want %d", line, len(f)-1, len(g.cols))
		}
		g.rows[f[0]] = f[1:]
		g.keys = append(g.keys, f[0])
	}
	return g
}

// equalGrids reports cells that differ between a typed grid and one parsed from a seed, after
// mapping the seed's names with rename.
func equalGrids(t *testing.T, what string, typed, seed grid, rename func(string) string) {
	t.Helper()
	if len(typed.cols) != len(seed.cols) || len(typed.keys) != len(seed.keys) {
		t.Fatalf("%s: typed table is %dx%d, seed table %dx%d", what, len(typed.keys), len(typed.cols), len(seed.keys), len(seed.cols))
	}
	for i := range typed.cols {
		if typed.cols[i] != rename(seed.cols[i]) {
			t.Errorf("%s: column %d is %s in the test, %s in the seed", what, i, typed.cols[i], seed.cols[i])
		}
	}
	for i, k := range typed.keys {
		sk := seed.keys[i]
		if k != rename(sk) {
			t.Errorf("%s: row %d is %s in the test, %s in the seed", what, i, k, sk)
			continue
		}
		for j, cell := range typed.rows[k] {
			if s := rename(seed.rows[sk][j]); cell != s {
				t.Errorf("%s: cell %s×%s is %s in the test, %s in the seed", what, k, typed.cols[j], cell, s)
			}
		}
	}
}

// policyVariants lists every registered policy under each configuration that changes its rules.
func policyVariants(t *testing.T) []Policy {
	t.Helper()
	var ps []Policy
	for _, name := range PolicyNames() {
		ps = append(ps, mustPolicy(t, name, Config{}))
		switch name {
		case "jax", "jax-strict":
			ps = append(ps, mustPolicy(t, name, Config{X64: true}))
		case "pytorch", "numpy", "paddle":
			ps = append(ps, mustPolicy(t, name, Config{Op: OpDiv}), mustPolicy(t, name, Config{Op: OpCompare}))
		case "openvino":
			ps = append(ps, mustPolicy(t, name, Config{PromoteUnsafe: true}))
		}
	}
	return ps
}

// operandsOf returns every type of p as an operand weak and strong, of rank 0, rank 1 and dynamic
// rank.
func operandsOf(p Policy) []Operand {
	var ops []Operand
	for _, ty := range p.Types() {
		for _, weak := range []bool{false, true} {
			for _, s := range []Shape{StaticShape(), StaticShape(3), DynamicRankShape()} {
				ops = append(ops, Operand{Type: ty, Shape: s, Weak: weak})
			}
		}
	}
	return ops
}

// Every system here promises commutativity (PyTorch's result_type and promote_types, NumPy's
// promote_types and NEP 50, JAX's lattice join, TensorFlow's table built symmetric in
// flexible_dtypes.py, Paddle's "commutative property" in its promotion doc, anvil's
// common_dtype): the outcome never depends on operand order. Checked over all pairs of each
// policy's types, weak and strong, of rank 0 and 1. Errors must name both types.
func TestPoliciesOrderIndependent(t *testing.T) {
	for _, p := range policyVariants(t) {
		ops := operandsOf(p)
		pairs := 0
		for _, a := range ops {
			for _, b := range ops {
				ra, ea := p.Promote(a, b)
				rb, eb := p.Promote(b, a)
				if outcome(ra, ea) != outcome(rb, eb) {
					t.Errorf("%s %+v: %s + %s = %s but %s + %s = %s", p.Name(), p, a, b, outcome(ra, ea), b, a, outcome(rb, eb))
				}
				for _, e := range []error{ea, eb} {
					if e != nil && (!strings.Contains(e.Error(), a.Type.String()) || !strings.Contains(e.Error(), b.Type.String())) {
						t.Errorf("%s: error %q does not name both %s and %s", p.Name(), e, a.Type, b.Type)
					}
				}
				pairs++
			}
		}
		if pairs == 0 {
			t.Errorf("%s: no types", p.Name())
		}
	}
}

// Each policy lists its own types, without dynamic and without repeats, and every listed type
// promotes with itself as a strong tensor to itself (ordinary arithmetic).
func TestPolicyTypes(t *testing.T) {
	for _, name := range PolicyNames() {
		p := mustPolicy(t, name, Config{X64: true})
		seen := map[element.Type]bool{}
		for _, ty := range p.Types() {
			if ty == element.Dynamic {
				t.Errorf("%s lists dynamic", name)
			}
			if seen[ty] {
				t.Errorf("%s lists %s twice", name, ty)
			}
			seen[ty] = true
			r, err := p.Promote(Tensor(ty), Tensor(ty))
			if err != nil || r != (Result{Type: ty}) {
				t.Errorf("%s: %s + %s = %v, %v; want %s", name, ty, ty, r, err, ty)
			}
		}
	}
}

// A type outside a policy's set is an error naming it, never a panic.
func TestPolicyForeignTypes(t *testing.T) {
	for _, p := range policyVariants(t) {
		known := map[element.Type]bool{}
		for _, ty := range p.Types() {
			known[ty] = true
		}
		for _, ty := range append(element.All(), element.Type(250)) {
			if known[ty] || ty == element.Dynamic && p.Name() == "openvino" {
				continue
			}
			_, err := p.Promote(Tensor(ty), Tensor(element.F32))
			if err == nil {
				t.Errorf("%s accepts %s, which is not in Types()", p.Name(), ty)
			} else if !strings.Contains(err.Error(), ty.String()) {
				t.Errorf("%s: error %q does not name %s", p.Name(), err, ty)
			}
		}
	}
}

func TestPromotionErrorType(t *testing.T) {
	_, err := mustPolicy(t, "pytorch", Config{}).Promote(Tensor(element.U16), Tensor(element.I32))
	var pe *PromotionError
	if !errors.As(err, &pe) || pe.Policy != "pytorch" || pe.A.Type != element.U16 || pe.B.Type != element.I32 {
		t.Fatalf("err = %#v, want a *PromotionError for pytorch u16, i32", err)
	}
}

func TestUnknownOpKinds(t *testing.T) {
	for _, c := range []struct {
		policy, op string
		ok         bool
	}{
		{"pytorch", "div", true}, {"pytorch", "compare", true}, {"pytorch", "mul", false},
		{"numpy", "div", true}, {"numpy", "compare", true}, {"numpy", "pow", false},
		{"jax", "div", false}, {"jax-strict", "compare", false}, {"jax", "add", true},
	} {
		_, err := New(c.policy, Config{Op: c.op})
		if (err == nil) != c.ok {
			t.Errorf("New(%s, op %q): err %v, want ok=%t", c.policy, c.op, err, c.ok)
		}
	}
}
