//go:build unix

package regfile

import (
	"errors"
	"net"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefusesSpecial: a FIFO without a writer, a unix socket and a character device are
// refused at once, without blocking.
func TestOpenRefusesSpecial(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]string{"device": "/dev/null"}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		paths["FIFO"] = fifo
	}
	sock := filepath.Join(dir, "sock")
	if ln, err := net.Listen("unix", sock); err == nil {
		defer ln.Close()
		paths["socket"] = sock
	}
	for kind, p := range paths {
		done := make(chan error, 1)
		go func() {
			f, err := Open(p)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: Open = %v, want ErrNotRegular", kind, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Open still blocked after 5s", kind)
		}
	}
}
