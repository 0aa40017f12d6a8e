// Command gen writes the example checkpoints of testdata/safetensors (ckfixture.Examples):
//
//	go run ./internal/ckfixture/gen testdata/safetensors
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/convertpromote/convertpromote/internal/ckfixture"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	for name, c := range ckfixture.Examples() {
		if err := c.Write(filepath.Join(os.Args[1], name)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
