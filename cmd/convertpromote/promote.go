package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/promote"
)

func init() {
	register("promote", "print the common element type of two operands",
		"convertpromote promote --policy pytorch i32 py:float    # f32", runPromote)
	register("table", "print the promotion table of a policy as TSV",
		"convertpromote table --policy numpy --types f16,f32,i8", runTable)
}

// policyFlags are the flags shared by promote and table.
type policyFlags struct {
	unsafe, pytorchScalar, x64 bool
	u64Target, policy, op      string
}

func (p *policyFlags) add(fs *flag.FlagSet) {
	fs.BoolVar(&p.unsafe, "promote-unsafe", false, "allow promotions that lose precision or range (OpenVINO promote_unsafe)")
	fs.BoolVar(&p.pytorchScalar, "pytorch-scalar-promotion", false, "a rank-0 operand takes the other operand's type (OpenVINO pytorch_scalar_promotion)")
	fs.StringVar(&p.u64Target, "u64-target", "f32", "result of u64 with a signed integer under --promote-unsafe (OpenVINO u64_integer_promotion_target)")
	fs.StringVar(&p.policy, "policy", "openvino", "promotion rules: "+strings.Join(promote.PolicyNames(), ", "))
	fs.BoolVar(&p.x64, "x64", false, "JAX: enable 64-bit types (jax_enable_x64)")
	fs.StringVar(&p.op, "op", "", "operation kind for policies that have them: div or compare")
}

// valueFlags lists the flags that take a value, for interleaved.
var policyValueFlags = map[string]bool{"u64-target": true, "policy": true, "op": true, "types": true}

func (p *policyFlags) build() (promote.Policy, error) {
	t, err := element.Parse(p.u64Target)
	if err != nil {
		return nil, usageErrorf("--u64-target: %v", err)
	}
	pol, err := promote.New(p.policy, promote.Config{
		PromoteUnsafe: p.unsafe, PyTorchScalarPromotion: p.pytorchScalar, U64Target: t,
		X64: p.x64, Op: p.op,
	})
	if err != nil {
		return nil, usageErrorf("--policy/--op: %v", err)
	}
	return pol, nil
}

const promoteUsage = `Usage: convertpromote promote [flags] LHS RHS

Prints the common element type of two operands. Flags may come before or after the operands.

An operand is TYPE (a rank-1 tensor), TYPE[] (rank 0), TYPE[2,3] (dims: integers, ? or -1
dynamic, 1..5 interval) or TYPE[...] (dynamic rank); weak:TYPE marks a weakly typed operand and
py:bool, py:int, py:float, py:complex are Python scalars.

Exit status: 0 and the type on stdout; 1 and "error: MESSAGE" on stderr when the types do not
promote; 2 for bad usage (unknown type, malformed operand, unknown flag).

Examples:
  convertpromote promote f16 i64                       # exit 1: an integer does not safely promote to a float
  convertpromote promote --promote-unsafe f16 i64      # f16
  convertpromote promote --pytorch-scalar-promotion --promote-unsafe 'i64[]' 'u8[2]'   # u8
  convertpromote promote --json u64 i8                 # {"error":"..."}
  convertpromote promote --policy pytorch i32 py:float # f32
  convertpromote promote --policy jax --x64 u64 i64    # weak:f64
  convertpromote promote --policy paddle --op div i32 i32   # f32
`

func runPromote(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("promote", promoteUsage+policyTypesHelp()+"\nFlags:\n")
	var pf policyFlags
	pf.add(fs)
	asJSON := fs.Bool("json", false, `print {"type":"f32"} or {"error":"..."} on stdout`)
	flags, operands := interleaved(args, policyValueFlags)
	if code, ok := parseFlags(fs, flags, stdout, stderr); !ok {
		return code
	}
	if len(operands) != 2 {
		failf(stderr, "promote", "want 2 operands, got %d (%s)", len(operands), strings.Join(operands, " "))
		return exitUsage
	}
	pol, err := pf.build()
	if err != nil {
		failf(stderr, "promote", "%v", err)
		return exitUsage
	}
	var ops [2]promote.Operand
	for i, w := range operands {
		if ops[i], err = promote.ParseOperand(w); err != nil {
			failf(stderr, "promote", "%v", err)
			return exitUsage
		}
	}
	res, err := pol.Promote(ops[0], ops[1])
	if err != nil {
		if *asJSON {
			writeJSON(stdout, map[string]string{"error": err.Error()})
		} else {
			fmt.Fprintf(stderr, "error: %v\n", err)
		}
		return exitFail
	}
	if *asJSON {
		writeJSON(stdout, map[string]string{"type": res.String()})
	} else {
		fmt.Fprintln(stdout, res.String())
	}
	return exitOK
}

func writeJSON(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", b)
}

const tableUsage = `Usage: convertpromote table [flags]

Prints a policy's promotion table as TSV with the header "lhs	rhs	result": one row per ordered
pair of the policy's static types (both rank-1 tensors), result a type name (weak:TYPE when
weak) or "error".

Examples:
  convertpromote table                                  # OpenVINO, default attributes
  convertpromote table --promote-unsafe --types f16,bf16,i8
  convertpromote table --policy jax --x64               # JAX's own types
`

func runTable(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("table", tableUsage+policyTypesHelp()+"\nFlags:\n")
	var pf policyFlags
	pf.add(fs)
	typesFlag := fs.String("types", "", "comma-separated types to list (default: all of the policy's types)")
	flags, rest := interleaved(args, policyValueFlags)
	if code, ok := parseFlags(fs, flags, stdout, stderr); !ok {
		return code
	}
	if len(rest) != 0 {
		failf(stderr, "table", "unexpected argument %q", rest[0])
		return exitUsage
	}
	pol, err := pf.build()
	if err != nil {
		failf(stderr, "table", "%v", err)
		return exitUsage
	}
	types := pol.Types()
	if *typesFlag != "" {
		types = types[:0:0]
		for _, w := range strings.Split(*typesFlag, ",") {
			t, err := element.Parse(w)
			if err != nil {
				failf(stderr, "table", "--types: %v", err)
				return exitUsage
			}
			if !slices.Contains(types, t) { // f16,f16 or f16,float16 lists f16 once
				types = append(types, t)
			}
		}
	}
	fmt.Fprintln(stdout, "lhs\trhs\tresult")
	for _, a := range types {
		for _, b := range types {
			res, err := pol.Promote(promote.Tensor(a), promote.Tensor(b))
			out := "error"
			if err == nil {
				out = res.String()
			}
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", a, b, out)
		}
	}
	return exitOK
}

// policyTypesHelp lists, for each policy, the types it accepts, so that the help of promote and
// table names no type a policy would refuse.
func policyTypesHelp() string {
	var b strings.Builder
	b.WriteString("\nTypes each policy accepts (NumPy and PyTorch names such as float32, bfloat16, int8,\nuint8, bool and complex64 work too):\n")
	for _, name := range promote.PolicyNames() {
		pol, err := promote.New(name, promote.Config{})
		if err != nil {
			continue
		}
		var names []string
		dyn := promote.Tensor(element.Dynamic)
		if _, err := pol.Promote(dyn, dyn); err == nil {
			names = append(names, element.Dynamic.String())
		}
		for _, t := range pol.Types() {
			if t != element.Dynamic {
				names = append(names, t.String())
			}
		}
		b.WriteString(wrapList(fmt.Sprintf("  %-11s", name), names, 100))
	}
	return b.String()
}

// wrapList writes prefix and the comma-separated words, wrapped before width columns with
// continuation lines indented under the first word.
func wrapList(prefix string, words []string, width int) string {
	var b strings.Builder
	line := prefix
	for i, w := range words {
		if i < len(words)-1 {
			w += ","
		}
		if len(line)+1+len(w) > width && line != prefix {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = strings.Repeat(" ", len(prefix))
		} else if line != prefix {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}
