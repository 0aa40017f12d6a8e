//go:build unix

package npy

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

// specialFiles makes a FIFO and a unix socket in dir, and returns their paths with /dev/null,
// a character device.
func specialFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	fifo := filepath.Join(dir, "fifo.npy")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	paths := map[string]string{"FIFO": fifo}
	sock := filepath.Join(dir, "sock.npy")
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

func TestReadFileSpecial(t *testing.T) {
	for kind, p := range specialFiles(t, t.TempDir()) {
		err := testkit.Within(t, kind, func() error { _, err := ReadFile(p); return err })
		wantNotRegular(t, kind+" .npy", err)
	}
	dir := t.TempDir()
	err := testkit.Within(t, "directory", func() error { _, err := ReadFile(dir); return err })
	wantNotRegular(t, "directory .npy", err)
}
