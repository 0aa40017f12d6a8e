package safetensors

import (
	"os"

	"golang.org/x/sys/unix"
)

// writebackSupported says that startWriteback does something here.
const writebackSupported = true

// startWriteback asks the kernel to start writing n bytes of f at off to disk now, without
// waiting for them: the disk then works while the rest of the file is computed, and the flush
// Commit ends with has little left to do. Errors are left to that flush to report.
func startWriteback(f *os.File, off, n int64) {
	unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
