package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// onlyFiles fails unless dir holds exactly the names given (no temporary files left).
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

func TestWriteReplacesSymlink(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	os.WriteFile(other, []byte("keep"), 0o644)
	link := filepath.Join(dir, "out")
	if err := os.Symlink(other, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, other); got != "keep" {
		t.Errorf("the symlink's target now holds %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() || readFile(t, link) != "new" {
		t.Errorf("out: %v %v", fi, err)
	}
	onlyFiles(t, dir, "other", "out")
}

func TestWriteFailureKeepsTarget(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.WriteFile(out, []byte("old"), 0o644)
	boom := errors.New("disk full")
	err := Write(out, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if got := readFile(t, out); got != "old" {
		t.Errorf("out holds %q after a failed write", got)
	}
	onlyFiles(t, dir, "out")
}

// TestCommitAllOrNothing: when one of two outputs cannot be completed, neither target changes.
func TestCommitAllOrNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(dir string, b *File)
	}{
		{"flush fails", func(_ string, b *File) { b.File.Close() }},
		{"target is a directory", func(dir string, _ *File) {
			os.Remove(filepath.Join(dir, "b"))
			os.MkdirAll(filepath.Join(dir, "b", "x"), 0o755)
		}},
	} {
		dir := t.TempDir()
		for _, n := range []string{"a", "b"} {
			os.WriteFile(filepath.Join(dir, n), []byte("old "+n), 0o644)
		}
		a, err := Create(filepath.Join(dir, "a"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Create(filepath.Join(dir, "b"))
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(a, "new a")
		io.WriteString(b, "new b")
		c.spoil(dir, b)
		if err := Commit(a, b); err == nil {
			t.Fatalf("%s: Commit succeeded", c.name)
		}
		if got := readFile(t, filepath.Join(dir, "a")); got != "old a" {
			t.Errorf("%s: a holds %q", c.name, got)
		}
		onlyFiles(t, dir, "a", "b")
	}
}

func TestCreateMode(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := Write(out, func(io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := 0o644 &^ umask(); fi.Mode().Perm() != want {
		t.Errorf("mode %v, want %v", fi.Mode().Perm(), want)
	}
}
