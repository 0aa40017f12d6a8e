package main

import (
	"os"
	"strings"
	"testing"
)

// TestPolicyAcceptance: promote under each framework policy and with the policies' flags.
func TestPolicyAcceptance(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string // stdout when code is 0, a substring of stderr otherwise
	}{
		{[]string{"promote", "--policy", "pytorch", "i32", "i64[]"}, 0, "i32\n"},
		{[]string{"promote", "--policy", "pytorch", "i32", "py:float"}, 0, "f32\n"},
		{[]string{"promote", "--policy", "numpy", "i32", "f32"}, 0, "f64\n"},
		{[]string{"promote", "--policy", "jax", "--x64", "u64", "i64"}, 0, "weak:f64\n"},
		{[]string{"promote", "u64", "i64", "--policy=jax", "--x64"}, 0, "weak:f64\n"},
		{[]string{"promote", "--policy", "jax", "u64", "i64"}, 0, "i32\n"},
		{[]string{"promote", "--policy", "pytorch", "--op", "div", "i32", "py:int"}, 0, "f32\n"},
		{[]string{"promote", "--policy", "numpy", "--op", "compare", "i32", "f32"}, 0, "boolean\n"},
		{[]string{"promote", "--policy", "tf-safe", "i32", "f32"}, 1, "i32"},
		{[]string{"promote", "--policy", "tf", "i32", "f32"}, 0, "f32\n"},
		{[]string{"promote", "--policy", "paddle", "i64", "f32"}, 1, "f32"},
		{[]string{"promote", "--policy", "paddle", "i64", "py:float"}, 0, "f32\n"},
		{[]string{"promote", "--policy", "paddle", "--op", "div", "i32", "i32"}, 0, "f32\n"},
		{[]string{"promote", "--policy", "paddle", "--op", "compare", "f16", "f32"}, 0, "boolean\n"},
		{[]string{"promote", "--policy", "paddle", "--op", "compare", "c64", "f32"}, 1, "error: paddle: cannot promote c64"},
		{[]string{"promote", "--policy", "paddle", "--op", "compare", "i32", "py:complex"}, 1, "does not promote complex types"},
		{[]string{"promote", "--policy", "anvil", "weak:f32", "i32"}, 0, "weak:f32\n"},
		{[]string{"promote", "--policy", "anvil", "--json", "weak:f32", "i8"}, 0, "{\"type\":\"weak:f32\"}\n"},
		{[]string{"promote", "--policy", "pytorch", "u16", "i32"}, 1, "u16"},
		{[]string{"promote", "--policy", "jax", "--op", "div", "i32", "i32"}, 2, "div"},
		{[]string{"promote", "--policy", "nosuch", "i32", "i32"}, 2, "nosuch"},
	}
	for _, c := range cases {
		code, out, errs := cli(t, "", c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stdout %q, stderr %q)", c.args, code, c.code, out, errs)
			continue
		}
		if c.code == 0 && out != c.out {
			t.Errorf("%v: stdout %q, want %q", c.args, out, c.out)
		}
		if c.code != 0 && !strings.Contains(errs, c.out) {
			t.Errorf("%v: stderr %q does not contain %q", c.args, errs, c.out)
		}
	}
}

// table --policy lists the policy's own types: every ordered pair once, no dynamic.
func TestPolicyTable(t *testing.T) {
	for _, c := range []struct {
		policy string
		types  int
	}{{"pytorch", 19}, {"numpy", 17}, {"jax", 23}, {"jax-strict", 23}, {"tf", 15}, {"tf-safe", 15},
		{"paddle", 12}, {"anvil", 11}} {
		code, out, errs := cli(t, "", "table", "--policy", c.policy)
		if code != 0 {
			t.Fatalf("table --policy %s: exit %d: %s", c.policy, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 1+c.types*c.types {
			t.Errorf("table --policy %s: %d lines, want %d", c.policy, len(lines), 1+c.types*c.types)
		}
		if strings.Contains(out, "dynamic") {
			t.Errorf("table --policy %s lists dynamic", c.policy)
		}
	}
	_, out, _ := cli(t, "", "table", "--policy", "jax", "--x64", "--types", "u64,i64")
	if !strings.Contains(out, "u64\ti64\tweak:f64\n") {
		t.Errorf("table --policy jax --x64: %q lacks u64 i64 weak:f64", out)
	}
}

// TestCompare: compare prints the Markdown table of docs/SEMANTICS.md §6.5, a header, a rule
// and one row per pair, with the cells the policies' rules give.
func TestCompare(t *testing.T) {
	code, out, errs := cli(t, "", "compare")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2+10 {
		t.Fatalf("compare printed %d lines, want 12:\n%s", len(lines), out)
	}
	header := strings.Split(strings.Trim(lines[0], "| "), " | ")
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	rows := map[string][]string{}
	for _, l := range lines[2:] {
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if len(cells) != len(header) {
			t.Fatalf("row %q has %d cells, want %d", l, len(cells), len(header))
		}
		rows[strings.Trim(cells[0], "`")+" "+strings.Trim(cells[1], "`")] = cells
	}
	for _, c := range []struct{ pair, policy, want string }{
		{"u64 i64", "pytorch", "error"},
		{"u64 i64", "numpy", "f64"},
		{"u64 i64", "jax --x64", "weak:f64"},
		{"u64 i64", "jax", "i32"},
		{"u64 i64", "paddle", "n/a"},
		{"i64 u64", "tf", "weak:f64"},
		{"bf16 f16", "pytorch", "f32"},
		{"i32 f32", "numpy", "f64"},
		{"i32 f32", "tf-safe", "error"},
		{"i32 f32", "paddle", "error"},
		{"f8e4m3 f8e5m2", "numpy", "f32"},
		{"f8e4m3 f32", "pytorch", "error"},
		{"py:float i32", "pytorch", "f32"},
		{"py:float i32", "paddle", "f32"},
		{"py:int u8", "openvino", "i64"},
		{"boolean py:int", "tf", "weak:i32"},
		{"f16 py:complex", "pytorch", "c32"},
	} {
		r, ok := rows[c.pair]
		if !ok {
			t.Errorf("compare has no row %q", c.pair)
			continue
		}
		if got := r[col[c.policy]]; got != c.want {
			t.Errorf("compare %s under %s: %q, want %q", c.pair, c.policy, got, c.want)
		}
	}
	code, out, _ = cli(t, "", "compare", "--pairs", "i8 u8; f32 py:int")
	if code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != 4 {
		t.Errorf("compare --pairs: exit %d, output\n%s", code, out)
	}
	if code, _, _ := cli(t, "", "compare", "--pairs", "i8"); code != 2 {
		t.Errorf("compare --pairs i8: exit %d, want 2", code)
	}
	if code, _, _ := cli(t, "", "compare", "--pairs", "i8 x9"); code != 2 {
		t.Errorf("compare --pairs 'i8 x9': exit %d, want 2", code)
	}
}

// The compare table in docs/SEMANTICS.md (§6.5) is exactly what the command prints, so the docs
// cannot go stale.
func TestCompareTableInDocs(t *testing.T) {
	_, out, _ := cli(t, "", "compare")
	for _, path := range []string{"../../docs/SEMANTICS.md"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		text := string(b)
		i := strings.Index(text, "| lhs | rhs | openvino |")
		if i < 0 {
			t.Fatalf("%s has no compare table", path)
		}
		table := text[i:]
		if j := strings.Index(table, "\n\n"); j >= 0 {
			table = table[:j+1]
		}
		if table != out {
			t.Errorf("%s's compare table differs from `convertpromote compare`:\n%s\nwant\n%s", path, table, out)
		}
	}
}
