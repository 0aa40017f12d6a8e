//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIRSpecialFiles runs ir check and ir run with a FIFO in place of the .xml, the .bin and an
// --input .npy: each must fail at once naming the file as not a regular file, not wait for a
// writer.
func TestIRSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	mkfifo := func(name string) string {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		return p
	}
	src, err := os.ReadFile(irTestdata("example1_promote_floats.xml"))
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.xml")
	if err := os.WriteFile(model, src, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := mkfifo("m.bin")
	fifoXML := mkfifo("f.xml")
	npy := mkfifo("x.npy")
	cases := []struct {
		args []string
		file string // the path the error must name
	}{
		{[]string{"ir", "check", model}, bin},
		{[]string{"ir", "run", model}, bin},
		{[]string{"ir", "check", fifoXML}, fifoXML},
		{[]string{"ir", "run", irTestdata("parameter_input.xml"), "--input", "x=" + npy}, npy},
	}
	for _, c := range cases {
		type result struct {
			code int
			errs string
		}
		done := make(chan result, 1)
		go func() {
			code, _, errs := cli(t, "", c.args...)
			done <- result{code, errs}
		}()
		select {
		case r := <-done:
			if r.code != 1 || !strings.Contains(r.errs, c.file) || !strings.Contains(r.errs, "not a regular file") {
				t.Errorf("%q: exit %d, stderr:\n%s\nwant exit 1 naming %s as not a regular file", c.args, r.code, r.errs, c.file)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q: still running after 5s", c.args)
		}
	}
}
