package main

import (
	"strings"
	"testing"
)

// The issue-7 acceptance commands for the framework policies, and the policies' flags.
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
	}{{"pytorch", 19}, {"numpy", 17}, {"jax", 22}} {
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
