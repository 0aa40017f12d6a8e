//go:build amd64 && !purego

package kernels

import (
	"os"
	"strconv"
)

func init() {
	if v := os.Getenv("ZZ_LARGEMIN"); v != "" {
		n, _ := strconv.Atoi(v)
		largeMinBytes = int64(n)
	}
}
