//go:build unix

package npy

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test if it has not returned after a few seconds, so that a call
// that blocks on a special file fails instead of hanging the test binary.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still blocked after 5s", what)
		return nil
	}
}

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
		err := within(t, kind, func() error { _, err := ReadFile(p); return err })
		wantNotRegular(t, kind+" .npy", err)
	}
	dir := t.TempDir()
	err := within(t, "directory", func() error { _, err := ReadFile(dir); return err })
	wantNotRegular(t, "directory .npy", err)
}
