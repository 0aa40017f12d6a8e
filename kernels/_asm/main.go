// Command _asm generates the amd64 kernels of package kernels: the assembly (kernels_amd64.s),
// and the Go file (stubs_amd64.go) with a documented stub for every kernel and the lists that
// bind the kernels to the registry's pairs. Package kernels runs it with go generate:
//
//	go -C _asm run . -out ../kernels_amd64.s -go ../stubs_amd64.go -registry ../registry.go -tables ../tables.go
//
// With -quant it writes package quant's kernels instead (quant.go).
//
// See README.md for how the generator is organised and how to add kernels.
package main

import (
	"flag"
	"fmt"
	"os"

	. "github.com/mmcloughlin/avo/build"
)

var (
	goOut    = flag.String("go", "", "write the Go stubs and kernel lists to `file`")
	registry = flag.String("registry", "../registry.go", "read the pair registry from `file`")
	tables   = flag.String("tables", "../tables.go", "read the order of the 4-bit tables from `file`")
)

func main() {
	flag.Parse()
	if *quantMode {
		mainQuant()
		return
	}
	rows, err := readRegistry(*registry)
	if err != nil {
		fatal(err)
	}
	if err := checkKernels(rows); err != nil {
		fatal(err)
	}
	nibbles, err := readNibbleTypes(*tables)
	if err != nil {
		fatal(err)
	}
	if fmt.Sprint(nibbles) != fmt.Sprint(nibbleTypes) {
		fatal(fmt.Errorf("%s orders the 4-bit tables %v, the generator %v", *tables, nibbles, nibbleTypes))
	}
	ConstraintExpr("!purego")
	for _, k := range kernels {
		emit(k)
	}
	Generate()
	if *goOut != "" {
		if err := writeGo(*goOut, rows); err != nil {
			fatal(err)
		}
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "_asm:", err)
	os.Exit(1)
}
