//go:build !unix

package regfile

import "os"

// openNoWait opens path read-only; systems outside unix have no FIFOs that block an open.
func openNoWait(path string) (*os.File, error) {
	return os.Open(path)
}
