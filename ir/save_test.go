package ir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSaveRemovesStaleBin: a model without constant data saved where an unrelated .bin lies
// must not leave it there, or reading the saved model would attach it.
func TestSaveRemovesStaleBin(t *testing.T) {
	m := readTestdata(t, "chain_parameters.xml")
	out := filepath.Join(t.TempDir(), "out.xml")
	if err := os.WriteFile(BinPath(out), []byte("unrelated data"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(BinPath(out)); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v)", BinPath(out), err)
	}
	m2, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := m2.Check(); err != nil || rep.BinChecked {
		t.Errorf("saved model: %+v %v", rep, err)
	}
}

// TestSaveFailureKeepsPair: when the .bin cannot be put in place (its name is a directory),
// the existing .xml is not replaced either.
func TestSaveFailureKeepsPair(t *testing.T) {
	m := readTestdata(t, "example1_promote_floats.xml")
	dir := t.TempDir()
	out := filepath.Join(dir, "out.xml")
	os.WriteFile(out, []byte("old xml"), 0o644)
	if err := os.MkdirAll(filepath.Join(BinPath(out), "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(out); err == nil {
		t.Fatal("Save succeeded onto a directory")
	}
	if b, _ := os.ReadFile(out); string(b) != "old xml" {
		t.Errorf("out.xml now holds %d bytes", len(b))
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("%d entries in the directory, want out.xml and out.bin: temporary files left", len(ents))
	}
}

func TestSaveReplacesSymlinks(t *testing.T) {
	m := readTestdata(t, "example1_promote_floats.xml")
	dir := t.TempDir()
	out := filepath.Join(dir, "out.xml")
	for _, name := range []string{out, BinPath(out)} {
		target := name + ".target"
		os.WriteFile(target, []byte("keep"), 0o644)
		if err := os.Symlink(target, name); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	if err := m.Save(out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{out, BinPath(out)} {
		if b, _ := os.ReadFile(name + ".target"); string(b) != "keep" {
			t.Errorf("%s was written through the symlink", name+".target")
		}
		if fi, err := os.Lstat(name); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: %v %v", name, fi, err)
		}
	}
	if _, err := Read(out); err != nil {
		t.Error(err)
	}
}
