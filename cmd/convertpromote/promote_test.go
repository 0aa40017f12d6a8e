package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// cli runs the command in-process and returns its exit code, stdout and stderr.
func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runMain(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestPromoteAcceptance(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		out, err string // substrings; out must equal when code is 0
	}{
		{[]string{"promote", "f16", "i64"}, 1, "", "error: Integer input cannot be safely promoted to floating-point."},
		{[]string{"promote", "--promote-unsafe", "f16", "i64"}, 0, "f16\n", ""},
		{[]string{"promote", "f16", "i64", "--promote-unsafe"}, 0, "f16\n", ""},
		{[]string{"promote", "--pytorch-scalar-promotion", "--promote-unsafe", "i64[]", "u8[2]"}, 0, "u8\n", ""},
		{[]string{"promote", "--promote-unsafe", "u64", "i8"}, 0, "f32\n", ""},
		{[]string{"promote", "--promote-unsafe", "u64", "i8", "--u64-target", "i64"}, 0, "i64\n", ""},
		{[]string{"promote", "--promote-unsafe", "--u64-target=i64", "u64", "i8"}, 0, "i64\n", ""},
		{[]string{"promote", "nf4", "f32"}, 1, "", "nf4"},
		{[]string{"promote", "f33", "f32"}, 2, "", "f33"},
		{[]string{"promote", "f32[2", "f32"}, 2, "", "f32[2"},
		{[]string{"promote", "f32"}, 2, "", "want 2 operands"},
		{[]string{"promote", "--bogus", "f32", "f32"}, 2, "", "bogus"},
		{[]string{"promote", "--u64-target", "x9", "u64", "i8"}, 2, "", "x9"},
		{[]string{"promote", "FP16[256,56]", "f32[3]"}, 0, "f32\n", ""},
		{[]string{"promote", "dynamic", "f32"}, 0, "dynamic\n", ""},
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
		if c.code != 0 && (out != "" || !strings.Contains(errs, c.err)) {
			t.Errorf("%v: stdout %q, stderr %q; want stderr containing %q", c.args, out, errs, c.err)
		}
	}
}

func TestPromoteJSON(t *testing.T) {
	code, out, _ := cli(t, "", "promote", "--json", "i8", "f32")
	var m map[string]string
	if code != 0 || json.Unmarshal([]byte(out), &m) != nil || len(m) != 1 || m["type"] != "f32" {
		t.Errorf("json success: %d %q", code, out)
	}
	code, out, errs := cli(t, "", "promote", "u8", "i8", "--json")
	m = nil
	if code != 1 || errs != "" || json.Unmarshal([]byte(out), &m) != nil || len(m) != 1 ||
		!strings.Contains(m["error"], "Unsigned integer input cannot be safely promoted") {
		t.Errorf("json error: %d %q %q", code, out, errs)
	}
}

func TestTable(t *testing.T) {
	code, out, _ := cli(t, "", "table")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || lines[0] != "lhs\trhs\tresult" || len(lines) != 1+18*18 {
		t.Fatalf("table: exit %d, %d lines, header %q", code, len(lines), lines[0])
	}
	seen := map[string]string{}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 3 || f[0] == "dynamic" || f[1] == "dynamic" {
			t.Fatalf("bad row %q", l)
		}
		seen[f[0]+"+"+f[1]] = f[2]
	}
	for pair, want := range map[string]string{"i8+f32": "f32", "f16+i64": "error", "u8+i16": "i16",
		"bf16+f16": "error", "boolean+u64": "u64", "u64+i8": "error"} {
		if seen[pair] != want {
			t.Errorf("table %s = %q, want %q", pair, seen[pair], want)
		}
	}
	_, out, _ = cli(t, "", "table", "--promote-unsafe", "--types", "bf16,f16,u64,i8", "--u64-target", "i64")
	want := "lhs\trhs\tresult\n"
	rows := map[[2]string]string{{"bf16", "f16"}: "f32", {"f16", "bf16"}: "f32", {"u64", "i8"}: "i64", {"i8", "u64"}: "i64",
		{"bf16", "u64"}: "bf16", {"u64", "bf16"}: "bf16", {"f16", "u64"}: "f16", {"u64", "f16"}: "f16",
		{"bf16", "i8"}: "bf16", {"i8", "bf16"}: "bf16", {"f16", "i8"}: "f16", {"i8", "f16"}: "f16"}
	for _, a := range []string{"bf16", "f16", "u64", "i8"} {
		for _, b := range []string{"bf16", "f16", "u64", "i8"} {
			r := rows[[2]string{a, b}]
			if a == b {
				r = a
			}
			want += a + "\t" + b + "\t" + r + "\n"
		}
	}
	if out != want {
		t.Errorf("table --types:\n%s\nwant\n%s", out, want)
	}
	if code, _, errs := cli(t, "", "table", "--types", "f32,zz"); code != 2 || !strings.Contains(errs, "zz") {
		t.Errorf("table bad type: %d %q", code, errs)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"promote", "-h"}, {"table", "-h"}, {"help", "promote"}} {
		code, out, _ := cli(t, "", args...)
		if code != 0 || !strings.Contains(out, "convertpromote") {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
	code, out, _ := cli(t, "", "promote", "-h")
	if code != 0 || !strings.Contains(out, "Example") || !strings.Contains(out, "--promote-unsafe") {
		t.Errorf("promote -h lacks flags or an example: %q", out)
	}
	if code, _, errs := cli(t, "", "frobnicate"); code != 2 || !strings.Contains(errs, "frobnicate") {
		t.Errorf("unknown command: %d %q", code, errs)
	}
	if code, _, _ := cli(t, ""); code != 2 {
		t.Errorf("no command: exit %d", code)
	}
}

// cliCase is a command line with its standard input, its exit code, and the exact stdout when
// the code is 0 or a substring of stderr otherwise.
type cliCase struct {
	stdin string
	args  []string
	code  int
	out   string
	err   string
}

// checkCLICases runs every case and reports each difference from what it expects.
func checkCLICases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, c := range cases {
		code, out, errs := cli(t, c.stdin, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, errs)
			continue
		}
		if c.code == 0 && out != c.out {
			t.Errorf("%v: stdout\n%q\nwant\n%q", c.args, out, c.out)
		}
		if c.code != 0 && !strings.Contains(errs, c.err) {
			t.Errorf("%v: stderr %q does not mention %q", c.args, errs, c.err)
		}
	}
}
