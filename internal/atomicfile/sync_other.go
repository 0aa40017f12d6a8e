//go:build !unix

package atomicfile

import "os"

// syncDir does nothing: directories cannot be flushed this way on this system.
func syncDir(string) error { return nil }

// umask returns 0: the system applies no mask this package can read.
func umask() os.FileMode { return 0 }
