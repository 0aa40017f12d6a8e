// Command big writes a checkpoint of one large weight, for measuring conversions
// (docs/perf/safetensors.sh):
//
//	go run ./internal/ckfixture/big DIR f32|fp8 ROWS COLS
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/convertpromote/convertpromote/internal/ckfixture"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: big DIR f32|fp8 ROWS COLS")
		os.Exit(2)
	}
	rows, err1 := strconv.ParseInt(os.Args[3], 10, 64)
	cols, err2 := strconv.ParseInt(os.Args[4], 10, 64)
	if err1 != nil || err2 != nil || os.Args[2] != "f32" && os.Args[2] != "fp8" {
		fmt.Fprintln(os.Stderr, "usage: big DIR f32|fp8 ROWS COLS")
		os.Exit(2)
	}
	if err := ckfixture.Large(os.Args[1], os.Args[2], rows, cols); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
