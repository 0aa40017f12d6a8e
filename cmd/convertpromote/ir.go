package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/convertpromote/convertpromote/internal/atomicfile"
	"github.com/convertpromote/convertpromote/internal/regfile"
	"github.com/convertpromote/convertpromote/ir"
	"github.com/convertpromote/convertpromote/npy"
	"github.com/convertpromote/convertpromote/op"
)

func init() {
	register("ir", "check, run, decompose, fold, decompress or compress an OpenVINO IR model (.xml + .bin)",
		"convertpromote ir check testdata/ir/example1_promote_floats.xml", runIR)
}

const irUsage = `Usage: convertpromote ir SUBCOMMAND [flags] MODEL.xml

Read OpenVINO IR (v10, v11) models that use ConvertPromoteTypes-14.

Subcommands:
  check MODEL.xml               check the graph, every ConvertPromoteTypes layer and every compressed
                                weight; print a summary
  run MODEL.xml [--out DIR] [--input NAME=FILE.npy]... [--values N]
                                evaluate ConvertPromoteTypes, Convert, Subtract, Multiply,
                                Reshape, Unsqueeze, Transpose and Gather layers on Const data
                                (and Parameters given with --input); print each output's name,
                                type, shape and first N values (8); with --out, write
                                DIR/NAME.npy files (bf16, f8, f4, nf4 as f32; u1..u6 as u8; i4 as i8)
  decompose MODEL.xml -o OUT.xml  replace each ConvertPromoteTypes by two Convert layers (opset1)
  fold MODEL.xml -o OUT.xml     replace the layers run computes from Const data alone by Consts
  decompress MODEL.xml -o OUT.xml [--to f32|f16|bf16]
                                replace each compressed weight by one Const of what it computes
  compress MODEL.xml -o OUT.xml (--to f16 | --mode MODE [--group-size N] [--all-layers])
                                compress f32 and f64 Consts to f16 as OpenVINO's compress_to_fp16
                                does, or the weights of MatMul and Gather layers as NNCF does

--max-memory SIZE (run, fold) bounds the tensor data held (Const data, inputs, outputs), added up
before anything is loaded; default 2GiB; K, M, G, T, KiB, ... are powers of 1024, KB, MB, ... of 1000.

--embedded instead of MODEL.xml uses the model compiled into the program (the three examples of
the ConvertPromoteTypes-14 specification). Flags may come before or after the model. check also
accepts a <layer> pasted from the specification (read tolerantly: commas between attributes,
"< !--"); each of its inputs gets a Parameter.

Exit status: 0 ok, 1 the model does not check or the operation failed, 2 bad usage.
Run 'convertpromote ir SUBCOMMAND -h' for a subcommand's flags.

Examples:
  convertpromote ir check testdata/ir/example1_promote_floats.xml
  convertpromote ir run --embedded
  convertpromote ir run testdata/ir/subbyte_consts.xml --out /tmp/npy
  convertpromote ir run testdata/ir/parameter_input.xml --input x=x.npy
  convertpromote ir run testdata/ir/eval_ops.xml
  convertpromote ir decompose testdata/ir/pytorch_scalar.xml -o /tmp/decomposed.xml
  convertpromote ir fold testdata/ir/example2_integers_unsafe.xml -o /tmp/folded.xml
  convertpromote ir fold testdata/ir/eval_ops.xml -o /tmp/folded.xml
  convertpromote ir decompress testdata/ir/compressed/int_modes.xml -o /tmp/decompressed.xml
  convertpromote ir compress testdata/ir/f32_weights.xml -o /tmp/f16.xml --to f16
  convertpromote ir compress testdata/ir/nncf_weights.xml -o /tmp/int4.xml --mode int4_asym
`

// irSubUsage is the help of each ir subcommand; its flags follow.
var irSubUsage = map[string]string{
	"check": `Usage: convertpromote ir check [flags] MODEL.xml

Reads the model and checks the graph and every ConvertPromoteTypes layer, then prints a summary:
the layers by type, whether the .bin beside the model covers every Const, each
ConvertPromoteTypes layer with its input types and common type, and the compressed weights
(NNCF's modes, codebooks, FP16 compression) by mode: how many, their group sizes, the bytes
stored and the bytes they decompress to. A compressed weight whose subgraph cannot be one (a
scale or zero point that does not broadcast, a group that does not divide the row, a zero point
out of the codes' range, codes of an unsupported type, a Reshape that changes the element count)
is a problem like any other. MODEL.xml may also be a <layer>
pasted from the ConvertPromoteTypes-14 specification (read tolerantly: commas between attributes,
"< !--"); each of its inputs gets a Parameter.

Exit status: 0 when the model checks; 1 when it does not or cannot be read (each problem on
stderr as FILE:LINE: MESSAGE); 2 for bad usage.

Examples:
  convertpromote ir check testdata/ir/example1_promote_floats.xml
  convertpromote ir check --embedded
  convertpromote ir check testdata/ir/compressed/int_modes.xml

Flags:
`,
	"run": `Usage: convertpromote ir run [flags] MODEL.xml

Evaluates the layers whose inputs are Const data (or Parameters given with --input):
ConvertPromoteTypes, Convert, and Subtract, Multiply (numpy broadcasting; f16 and bf16 computed
in f32 and rounded back, as OpenVINO does), Reshape, Unsqueeze, Transpose and Gather, the layers
of compressed weights' decompression subgraphs (docs/ir.md, "Evaluation"). A compressed weight
that ir check recognises is decompressed as one unit, with the values its subgraph computes,
and printed as its last layer's output followed by a line naming its mode; the subgraph's other
layers are not listed, and --max-memory counts only its codes, scales, zero points and the
weight. Prints each output's name, type, shape and first values (each value as convert prints it: docs/SEMANTICS.md §3.11,
so an f16 65504 prints as 65504). With --out DIR
each output is also written to DIR/NAME.npy; NumPy has no bf16, f8, f4 or nf4, so those are
written as f32, u1..u6 as u8 and i4 as i8.

Exit status: 0 ok; 1 when the model does not check or cannot be evaluated; 2 for bad usage.

Examples:
  convertpromote ir run --embedded
  convertpromote ir run testdata/ir/subbyte_consts.xml --out /tmp/npy
  convertpromote ir run testdata/ir/parameter_input.xml --input x=x.npy
  convertpromote ir run testdata/ir/eval_ops.xml

Flags:
`,
	"decompose": `Usage: convertpromote ir decompose [flags] MODEL.xml -o OUT.xml

Replaces each ConvertPromoteTypes layer by two Convert layers (opset1), one per input, to the
common type, as OpenVINO's decomposition pass does; a layer whose common type is dynamic stays.
Writes OUT.xml and, when the model has Const data, OUT.bin beside it.

Exit status: 0 ok; 1 when the model does not check or cannot be written; 2 for bad usage.

Example:
  convertpromote ir decompose testdata/ir/pytorch_scalar.xml -o /tmp/decomposed.xml

Flags:
`,
	"fold": `Usage: convertpromote ir fold [flags] MODEL.xml -o OUT.xml

Replaces by Consts the layers that run computes from Const data alone, as OpenVINO's constant
folding does, each holding what run computes: a computed layer that feeds one that is not
computed (a Result, a MatMul, a layer with a Parameter input) becomes a Const of the same name
("NAME.0", "NAME.1" for the two outputs of a ConvertPromoteTypes); the layers that fed only
replaced ones are removed. A compressed weight that ir check recognises becomes one Const
holding the weight, decompressed as one unit as run does. Writes OUT.xml and, when the model has Const data, OUT.bin beside it.

Exit status: 0 ok; 1 when the model does not check or cannot be written; 2 for bad usage.

Examples:
  convertpromote ir fold testdata/ir/example2_integers_unsafe.xml -o /tmp/folded.xml
  convertpromote ir fold testdata/ir/eval_ops.xml -o /tmp/folded.xml

Flags:
`,
	"decompress": irDecompressUsage,
}

// irFlagOwners names the subcommands a flag belongs to, so that each subcommand's help lists
// only its own flags; a flag not named here belongs to all of them.
var irFlagOwners = map[string][]string{
	"o": {"decompose", "fold", "decompress", "compress"}, "output": {"decompose", "fold", "decompress", "compress"},
	"out": {"run"}, "values": {"run"}, "input": {"run"}, "max-memory": {"run", "fold"},
	"to": {"decompress", "compress"}, "mode": {"compress"}, "group-size": {"compress"}, "all-layers": {"compress"},
}

// irHelp writes the help of ir subcommand sub: its text, then the flags of fs it accepts.
func irHelp(fs *flag.FlagSet, sub string) func() {
	return func() {
		w := fs.Output()
		fmt.Fprint(w, irSubUsage[sub])
		own := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		own.SetOutput(w)
		fs.VisitAll(func(f *flag.Flag) {
			if subs, ok := irFlagOwners[f.Name]; !ok || slices.Contains(subs, sub) {
				own.Var(f.Value, f.Name, f.Usage)
			}
		})
		own.PrintDefaults()
	}
}

// irSubcommands maps each ir subcommand to its implementation.
var irSubcommands = map[string]func(m *ir.Model, opts irOptions, stdout, stderr io.Writer) error{
	"check":      irCheck,
	"decompose":  irDecompose,
	"run":        irRun,
	"fold":       irFold,
	"decompress": irDecompress,
	"compress":   irCompress,
}

type irOptions struct {
	out      string // -o / --output
	outDir   string // --out (run)
	embedded bool
	values   int        // --values: how many values run prints
	inputs   inputFlags // --input NAME=FILE.npy (run)
	// maxMemory is --max-memory (run, fold): the budget of ir.RunOptions.
	maxMemory int64
	// compress holds --mode, --group-size, --all-layers and (copied from to) --to of compress.
	compress compressOptions
	// to is --to: the weights' type (decompress) or f16 (compress).
	to string
}

// inputFlags collects repeated --input NAME=FILE.npy flags.
type inputFlags []string

func (f *inputFlags) String() string { return strings.Join(*f, " ") }

func (f *inputFlags) Set(v string) error {
	if name, file, ok := strings.Cut(v, "="); !ok || name == "" || file == "" {
		return fmt.Errorf("--input %q: want NAME=FILE.npy", v)
	}
	*f = append(*f, v)
	return nil
}

func runIR(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, irUsage)
		return exitUsage
	}
	sub := args[0]
	if sub == "-h" || sub == "--help" || sub == "-help" || sub == "help" {
		fmt.Fprint(stdout, irUsage)
		return exitOK
	}
	do, ok := irSubcommands[sub]
	if !ok && strings.HasPrefix(sub, "-") {
		flagError(stderr, "ir", errors.New("flag provided but not defined: "+sub), args[:1])
		return exitUsage
	}
	if !ok {
		failf(stderr, "ir", "unknown subcommand %q (check, run, decompose, fold, decompress or compress); run 'convertpromote ir -h'", sub)
		return exitUsage
	}
	fs := newFlags("ir "+sub, irSubUsage[sub])
	fs.Usage = irHelp(fs, sub)
	opts := irOptions{maxMemory: ir.DefaultMaxMemory}
	fs.StringVar(&opts.out, "o", "", "output .xml (decompose, fold, decompress, compress); its .bin is written beside it")
	fs.StringVar(&opts.out, "output", "", "same as -o")
	fs.StringVar(&opts.outDir, "out", "", "directory for .npy files (run)")
	fs.BoolVar(&opts.embedded, "embedded", false, "use the model compiled into the program")
	fs.IntVar(&opts.values, "values", 8, "values printed per output (run)")
	fs.Var(&opts.inputs, "input", "NAME=FILE.npy: a tensor for the Parameter NAME (run; repeatable)")
	fs.Var(sizeFlag{&opts.maxMemory}, "max-memory", "budget for tensor data, e.g. 4GiB (run, fold)")
	fs.StringVar(&opts.to, "to", "", "decompress: f32, f16 or bf16, the type the weights are written in (default: each weight's own); compress: f16")
	opts.compress.define(fs)
	flags, pos := interleaved(args[1:], map[string]bool{"o": true, "output": true, "out": true, "values": true, "input": true, "max-memory": true, "to": true, "mode": true, "group-size": true})
	if code, ok := parseFlags(fs, flags, stdout, stderr); !ok {
		return code
	}
	if opts.embedded && len(pos) != 0 || !opts.embedded && len(pos) != 1 {
		failf(stderr, "ir "+sub, "give one MODEL.xml or --embedded; run 'convertpromote ir %s -h'", sub)
		return exitUsage
	}
	opts.compress.to = opts.to
	if err := opts.compress.check(sub, fs); err != nil {
		fmt.Fprintf(stderr, "convertpromote ir %s: %v\n", sub, err)
		return exitUsage
	}
	if (sub == "decompose" || sub == "fold" || sub == "decompress" || sub == "compress") && opts.out == "" {
		fmt.Fprintf(stderr, "convertpromote ir %s: -o OUT.xml is required\n", sub)
		return exitUsage
	}
	if sub != "run" && opts.outDir != "" {
		fmt.Fprintf(stderr, "convertpromote ir %s: --out DIR is a flag of ir run (did you mean -o?)\n", sub)
		return exitUsage
	}
	if sub != "run" && len(opts.inputs) > 0 {
		fmt.Fprintf(stderr, "convertpromote ir %s: --input is a flag of ir run\n", sub)
		return exitUsage
	}
	if sub != "run" && sub != "fold" && flagGiven(fs, "max-memory") {
		fmt.Fprintf(stderr, "convertpromote ir %s: --max-memory is a flag of ir run and ir fold\n", sub)
		return exitUsage
	}
	if sub != "decompress" && sub != "compress" && flagGiven(fs, "to") {
		fmt.Fprintf(stderr, "convertpromote ir %s: --to is a flag of ir decompress and ir compress\n", sub)
		return exitUsage
	}
	if _, err := decompressTo(opts.to); sub == "decompress" && err != nil {
		fmt.Fprintf(stderr, "convertpromote ir %s: %v\n", sub, err)
		return exitUsage
	}
	if sub == "decompose" || sub == "fold" || sub == "decompress" || sub == "compress" {
		// Refuse before reading anything: -o must name neither the model nor its .bin.
		if err := checkOutputs(modelFiles(pos, opts), []namedPath{{opts.out, "the output"}, {ir.BinPath(opts.out), "the output's .bin"}}); err != nil {
			fmt.Fprintf(stderr, "convertpromote ir %s: %v\n", sub, err)
			return exitUsage
		}
	}
	var m *ir.Model
	if opts.embedded {
		m = ir.Embedded()
	} else {
		var err error
		if sub == "check" && looksLikeSnippet(pos[0]) {
			// A <layer> pasted from the specification: read tolerantly.
			var data []byte
			if data, err = readLimited(pos[0], 64<<20); err == nil {
				m, err = ir.ParseSnippet(data, pos[0])
			}
			if err == nil {
				fmt.Fprintf(stdout, "%s: a pasted <layer> snippet, read tolerantly (commas between attributes, \"< !--\"); each input gets a Parameter\n", pos[0])
			}
		} else {
			m, err = ir.Read(pos[0])
		}
		if err != nil {
			irReadError(stderr, sub, err)
			return exitFail
		}
	}
	if err := do(m, opts, stdout, stderr); err != nil {
		if isUsage(err) {
			fmt.Fprintf(stderr, "convertpromote ir %s: %v\n", sub, err)
			return exitUsage
		}
		var es ir.Errors
		var be *ir.BudgetError
		if errors.As(err, &be) {
			fmt.Fprintf(stderr, "convertpromote ir %s: %v; give a larger budget with --max-memory (e.g. --max-memory %s)\n", sub, err, suggestSize(be.Need))
		} else if errors.As(err, &es) {
			for _, e := range es {
				fmt.Fprintln(stderr, e)
			}
		} else {
			fmt.Fprintf(stderr, "convertpromote ir %s: %v\n", sub, err)
		}
		return exitFail
	}
	return exitOK
}

// irReadError reports a model that could not be read: a problem located in the model
// (FILE:LINE: MESSAGE) as it is, like the problems check finds; any other error, such as a file
// that cannot be opened, as an error line of the subcommand.
func irReadError(stderr io.Writer, sub string, err error) {
	var located *ir.Error
	var es ir.Errors
	if errors.As(err, &located) || errors.As(err, &es) {
		fmt.Fprintln(stderr, err)
		return
	}
	failf(stderr, "ir "+sub, "%v", err)
}

// maxListed bounds the ConvertPromoteTypes layers check lists, to keep the summary on one screen.
const maxListed = 12

func irCheck(m *ir.Model, _ irOptions, stdout, stderr io.Writer) error {
	rep, err := m.Check()
	printSummary(m, rep, stdout)
	if err != nil {
		return err
	}
	if err := printCompressed(m, rep, stdout); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}

func printSummary(m *ir.Model, rep *ir.Report, w io.Writer) {
	fmt.Fprintf(w, "%s: IR v%d, net %q, %d layers, %d edges\n", m.File, m.Version, m.Name, len(m.Layers), len(m.Edges))
	counts := m.CountByType()
	types := make([]string, 0, len(counts))
	for t := range counts {
		types = append(types, t)
	}
	sort.Strings(types)
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%d %s", counts[t], t)
	}
	fmt.Fprintf(w, "layers: %s\n", strings.Join(parts, ", "))
	switch {
	case rep.Consts == 0:
		fmt.Fprintln(w, "constant data: no Const layers")
	case rep.BinChecked:
		fmt.Fprintf(w, "constant data: %s (%d bytes); offset and size of %d Consts checked against it\n", rep.BinName, rep.BinSize, rep.Consts)
	default:
		fmt.Fprintf(w, "constant data: %s is absent; offset and size of %d Consts NOT checked against it (run and fold need it)\n", rep.BinName, rep.Consts)
	}
	if len(rep.Promotes) == 0 {
		fmt.Fprintln(w, "ConvertPromoteTypes: none")
		return
	}
	fmt.Fprintf(w, "ConvertPromoteTypes: %d\n", len(rep.Promotes))
	for i, p := range rep.Promotes {
		if i == maxListed {
			fmt.Fprintf(w, "  ... and %d more\n", len(rep.Promotes)-maxListed)
			break
		}
		in := func(k int) string {
			t := "?"
			if p.InKnown[k] {
				t = p.In[k].Type.String()
			}
			return t + p.In[k].Shape.String()
		}
		res := "-> " + p.Common.String()
		switch {
		case p.Err != nil:
			res = "-> error"
		case !p.InKnown[0] || !p.InKnown[1]:
			res = "-> unknown (an input has no precision)"
		}
		where := p.Layer.Label()
		if p.Body != nil {
			where += " in the body of " + p.Body.Label()
		}
		fmt.Fprintf(w, "  %s: %s + %s %s  [promote_unsafe=%t pytorch_scalar_promotion=%t u64_integer_promotion_target=%s]\n",
			where, in(0), in(1), res, p.Op.PromoteUnsafe, p.Op.PyTorchScalarPromotion, p.Op.U64IntegerPromotionTarget)
	}
}

// printCompressed lists the compressed weights by mode, once the graph checks and when the .bin
// is there to read their small Consts.
func printCompressed(m *ir.Model, rep *ir.Report, w io.Writer) error {
	if !rep.BinChecked {
		fmt.Fprintln(w, "compressed weights: not examined (they need the .bin)")
		return nil
	}
	ws, err := m.CompressedWeights()
	sums := ir.SummarizeCompressed(ws)
	total := ir.CompressedSummary{Mode: "compressed weights"}
	for _, s := range sums {
		total.Count += s.Count
		total.Stored += s.Stored
		total.Decompressed += s.Decompressed
	}
	if total.Count == 0 {
		fmt.Fprintln(w, "compressed weights: none")
	} else {
		fmt.Fprintln(w, total)
	}
	for _, s := range sums {
		fmt.Fprintln(w, "  "+s.String())
	}
	return err
}

func irDecompose(m *ir.Model, opts irOptions, stdout, _ io.Writer) error {
	n, err := m.Decompose()
	if err != nil {
		return err
	}
	if err := saveModel(m, opts.out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: replaced %d ConvertPromoteTypes layers by %d Convert layers\n", opts.out, n, 2*n)
	if left := m.CountByType()[ir.OpType]; left > 0 {
		fmt.Fprintf(stdout, "%s: left %d ConvertPromoteTypes layers in place: their common type is dynamic (OpenVINO's pass skips them too)\n", opts.out, left)
	}
	return nil
}

func irRun(m *ir.Model, opts irOptions, stdout, _ io.Writer) error {
	if opts.values < 0 {
		return usageErrorf("--values must be ≥ 0")
	}
	// A tensor read from an --input file takes about the file's size: refuse before reading
	// when the files alone exceed the budget.
	var inputBytes int64
	for _, in := range opts.inputs {
		_, file, _ := strings.Cut(in, "=")
		if fi, err := os.Stat(file); err == nil {
			inputBytes += fi.Size()
		}
	}
	if inputBytes > opts.maxMemory {
		return &ir.BudgetError{File: m.File, Budget: opts.maxMemory, Need: inputBytes, Inputs: inputBytes}
	}
	inputs := map[string]op.Tensor{}
	for _, in := range opts.inputs {
		name, file, _ := strings.Cut(in, "=")
		t, err := npy.ReadFile(file)
		if err != nil {
			return fmt.Errorf("--input %s: %v", in, err)
		}
		inputs[name] = t
	}
	plan, err := m.Plan(inputs)
	if err != nil {
		return err
	}
	// The .npy files are known from the plan: refuse one that is an input before computing.
	var npyFiles []string
	if opts.outDir != "" {
		used := map[string]int{}
		var outs []namedPath
		for _, o := range plan.Outputs {
			f := filepath.Join(opts.outDir, npyFileName(o.Name, used))
			npyFiles = append(npyFiles, f)
			outs = append(outs, namedPath{f, "the output " + o.Name})
		}
		if err := checkOutputs(modelFiles([]string{m.File}, opts), outs); err != nil {
			return err
		}
	}
	res, err := m.RunWith(inputs, ir.RunOptions{MaxMemory: opts.maxMemory})
	if err != nil {
		return err
	}
	if len(res.Outputs) != len(npyFiles) && opts.outDir != "" {
		return fmt.Errorf("computed %d outputs, planned %d", len(res.Outputs), len(npyFiles))
	}
	if opts.outDir != "" {
		if err := os.MkdirAll(opts.outDir, 0o755); err != nil {
			return err
		}
	}
	if len(res.Outputs) == 0 {
		fmt.Fprintln(stdout, "nothing to evaluate: no layer that run computes has constant inputs")
	}
	for i, o := range res.Outputs {
		dims := o.Tensor.Shape()
		shape := make([]string, len(dims))
		for i, d := range dims {
			shape[i] = fmt.Sprint(d)
		}
		count := int64(o.Tensor.Len())
		vals, err := formatValues(o.Tensor, opts.values)
		if err != nil {
			return fmt.Errorf("%s: %v", o.Name, err)
		}
		more := ""
		if int64(len(vals)) < count {
			more = fmt.Sprintf(", ... (%d values)", count)
		}
		fmt.Fprintf(stdout, "%s  %s[%s]  %s%s\n", o.Name, o.Tensor.Type(), strings.Join(shape, ","), strings.Join(vals, ", "), more)
		if w := o.Weight; w != nil {
			inner := 0 // the subgraph's layers that run would otherwise list
			for _, l := range w.Layers {
				if l.Type != "Const" && l != w.Output {
					inner++
				}
			}
			fmt.Fprintf(stdout, "  compressed weight (%s), decompressed as one unit from %s; the subgraph's other %d layers are not listed\n",
				ir.SummarizeCompressed([]ir.CompressedWeight{*w})[0], w.Codes.Label(), inner)
		}
		if opts.outDir != "" {
			if err := writeNPYFile(npyFiles[i], o); err != nil {
				return err
			}
		}
	}
	for _, l := range res.Skipped {
		why := "an input is not constant"
		switch l.Type {
		case "Reshape", "Unsqueeze", "Transpose", "Gather":
			why += ", or its shape, axes, order or axis input is not a Const"
		}
		fmt.Fprintf(stdout, "not evaluated: %s (%s)\n", l.Label(), why)
	}
	if len(res.Missing) > 0 {
		fmt.Fprintln(stdout, "to evaluate more, feed these Parameters:")
		for _, p := range res.Missing {
			fmt.Fprintf(stdout, "  --input %s=FILE.npy  (%s: %s)\n", p.Name, p.Label(), parameterType(p))
		}
	}
	return nil
}

// parameterType is a Parameter's element_type and shape, as "f32[2,3]" ("?" for what the
// model leaves unknown).
func parameterType(l *ir.Layer) string {
	t, ok := l.DataAttr("element_type")
	if !ok || t == "" {
		t = "?"
	}
	sh, ok := l.DataAttr("shape")
	if !ok {
		return t + "[?]"
	}
	return t + "[" + strings.ReplaceAll(sh, " ", "") + "]"
}

// npyFileName makes a tensor name a safe, unique file name: characters other than letters,
// digits, '.', '-' and '_' become '_'.
func npyFileName(name string, used map[string]int) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	base := string(b)
	if base == "" || base[0] == '.' {
		base = "_" + base
	}
	used[base]++
	if k := used[base]; k > 1 {
		base = fmt.Sprintf("%s_%d", base, k)
	}
	return base + ".npy"
}

// writeNPYFile writes an output's .npy atomically: a failure leaves no partial file.
func writeNPYFile(path string, o ir.Output) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		if err := npy.Write(w, o.Tensor); err != nil {
			return fmt.Errorf("%s: writing %s: %v", o.Name, path, err)
		}
		return nil
	})
}

// saveModel saves to out (and its .bin), creating out's directory if needed.
func saveModel(m *ir.Model, out string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return m.Save(out)
}

// namedPath is a file a command reads or writes, with what it is for messages.
type namedPath struct{ path, role string }

// modelFiles are the files ir reads: the model's .xml and .bin (none with --embedded) and the
// --input files.
func modelFiles(pos []string, opts irOptions) []namedPath {
	var in []namedPath
	if !opts.embedded && len(pos) == 1 {
		in = append(in, namedPath{pos[0], "the model"}, namedPath{ir.BinPath(pos[0]), "the model's .bin"})
	}
	for _, v := range opts.inputs {
		name, file, _ := strings.Cut(v, "=")
		in = append(in, namedPath{file, "the input " + name})
	}
	return in
}

// checkOutputs returns a usage error when an output is one of the inputs: the same cleaned
// absolute path, or the same existing file (os.SameFile: hard links, symlinked directories,
// case-insensitive names). A symlink at an output's own name is not followed: it is replaced.
func checkOutputs(inputs, outputs []namedPath) error {
	for _, o := range outputs {
		for _, in := range inputs {
			if sameFile(o.path, in.path) {
				return usageErrorf("%s %s would overwrite %s %s; a command never writes onto a file it reads: choose another output", o.role, o.path, in.role, in.path)
			}
		}
	}
	return nil
}

func sameFile(out, in string) bool {
	ao, err1 := filepath.Abs(out)
	ai, err2 := filepath.Abs(in)
	if err1 == nil && err2 == nil && ao == ai {
		return true
	}
	fo, err := os.Lstat(out)
	if err != nil {
		return false
	}
	fi, err := os.Stat(in)
	return err == nil && os.SameFile(fo, fi)
}

// flagGiven reports whether the flag name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// suggestSize is a --max-memory value at least n: whole GiB, or whole MiB below 1 GiB (within
// 1 GiB of the int64 limit, where no budget is enough, the whole GiB below n).
func suggestSize(n int64) string {
	if n > math.MaxInt64-1<<30 {
		return fmt.Sprintf("%dGiB", n>>30)
	}
	if n >= 1<<30 {
		return fmt.Sprintf("%dGiB", (n+1<<30-1)>>30)
	}
	return fmt.Sprintf("%dMiB", (n+1<<20-1)>>20)
}

func irFold(m *ir.Model, opts irOptions, stdout, _ io.Writer) error {
	n, err := m.FoldWith(ir.RunOptions{MaxMemory: opts.maxMemory})
	if err != nil {
		return err
	}
	if err := saveModel(m, opts.out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: folded %s into Consts\n", opts.out, count(n, "layer"))
	return nil
}

// looksLikeSnippet reports whether the file starts with a <layer> element rather than <net>.
func looksLikeSnippet(path string) bool {
	f, err := regfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	return isSnippet(buf[:n])
}

// readLimited reads a whole file of at most limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	return data, nil
}
