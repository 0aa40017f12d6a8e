//go:build unix

package safetensors

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOpenFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo.safetensors")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := Open(p); err == nil || !strings.Contains(err.Error(), "regular") {
		t.Fatalf("Open(FIFO): %v", err)
	}
}
