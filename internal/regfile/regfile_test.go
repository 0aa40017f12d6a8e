package regfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenRegular(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(p, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b, err := io.ReadAll(f); err != nil || string(b) != "data" {
		t.Errorf("read %q, %v", b, err)
	}
}

func TestOpenRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(dir)
	var pe *fs.PathError
	if !errors.Is(err, ErrNotRegular) || !errors.As(err, &pe) || pe.Path != dir {
		t.Errorf("Open(directory) = %v, want a *fs.PathError naming %s and wrapping ErrNotRegular", err, dir)
	}
}

func TestOpenMissing(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "none"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) = %v, want fs.ErrNotExist", err)
	}
}
