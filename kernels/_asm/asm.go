package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	. "github.com/mmcloughlin/avo/build"
)

// asmFiles are the assembly files the generator writes: avo prints one file for everything the
// generator emits, which write splits into them.
type asmFiles struct {
	// names are the files in the order added, constraints their build constraints.
	names       []string
	constraints map[string]string
	// of maps each TEXT symbol to its file.
	of map[string]string
}

// add declares the file name with the build constraint constraint.
func (a *asmFiles) add(name, constraint string) {
	if a.constraints == nil {
		a.constraints, a.of = map[string]string{}, map[string]string{}
	}
	a.names = append(a.names, name)
	a.constraints[name] = constraint
}

// text assigns the function symbol, emitted since, to file.
func (a *asmFiles) text(symbol, file string) {
	if _, ok := a.constraints[file]; !ok {
		panic("_asm: function " + symbol + " in undeclared file " + file)
	}
	a.of[symbol] = file
}

// section is a function (TEXT) or the data (DATA and GLOBL) of a symbol, as avo prints it.
type section struct {
	text   bool
	symbol string // the function's name, or the data's symbol with its <> (e4m3Y<>)
	lines  []string
}

var (
	textLine   = regexp.MustCompile(`^TEXT ·(\w+)\(SB\)`)
	dataLine   = regexp.MustCompile(`^(?:DATA|GLOBL) (\w+<>)[+(]`)
	staticRefs = regexp.MustCompile(`\b\w+<>`)
)

// write prints what the generator emitted with avo into a temporary file and splits it into
// the files of dir: every function goes to the file text gave it, in the order emitted, and the
// data of a file-static symbol (name<>) goes to every file with a function that refers to it,
// after the first such function (a file-static symbol is seen only in its own file). Each file
// has the header avo writes, with its own build constraint.
func (a *asmFiles) write(dir string) error {
	tmp, err := os.CreateTemp("", "_asm-*.s")
	if err != nil {
		return err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if err := flag.Set("out", tmp.Name()); err != nil {
		return err
	}
	Generate()
	printed, err := os.ReadFile(tmp.Name())
	if err != nil {
		return err
	}
	sections, err := splitSections(string(printed))
	if err != nil {
		return err
	}
	data := map[string]*section{}
	for _, s := range sections {
		if !s.text {
			data[s.symbol] = s
		}
	}
	bodies := map[string]*bytes.Buffer{}
	placed := map[string]map[string]bool{} // file → data symbols written into it
	used := map[string]bool{}
	for _, name := range a.names {
		bodies[name], placed[name] = new(bytes.Buffer), map[string]bool{}
	}
	for _, s := range sections {
		if !s.text {
			continue
		}
		file, ok := a.of[s.symbol]
		if !ok {
			return fmt.Errorf("function %s has no file", s.symbol)
		}
		writeSection(bodies[file], s)
		for _, ref := range staticRefs.FindAllString(strings.Join(s.lines, "\n"), -1) {
			d, ok := data[ref]
			if !ok {
				return fmt.Errorf("function %s refers to %s, which has no data", s.symbol, ref)
			}
			if !placed[file][ref] {
				placed[file][ref] = true
				used[ref] = true
				writeSection(bodies[file], d)
			}
		}
	}
	for sym := range data {
		if !used[sym] {
			return fmt.Errorf("data %s is not referred to by any function", sym)
		}
	}
	for _, name := range a.names {
		if bodies[name].Len() == 0 {
			return fmt.Errorf("%s: no functions", name)
		}
		head := fmt.Sprintf("%s\n\n//go:build %s\n\n#include \"textflag.h\"\n", generated(), a.constraints[name])
		if err := writeFile(filepath.Join(dir, name), append([]byte(head), bodies[name].Bytes()...)); err != nil {
			return err
		}
	}
	return nil
}

// writeSection writes s to b as avo prints it: after an empty line.
func writeSection(b *bytes.Buffer, s *section) {
	b.WriteString("\n")
	for _, l := range s.lines {
		if s.text && loopHead.MatchString(l) {
			b.WriteString("\tPCALIGN\t$32\n")
		}
		b.WriteString(l)
		b.WriteString("\n")
	}
}

// loopHead matches the label of a loop that the skeletons run once an iteration of a kernel's
// main body (loopHeads), which writeSection aligns to 32 bytes with PCALIGN: where a loop starts
// and which 32-byte windows its jumps fall in changes its speed on Intel cores (their decoded
// instruction cache and branch prediction work in such windows), so that an unrelated change
// that moves a kernel's code would otherwise move its speed. Go aligns every function to 32 bytes
// on amd64, so the label's offset in its function decides. The padding is NOPs that run once, on
// entering the loop from above.
var loopHead = regexp.MustCompile(`^(` + strings.Join(loopHeads, "|") + `)\d*:$`)

// splitSections splits a file printed by avo into its sections: a function starts with its
// "// func" comment, data with its first DATA or GLOBL line, each after an empty line (inside a
// function, an empty line precedes only a label or an indented comment).
func splitSections(printed string) ([]*section, error) {
	lines := strings.Split(strings.TrimSuffix(printed, "\n"), "\n")
	var sections []*section
	var cur *section
	for i, l := range lines {
		starts := i > 0 && lines[i-1] == "" &&
			(strings.HasPrefix(l, "// func ") || strings.HasPrefix(l, "DATA ") || strings.HasPrefix(l, "GLOBL "))
		if starts {
			if cur != nil {
				cur.lines = trimEmpty(cur.lines)
			}
			cur = &section{text: strings.HasPrefix(l, "// func ")}
			sections = append(sections, cur)
		}
		if cur == nil {
			continue // avo's header
		}
		cur.lines = append(cur.lines, l)
		if cur.symbol != "" {
			continue
		}
		if m := textLine.FindStringSubmatch(l); cur.text && m != nil {
			cur.symbol = m[1]
		} else if m := dataLine.FindStringSubmatch(l); !cur.text && m != nil {
			cur.symbol = m[1]
		} else if !cur.text {
			return nil, fmt.Errorf("line %d: data of a symbol without <>: %q", i+1, l)
		}
	}
	if cur != nil {
		cur.lines = trimEmpty(cur.lines)
	}
	for _, s := range sections {
		if s.symbol == "" {
			return nil, fmt.Errorf("a section without a TEXT line: %q", s.lines[0])
		}
	}
	if len(sections) == 0 {
		return nil, fmt.Errorf("avo printed no functions")
	}
	return sections, nil
}

// trimEmpty drops the empty lines at the end of lines.
func trimEmpty(lines []string) []string {
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return slices.Clip(lines)
}
