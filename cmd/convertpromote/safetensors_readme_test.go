package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMESafetensors runs the commands of the README's "Hugging Face checkpoints" example,
// from the repository's root, with /tmp replaced by a temporary directory, and compares their
// output with the README's.
func TestREADMESafetensors(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "**Hugging Face checkpoints.**")
	if !ok {
		t.Fatal("README.md has no Hugging Face checkpoints section")
	}
	_, rest, _ = strings.Cut(rest, "```console\n")
	block, _, _ := strings.Cut(rest, "```")
	tmp := t.TempDir()
	t.Chdir("../..")
	var cmds int
	for _, step := range strings.Split(block, "$ ")[1:] {
		line, want, _ := strings.Cut(step, "\n")
		line = strings.ReplaceAll(line, "/tmp/", tmp+"/")
		want = strings.ReplaceAll(want, "/tmp/", tmp+"/")
		args := strings.Fields(line)
		if args[0] != "convertpromote" || args[1] != "safetensors" {
			t.Fatalf("unexpected command %q", line)
		}
		var stdout, stderr bytes.Buffer
		if code := runMain(args[1:], nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, stderr.String())
		}
		if stdout.String() != want {
			t.Errorf("%s printed\n%s\nREADME says\n%s", line, stdout.String(), want)
		}
		cmds++
	}
	if cmds < 4 {
		t.Fatalf("%d commands in the README example", cmds)
	}
	// What the commands say they wrote is there.
	for _, f := range []string{"deepseek-bf16/model.safetensors.index.json", "deepseek-bf16/model-00002-of-000163.safetensors", "gpt-oss-bf16/model.safetensors", "plain-fp8/config.json"} {
		if _, err := os.Stat(filepath.Join(tmp, f)); err != nil {
			t.Error(err)
		}
	}
}
