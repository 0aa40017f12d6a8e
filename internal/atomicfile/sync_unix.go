//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"syscall"
)

// syncDir flushes a directory, so that a rename into it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("flushing directory %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("flushing directory %s: %w", dir, err)
	}
	return nil
}

// processUmask is the file mode creation mask, read once at start-up: reading it means setting
// it, which is only safe before other goroutines create files.
var processUmask = func() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}()

func umask() os.FileMode { return processUmask }
