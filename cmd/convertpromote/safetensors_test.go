package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func runST(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := runMain(append([]string{"safetensors"}, args...), nil, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestProgressText(t *testing.T) {
	got := progressText(1_200_000_000, 4_000_000_000, 2*time.Second)
	if want := "1.20 / 4.00 GB ( 30%)  0.60 GB/s  5s left   "; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := progressText(0, 10, 0); got != "0.00 / 0.00 GB (  0%)   " {
		t.Errorf("%q", got)
	}
}

// TestProgressLine checks when the line is drawn: only on a terminal, not with --quiet, at most
// four times a second, and always at the end.
func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	yes := func(io.Writer) bool { return true }
	if p, _ := progressFor(&b, false, func(io.Writer) bool { return false }); p != nil {
		t.Error("progress on a non-terminal")
	}
	if p, _ := progressFor(&b, true, yes); p != nil {
		t.Error("progress with --quiet")
	}
	now := time.Unix(0, 0)
	p := newProgressLine(&b, func() time.Time { return now })
	p.update(1, 100)
	now = now.Add(100 * time.Millisecond)
	p.update(2, 100) // too soon: not drawn
	now = now.Add(200 * time.Millisecond)
	p.update(3, 100)
	p.update(100, 100) // the end is always drawn
	p.end()
	if n := strings.Count(b.String(), "\r"); n != 3 || !strings.HasSuffix(b.String(), "\n") || !strings.Contains(b.String(), "100%") {
		t.Errorf("%d redraws: %q", n, b.String())
	}
	if pr, end := progressFor(&b, false, yes); pr == nil || end == nil {
		t.Error("no progress on a terminal")
	}
}

// TestSafetensorsHelpExamples runs every example of each subcommand's help from the
// repository's root (outputs under a temporary directory).
func TestSafetensorsHelpExamples(t *testing.T) {
	tmp := t.TempDir()
	t.Chdir("../..")
	for _, sub := range []string{"info", "convert", "quantize"} {
		code, help, _ := runST(sub, "-h")
		if code != 0 {
			t.Fatalf("%s -h: exit %d", sub, code)
		}
		_, ex, _ := strings.Cut(help, "Examples:\n")
		ex, _, _ = strings.Cut(ex, "\n\n")
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(ex), "\n") {
			line = strings.ReplaceAll(strings.TrimSpace(line), "/tmp/", tmp+"/")
			args := strings.Fields(strings.ReplaceAll(line, "'", ""))
			if code, _, stderr := runST(args[2:]...); code != 0 {
				t.Errorf("%s: exit %d: %s", line, code, stderr)
			}
			n++
		}
		if n < 2 {
			t.Errorf("%s: %d examples", sub, n)
		}
	}
}

func TestSafetensorsErrors(t *testing.T) {
	tmp := t.TempDir()
	t.Chdir("../..")
	in := "testdata/safetensors/deepseek-fp8"
	bad := filepath.Join(tmp, "bad.safetensors")
	os.WriteFile(bad, []byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":1}         "), 0o644)
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"convert", in, "--to", "bf16"}, 2, []string{"-o OUTDIR"}},
		{[]string{"convert", in, "--to", "i8", "-o", tmp + "/x"}, 2, []string{"--to"}},
		{[]string{"convert", in, "--to", "bf16", "-o", in}, 2, []string{"input directory", in}},
		{[]string{"convert", in, "--to", "bf16", "-o", tmp + "/y", "--threads", "0"}, 2, []string{"--threads"}},
		{[]string{"convert", tmp + "/missing", "--to", "bf16", "-o", tmp + "/z"}, 1, []string{"missing"}},
		{[]string{"info", bad}, 1, []string{"bad.safetensors", `tensor "a"`}},
		{[]string{"quantize", in, "--scheme", "fp8-block", "-o", tmp + "/q"}, 1, []string{"already quantized"}},
		{[]string{"quantize", in, "--scheme", "int4", "-o", tmp + "/q"}, 2, []string{"--scheme"}},
		{[]string{"bogus"}, 2, []string{"unknown subcommand"}},
		{[]string{"info"}, 2, []string{"one checkpoint PATH"}},
	}
	for _, c := range cases {
		code, _, stderr := runST(c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q does not say %q", c.args, stderr, w)
			}
		}
	}
	for _, d := range []string{"x", "y", "q"} {
		if _, err := os.Stat(filepath.Join(tmp, d, "config.json")); err == nil {
			t.Errorf("%s written by a failed command", d)
		}
	}
}

func TestSafetensorsInfoJSON(t *testing.T) {
	t.Chdir("../..")
	code, out, stderr := runST("info", "testdata/safetensors/nvfp4-modelopt", "--json", "--tensors")
	if code != 0 {
		t.Fatal(stderr)
	}
	var v struct {
		Scheme  string           `json:"scheme"`
		Shards  []string         `json:"shards"`
		Tensors int              `json:"tensors"`
		Bytes   int64            `json:"bytes"`
		ByDType map[string]int64 `json:"bytes_by_dtype"`
		List    []struct {
			Name  string  `json:"name"`
			Shape []int64 `json:"shape"`
			Bytes int64   `json:"bytes"`
		} `json:"tensor_list"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	var sum, listed int64
	for _, n := range v.ByDType {
		sum += n
	}
	for _, x := range v.List {
		listed += x.Bytes
	}
	if v.Scheme != "nvfp4-modelopt" || len(v.Shards) != 1 || v.Tensors != len(v.List) || sum != v.Bytes || listed != v.Bytes || v.ByDType["F8_E4M3"] != 64*6 {
		t.Errorf("%+v", v)
	}
}
