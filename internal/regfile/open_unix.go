//go:build unix

package regfile

import (
	"os"
	"syscall"
)

// openNoWait opens path read-only with O_NONBLOCK, which makes the open of a FIFO return at
// once instead of waiting for a writer; on a regular file the flag changes nothing.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
