// Command _asm generates the files of package kernels that follow from its registry of pairs
// (registry.go) and from the kernel bodies written here:
//
//   - the pure-Go loops of the registry's rows, their loops as code (direct_generic.go);
//   - a typed helper for every row, documented by the row (typed.go), and the tests' list of
//     them (typed_helpers_test.go);
//   - the Go side of the NEON kernels of kernels_arm64.s, their stubs documented by their rows'
//     loops and arm64Kernels, which binds them to their pairs (stubs_arm64.go);
//   - the amd64 kernels: the assembly, one file a family of kernels (families below), and the Go
//     file with a documented stub for every kernel and the lists that bind the kernels to the
//     registry's pairs (stubs_amd64.go).
//
// Package kernels runs it with go generate (the directive is in registry.go):
//
//	go -C _asm run .
//
// With -quant DIR it writes package quant's files to DIR instead, from quant's registry: its amd64
// kernels, and the stubs and lists of its amd64 and NEON kernels (quant.go).
//
// See README.md for how the generator is organised and how to add kernels.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

var dir = flag.String("dir", "..", "read registry.go and tables.go from, and write the generated files to, the kernels package's `directory`")

// families lists the families of pair kernels in the order they are written. Each declares its
// kernels with add, and its kernels go to its own assembly file in the kernels package, so that
// a change to a family is a change to its file.
var families = []struct {
	file    string
	declare func()
}{
	{"f8_amd64.s", f8Kernels},
	{"floats_amd64.s", floatKernels},
	{"intfloat_amd64.s", intFloatKernels},
	{"ints_amd64.s", intKernels},
	{"nibbles_amd64.s", nibbleKernels},
	{"fnuz_amd64.s", fnuzKernels},
	{"widen_amd64.s", widenKernels},
	{"rules_amd64.s", ruleKernels},
	{"rules_other_amd64.s", ruleOtherKernels},
}

// asmConstraint is the build constraint of the pair kernels' assembly and Go stubs, amd64's and
// arm64's.
const asmConstraint = "gc && !purego"

func main() {
	flag.Parse()
	if *quantDir != "" {
		mainQuant(*quantDir)
		return
	}
	rows, err := readRegistry(filepath.Join(*dir, "registry.go"))
	if err != nil {
		fatal(err)
	}
	ruleRows, err := readRuleRegistry(filepath.Join(*dir, "registry.go"))
	if err != nil {
		fatal(err)
	}
	for _, f := range families {
		family = f.file
		f.declare()
	}
	if err := checkKernels(byPair(rows), byRules(ruleRows)); err != nil {
		fatal(err)
	}
	tables := filepath.Join(*dir, "tables.go")
	nibbles, err := readNibbleTypes(tables)
	if err != nil {
		fatal(err)
	}
	if fmt.Sprint(nibbles) != fmt.Sprint(nibbleTypes) {
		fatal(fmt.Errorf("%s orders the 4-bit tables %v, the generator %v", tables, nibbles, nibbleTypes))
	}
	var out asmFiles
	for _, f := range families {
		out.add(f.file, asmConstraint)
	}
	for _, k := range kernels {
		emit(k)
		out.text(k.name, k.file)
	}

	if err := out.write(*dir); err != nil {
		fatal(err)
	}
	if err := writeGo(filepath.Join(*dir, "stubs_amd64.go"), byPair(rows), byRules(ruleRows)); err != nil {
		fatal(err)
	}
	if err := writeDirect(filepath.Join(*dir, "direct_generic.go"), rows, ruleRows); err != nil {
		fatal(err)
	}
	if err := writeArm64(*dir, filepath.Join(*dir, "stubs_arm64.go"), rows, ruleRows); err != nil {
		fatal(err)
	}
	typed, err := typedRows(rows, ruleRows)
	if err != nil {
		fatal(err)
	}
	if err := writeTyped(filepath.Join(*dir, "typed.go"), typed); err != nil {
		fatal(err)
	}
	if err := writeTypedTest(filepath.Join(*dir, "typed_helpers_test.go"), typed); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "_asm:", err)
	os.Exit(1)
}
