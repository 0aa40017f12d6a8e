//go:build unix

package ir

import (
	"errors"
	"github.com/convertpromote/convertpromote/internal/testkit"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// specialFiles makes a FIFO and a unix socket in dir under the given base name plus ext, and
// returns their paths with /dev/null, a character device.
func specialFiles(t *testing.T, dir, ext string) map[string]string {
	t.Helper()
	fifo := filepath.Join(dir, "fifo"+ext)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	paths := map[string]string{"FIFO": fifo}
	sock := filepath.Join(dir, "sock"+ext)
	if ln, err := net.Listen("unix", sock); err == nil {
		t.Cleanup(func() { ln.Close() })
		paths["socket"] = sock
	}
	if fi, err := os.Stat("/dev/null"); err == nil && fi.Mode()&os.ModeDevice != 0 {
		paths["device"] = "/dev/null"
	}
	return paths
}

func wantNotRegular(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil || !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("%s: err = %v, want one naming \"not a regular file\"", what, err)
	}
}

func TestSpecialXML(t *testing.T) {
	for kind, p := range specialFiles(t, t.TempDir(), ".xml") {
		err := testkit.Within(t, kind, func() error { _, err := Read(p); return err })
		wantNotRegular(t, kind+" .xml", err)
	}
}

func TestSpecialBin(t *testing.T) {
	src, err := os.ReadFile("../testdata/ir/example1_promote_floats.xml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	xml := filepath.Join(dir, "m.xml")
	if err := os.WriteFile(xml, src, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "m.bin")
	if err := syscall.Mkfifo(bin, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// check and run both need the Const data, the first step that touches the .bin.
	err = testkit.Within(t, "check", func() error {
		m, err := Read(xml)
		if err != nil {
			return err
		}
		_, err = m.Check()
		return err
	})
	wantNotRegular(t, "check with a FIFO .bin", err)
	err = testkit.Within(t, "run", func() error {
		m, err := Read(xml)
		if err != nil {
			return err
		}
		_, err = m.Run(nil)
		return err
	})
	wantNotRegular(t, "run with a FIFO .bin", err)
	if err != nil && !strings.Contains(err.Error(), bin) {
		t.Errorf("the error does not name %s: %v", bin, err)
	}
}
