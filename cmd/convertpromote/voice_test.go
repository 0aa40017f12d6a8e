package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/promote"
)

// subcommands lists every command line prefix that has a help of its own.
func subcommands() [][]string {
	var cmds [][]string
	for name := range commands {
		cmds = append(cmds, []string{name})
	}
	for sub := range irSubcommands {
		cmds = append(cmds, []string{"ir", sub})
	}
	sort.Slice(cmds, func(i, j int) bool { return strings.Join(cmds[i], " ") < strings.Join(cmds[j], " ") })
	return cmds
}

// TestHelpOnceOnStdout: -h (and its spellings) prints the command's own help once, to stdout,
// nothing on stderr, exit 0.
func TestHelpOnceOnStdout(t *testing.T) {
	for _, cmd := range subcommands() {
		name := strings.Join(cmd, " ")
		for _, h := range []string{"-h", "--help", "-help"} {
			code, out, errs := cli(t, "", append(slices.Clone(cmd), h)...)
			head := "Usage: convertpromote " + name + " "
			if code != 0 || errs != "" || !strings.HasPrefix(out, head) || strings.Count(out, "Usage:") != 1 {
				t.Errorf("%s %s: exit %d, stderr %q, stdout starts %q (want one help starting %q)",
					name, h, code, errs, firstLine(out), head)
			}
		}
	}
	// help CMD is CMD -h.
	for _, cmd := range subcommands() {
		name := strings.Join(cmd, " ")
		_, want, _ := cli(t, "", append(slices.Clone(cmd), "-h")...)
		if code, out, errs := cli(t, "", append([]string{"help"}, cmd...)...); code != 0 || errs != "" || out != want {
			t.Errorf("help %s: exit %d, stderr %q; stdout differs from %s -h", name, code, errs, name)
		}
	}
	if code, out, errs := cli(t, "", "help", "nope"); code != 2 || out != "" || !strings.HasPrefix(errs, `convertpromote help: unknown command "nope"`) {
		t.Errorf("help nope: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestTopLevelExamples: the top-level help shows one example per command, and each runs.
func TestTopLevelExamples(t *testing.T) {
	code, out, _ := cli(t, "", "help")
	if code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	_, section, ok := strings.Cut(out, "\nExamples:\n")
	if !ok {
		t.Fatalf("help has no Examples section:\n%s", out)
	}
	section, _, _ = strings.Cut(section, "\n\n")
	count := map[string]int{}
	for _, line := range strings.Split(section, "\n") {
		line, comment, _ := strings.Cut(line, "#") // "# OUTPUT": the output, its lines joined by ", "
		words := shellWords(strings.TrimSpace(line))
		if len(words) < 2 || words[0] != "convertpromote" {
			t.Errorf("example %q is not a convertpromote command line", line)
			continue
		}
		count[words[1]]++
		if words[1] == "bench" { // measures for seconds; its flags are checked by TestBenchUsageErrors
			v := map[string]string{"--pairs": defaultBenchPairs, "--sizes": "1Ki", "--paths": "auto", "--threads": "1", "--time": "1s", "--rules": "openvino"}
			for i := 2; i+1 < len(words); i += 2 {
				v[words[i]] = words[i+1]
			}
			if _, _, _, err := benchPlan(v["--pairs"], v["--sizes"], v["--paths"], v["--threads"], v["--time"], v["--plot"], v["--rules"], &strings.Builder{}); err != nil {
				t.Errorf("example %q: %v", line, err)
			}
			continue
		}
		for i, w := range words {
			if strings.HasPrefix(w, "testdata/") {
				words[i] = filepath.Join("..", "..", w)
			}
		}
		code, out, errs := cli(t, "", words[1:]...)
		if code != 0 {
			t.Errorf("example %q: exit %d: %s", line, code, errs)
		}
		got := strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(out), "\n", ", "), "\t", " ")
		if comment = strings.TrimSpace(comment); comment != "" && got != comment {
			t.Errorf("example %q prints %q, its comment says %q", line, got, comment)
		}
	}
	for name := range commands {
		if count[name] != 1 {
			t.Errorf("top-level help has %d examples of %s, want 1", count[name], name)
		}
	}
}

// shellWords splits a command line at spaces, keeping single-quoted words whole.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	quoted, any := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, any = !quoted, true
		case r == ' ' && !quoted:
			if any {
				words = append(words, cur.String())
				cur.Reset()
				any = false
			}
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		words = append(words, cur.String())
	}
	return words
}

// TestUnknownFlagOneLine: an unknown flag gets one line naming it and pointing at the help.
func TestUnknownFlagOneLine(t *testing.T) {
	for _, cmd := range subcommands() {
		name := strings.Join(cmd, " ")
		for _, flag := range []string{"--no-such-flag", "-zz=1"} {
			code, out, errs := cli(t, "", append(slices.Clone(cmd), flag)...)
			spelled, _, _ := strings.Cut(flag, "=")
			want := "convertpromote " + name + ": unknown flag " + spelled + "; run 'convertpromote " + name + " -h'\n"
			if code != 2 || out != "" || errs != want {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2 and stderr %q", name, flag, code, out, errs, want)
			}
		}
	}
	if code, _, errs := cli(t, "", "frobnicate"); code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `"frobnicate"`) {
		t.Errorf("unknown command: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := cli(t, "", "ir", "frobnicate", "a.xml"); code != 2 || strings.Count(errs, "\n") != 1 ||
		!strings.HasPrefix(errs, `convertpromote ir: unknown subcommand "frobnicate"`) {
		t.Errorf("unknown ir subcommand: exit %d, stderr %q", code, errs)
	}
}

// TestErrorLinesNameTheCommand: every usage or I/O error line starts "convertpromote CMD: ".
func TestErrorLinesNameTheCommand(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.xml")
	cases := []struct {
		prefix string
		args   []string
	}{
		{"promote", []string{"promote", "f32"}},
		{"promote", []string{"promote", "f33", "f32"}},
		{"promote", []string{"promote", "--policy", "nope", "f32", "f32"}},
		{"promote", []string{"promote", "--u64-target", "x9", "u64", "i8"}},
		{"table", []string{"table", "extra"}},
		{"table", []string{"table", "--types", "f32,zz"}},
		{"table", []string{"table", "--policy", "nope"}},
		{"compare", []string{"compare", "extra"}},
		{"compare", []string{"compare", "--pairs", "f32"}},
		{"compare", []string{"compare", "--pairs", "f33 f32"}},
		{"convert", []string{"convert", "--from", "f32", "--to", "f16", "abc"}},
		{"convert", []string{"convert", "--from", "f33", "--to", "f16", "1"}},
		{"convert", []string{"convert", "--to", "f16", "1"}},
		{"convert", []string{"convert", "--from", "f32", "--to", "f16"}},
		{"convert", []string{"convert", "--from", "f32", "--to", "f16", "--bits", "zz"}},
		{"bench", []string{"bench", "--time", "fast"}},
		{"bench", []string{"bench", "extra"}},
		{"ir check", []string{"ir", "check", missing}},
		{"ir check", []string{"ir", "check"}},
		{"ir run", []string{"ir", "run", "a.xml", "b.xml"}},
		{"ir run", []string{"ir", "run", "--input", "x"}},
		{"ir decompose", []string{"ir", "decompose", missing}},
		{"ir fold", []string{"ir", "fold", "--out", "d", "--embedded", "-o", "x.xml"}},
	}
	for _, c := range cases {
		code, _, errs := cli(t, "", c.args...)
		if code == 0 || errs == "" {
			t.Errorf("%q: exit %d, stderr %q; want an error", c.args, code, errs)
			continue
		}
		for _, line := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
			if !strings.HasPrefix(line, "convertpromote "+c.prefix+": ") {
				t.Errorf("%q: error line %q does not start %q", c.args, line, "convertpromote "+c.prefix+": ")
			}
		}
	}
}

// helpTexts returns the -h output of every command and ir subcommand, and the top-level help.
func helpTexts(t *testing.T) map[string]string {
	texts := map[string]string{}
	_, texts["help"], _ = cli(t, "", "help")
	for _, cmd := range subcommands() {
		_, out, _ := cli(t, "", append(slices.Clone(cmd), "-h")...)
		texts[strings.Join(cmd, " ")] = out
	}
	_, texts["ir"], _ = cli(t, "", "ir", "-h")
	return texts
}

// TestHelpHasNoInternalCodes: help says what happens, not an error code such as E_FI.
func TestHelpHasNoInternalCodes(t *testing.T) {
	code := regexp.MustCompile(`\bE_[A-Z0-9_]+\b`)
	for name, text := range helpTexts(t) {
		if m := code.FindString(text); m != "" {
			t.Errorf("%s -h mentions the internal code %s", name, m)
		}
	}
}

// TestHelpTypeListsAreAccepted: a type the help of promote, table or convert lists is one the
// command accepts (for promote and table, under the policy the line names), and every type it
// accepts is listed.
func TestHelpTypeListsAreAccepted(t *testing.T) {
	for _, cmd := range []string{"promote", "table"} {
		_, help, _ := cli(t, "", cmd, "-h")
		lists := typeLists(help, promote.PolicyNames())
		for _, pol := range promote.PolicyNames() {
			listed := lists[pol]
			if len(listed) == 0 {
				t.Errorf("%s -h lists no types for policy %s", cmd, pol)
				continue
			}
			for _, ty := range element.Names() {
				code, out, errs := cli(t, "", "promote", "--policy", pol, ty, ty)
				accepted := code == 0 // every policy gives T with T a type when it accepts T
				if accepted != slices.Contains(listed, ty) {
					t.Errorf("%s -h, policy %s: %s listed %t, accepted %t (promote %s %s: %d %q %q)",
						cmd, pol, ty, slices.Contains(listed, ty), accepted, ty, ty, code, out, errs)
				}
			}
		}
	}
	_, help, _ := cli(t, "", "convert", "-h")
	listed := typeLists(help, []string{"Types:"})["Types:"]
	if len(listed) == 0 {
		t.Fatalf("convert -h lists no types:\n%s", help)
	}
	for _, ty := range element.Names() {
		code, _, _ := cli(t, "", "convert", "--from", ty, "--to", ty, "--bits", "0")
		if accepted := code == 0; accepted != slices.Contains(listed, ty) {
			t.Errorf("convert -h: %s listed %t, accepted %t", ty, slices.Contains(listed, ty), accepted)
		}
	}
	// The error for an unknown type lists the same types.
	_, _, errs := cli(t, "", "convert", "--from", "f33", "--to", "f16", "1")
	if !strings.Contains(errs, strings.Join(listed, ", ")) || strings.Contains(errs, "string") || strings.Contains(errs, "dynamic") {
		t.Errorf("convert with an unknown type: %q does not list exactly the convertible types", errs)
	}
}

// typeLists finds, in help, the lines that start (after indentation) with one of keys and returns
// the comma-separated type names that follow, continuation lines included.
func typeLists(help string, keys []string) map[string][]string {
	lists := map[string][]string{}
	lines := strings.Split(help, "\n")
	for i := 0; i < len(lines); i++ {
		f := strings.Fields(lines[i])
		if len(f) < 2 || !slices.Contains(keys, f[0]) {
			continue
		}
		key, rest := f[0], strings.Join(f[1:], " ")
		for strings.HasSuffix(rest, ",") && i+1 < len(lines) {
			i++
			rest += " " + strings.TrimSpace(lines[i])
		}
		for _, w := range strings.Split(rest, ",") {
			lists[key] = append(lists[key], strings.TrimSpace(w))
		}
	}
	return lists
}

// TestFrameworkTypeNamesInCLI: NumPy and PyTorch spellings work wherever the CLI takes a type.
func TestFrameworkTypeNamesInCLI(t *testing.T) {
	cases := []struct {
		args []string
		out  string
	}{
		{[]string{"promote", "float32", "int8"}, "f32\n"},
		{[]string{"promote", "--policy", "pytorch", "half", "bfloat16"}, "f32\n"},
		{[]string{"promote", "--policy", "numpy", "uint8", "int8"}, "i16\n"},
		{[]string{"promote", "--promote-unsafe", "--u64-target", "int64", "uint64", "int8"}, "i64\n"},
		{[]string{"promote", "bool", "double[]"}, "f64\n"},
		{[]string{"convert", "--from", "float", "--to", "float16", "1"}, "1\t0x3c00\n"},
		{[]string{"convert", "--from", "float64", "--to", "float8_e4m3fn", "448"}, "448\t0x7e\n"},
		{[]string{"convert", "--from", "float32", "--to", "complex64", "2"}, "(2+0i)\t0x0000000040000000\n"},
		{[]string{"table", "--types", "float16,half"}, "lhs\trhs\tresult\nf16\tf16\tf16\n"},
	}
	for _, c := range cases {
		code, out, errs := cli(t, "", c.args...)
		if code != 0 || out != c.out {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, errs, c.out)
		}
	}
	if _, _, _, err := benchPlan("float32:float16", "1Ki", "auto", "1", "0.1s", "", "openvino", &strings.Builder{}); err != nil {
		t.Errorf("bench --pairs float32:float16: %v", err)
	}
}

// TestTableTypesOnce: a type given twice in --types, in any spelling, gives its rows once.
func TestTableTypesOnce(t *testing.T) {
	code, out, errs := cli(t, "", "table", "--promote-unsafe", "--types", "f16,i8,f16,FP16")
	want := "lhs\trhs\tresult\nf16\tf16\tf16\nf16\ti8\tf16\ni8\tf16\tf16\ni8\ti8\ti8\n"
	if code != 0 || out != want {
		t.Errorf("table --promote-unsafe --types f16,i8,f16,FP16: exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errs, out, want)
	}
}
