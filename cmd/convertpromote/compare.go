package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/convertpromote/convertpromote/promote"
)

func init() {
	register("compare", "print a Markdown table of how the promotion policies differ",
		"convertpromote compare --pairs 'u64 i64;bf16 f16'", runCompare)
}

// comparePairs are the default rows: the pairs on which the systems disagree most.
var comparePairs = [][2]string{
	{"u64", "i64"},
	{"i64", "u64"},
	{"bf16", "f16"},
	{"i32", "f32"},
	{"f8e4m3", "f8e5m2"},
	{"f8e4m3", "f32"},
	{"py:float", "i32"},
	{"py:int", "u8"},
	{"boolean", "py:int"},
	{"f16", "py:complex"},
}

// compareColumn is one policy configuration of the table.
type compareColumn struct {
	title, policy string
	cfg           promote.Config
}

var compareColumns = []compareColumn{
	{"openvino", "openvino", promote.Config{}},
	{"pytorch", "pytorch", promote.Config{}},
	{"numpy", "numpy", promote.Config{}},
	{"jax", "jax", promote.Config{}},
	{"jax --x64", "jax", promote.Config{X64: true}},
	{"jax-strict", "jax-strict", promote.Config{}},
	{"tf", "tf", promote.Config{}},
	{"tf-safe", "tf-safe", promote.Config{}},
	{"paddle", "paddle", promote.Config{}},
	{"anvil", "anvil", promote.Config{}},
}

const compareUsage = `Usage: convertpromote compare [--pairs 'LHS RHS;LHS RHS...']

Prints a Markdown table: one row per operand pair, one column per promotion policy (jax twice,
without and with --x64). A cell is the result type (weak:TYPE when weakly typed), "error" when
the policy refuses the pair, or "n/a" when a type is not one of the policy's types. Operands
use the promote command's syntax (TYPE is a rank-1 tensor; py:int, py:float, py:complex,
py:bool are Python scalars; weak:TYPE is weakly typed).

Examples:
  convertpromote compare                                # the default pairs
  convertpromote compare --pairs 'u64 i64;bf16 f16'    # two rows

Flags:
`

func runCompare(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("compare", compareUsage)
	pairsFlag := fs.String("pairs", "", "semicolon-separated operand pairs (default: the pairs of docs/SEMANTICS.md §6.5)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 0 {
		failf(stderr, "compare", "unexpected argument %q", fs.Arg(0))
		return exitUsage
	}
	pairs := comparePairs
	if *pairsFlag != "" {
		pairs = nil
		for _, p := range strings.Split(*pairsFlag, ";") {
			f := strings.Fields(p)
			if len(f) == 0 {
				continue
			}
			if len(f) != 2 {
				failf(stderr, "compare", "--pairs: %q is not two operands", p)
				return exitUsage
			}
			pairs = append(pairs, [2]string{f[0], f[1]})
		}
	}
	var ops [][2]promote.Operand
	for _, p := range pairs {
		var o [2]promote.Operand
		for i, w := range p {
			var err error
			if o[i], err = promote.ParseOperand(w); err != nil {
				failf(stderr, "compare", "%v", err)
				return exitUsage
			}
		}
		ops = append(ops, o)
	}
	pols := make([]promote.Policy, len(compareColumns))
	titles := []string{"lhs", "rhs"}
	for i, c := range compareColumns {
		p, err := promote.New(c.policy, c.cfg)
		if err != nil { // a policy missing from the registry is a build error, not usage
			failf(stderr, "compare", "%v", err)
			return exitFail
		}
		pols[i] = p
		titles = append(titles, c.title)
	}
	fmt.Fprintf(stdout, "| %s |\n", strings.Join(titles, " | "))
	fmt.Fprintf(stdout, "|%s\n", strings.Repeat(" --- |", len(titles)))
	for i, o := range ops {
		cells := []string{"`" + pairs[i][0] + "`", "`" + pairs[i][1] + "`"}
		for _, p := range pols {
			cells = append(cells, compareCell(p, o[0], o[1]))
		}
		fmt.Fprintf(stdout, "| %s |\n", strings.Join(cells, " | "))
	}
	return exitOK
}

// compareCell is one cell: the result, "error" or "n/a".
func compareCell(p promote.Policy, a, b promote.Operand) string {
	types := p.Types()
	if !slices.Contains(types, a.Type) || !slices.Contains(types, b.Type) {
		return "n/a"
	}
	r, err := p.Promote(a, b)
	if err != nil {
		return "error"
	}
	return r.String()
}
