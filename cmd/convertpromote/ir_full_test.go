//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/convertpromote/convertpromote/ir"
)

// withFileSizeLimit runs f with writes beyond limit bytes per file failing (EFBIG), as on a
// full disk.
func withFileSizeLimit(t *testing.T, limit uint64, f func()) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skip(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: old.Max}); err != nil {
		t.Skip(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	f()
}

// TestIRWriteFailureKeepsFiles: when the disk fills while run writes an .npy, or fold writes the
// .bin, the files already there are unchanged and no partial file is left.
func TestIRWriteFailureKeepsFiles(t *testing.T) {
	// huge_const.xml with 64 KiB instead of 1 GiB.
	data, err := os.ReadFile(irTestdata(filepath.Join("large", "huge_const.xml")))
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	m := filepath.Join(src, "m.xml")
	os.WriteFile(m, []byte(strings.ReplaceAll(string(data), "1073741824", "65536")), 0o644)
	os.WriteFile(ir.BinPath(m), make([]byte, 65537), 0o644)

	dir := t.TempDir()
	for _, n := range []string{"p0_2.npy", "out.xml", "out.bin"} {
		os.WriteFile(filepath.Join(dir, n), []byte("old "+n), 0o644)
	}
	before := snapshot(t, dir)
	for _, args := range [][]string{
		{"ir", "run", m, "--out", dir},
		{"ir", "fold", m, "-o", filepath.Join(dir, "out.xml")},
	} {
		var code int
		var errs string
		withFileSizeLimit(t, 16<<10, func() { code, _, errs = cli(t, "", args...) })
		if code != 1 || !strings.Contains(errs, "file too large") {
			t.Errorf("%q: exit %d: %s", args, code, errs)
		}
		sameSnapshot(t, strings.Join(args, " "), before, snapshot(t, dir))
	}
	// Without the limit both succeed.
	if code, _, errs := cli(t, "", "ir", "run", m, "--out", dir); code != 0 {
		t.Errorf("run: exit %d: %s", code, errs)
	}
	if fi, err := os.Stat(filepath.Join(dir, "p0_2.npy")); err != nil || fi.Size() < 65536 {
		t.Errorf("p0_2.npy: %v %v", fi, err)
	}
}
