package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
)

func init() {
	register("convert", "convert values between element types and show the result bits",
		"convertpromote convert --from f32 --to f16 0.1 65520    # 0.099975586 0x2e66, +Inf 0x7c00", runConvert)
}

const convertUsage = `Usage: convertpromote convert --from TYPE --to TYPE [--bits] [--rules SET [--saturate=BOOL] [--round-mode MODE]] [VALUE... | -]

Converts values of type --from to type --to with the rules of --rules (docs/SEMANTICS.md §3
and §7) and prints one line per value, in order: the destination value, a tab, and the
destination's raw bits in hex (the element's width; sub-byte types as their N-bit code).

A VALUE is a number (1.5, -3, 1e-8, nan, inf, -inf), true or false; for complex types also
(1+2i). It is first read into the source type (docs/SEMANTICS.md §3.12). A decimal is rounded
once, to the nearest f64 for an f64 source and to the nearest f32 for every other float source,
which the library's rules then convert to the source type (so an f64 or f32 source gets the
nearest value). A decimal beyond the source type's finite range, one that would round past its
largest finite value, is an error (out of range); nf4 takes every decimal (the nearest of its
values). An integer source type (boolean, i*, u*) takes only the integers it holds: a VALUE out
of its range or with a fraction is an error, never wrapped or rounded. With --bits a VALUE is
the raw bit pattern of the source type in hex (0x3c00). Flags may come before or after the
values.

"-" reads the values from stdin, one per line (blank lines are skipped; a line holds at most
1 MiB, 1048576 bytes with its newline), and prints as it reads, in constant memory. A bad VALUE
or a longer line stops the command with its line number; the lines printed before it stand.

--rules picks whose casts to reproduce: openvino (the default, OpenVINO's Convert), onnx (ONNX
Cast-25) or ml_dtypes (ml_dtypes 0.6, as JAX and PyTorch cast to float8). Under onnx,
--saturate=false is Cast's saturate=0 for float8 targets and --round-mode (up, down or nearest)
is Cast's round_mode for f8e8m0 targets; both are errors under the other rule sets. The rule set
also applies to reading decimal VALUEs into the source type.

Printed values (docs/SEMANTICS.md §3.11, the same in every command): a float as the shortest
decimal that reads back to the same float32 (f64: float64), which names the value exactly (f16
65504 prints as 65504, 0.1 converted to f16 as 0.099975586); NaN, +Inf, -Inf, -0; integers in
decimal; true/false; complex values as (RE+IMi).

Exit status: 0 on success; 1 when stdin cannot be read or the output cannot be written; 2 for
bad usage (unknown type, unsupported pair, a VALUE that does not parse or that the --from type
cannot hold: out of range, or a fraction for an integer type; a stdin line longer than 1 MiB).

Examples:
  convertpromote convert --from f32 --to f16 1 65520 1e-8      # 1 0x3c00, +Inf 0x7c00, 0 0x0000
  convertpromote convert --from f32 --to f8e4m3 464 465        # 448 0x7e, NaN 0x7f
  convertpromote convert --from f16 --to f32 --bits 0x7e01     # NaN 0x7fc02000
  echo -3.1 | convertpromote convert --from f32 --to u3 -      # 5 0x5
  convertpromote convert --rules onnx --from f32 --to f8e4m3 465                   # 448 0x7e
  convertpromote convert --rules onnx --saturate=false --from f32 --to f8e4m3 465  # NaN 0x7f
  convertpromote convert --rules ml_dtypes --bits --from f32 --to f8e4m3 0x3a8005f0  # 0.001953125 0x01
`

var convertValueFlags = map[string]bool{"from": true, "to": true, "rules": true, "round-mode": true}

func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("convert", convertUsage+convertTypesHelp()+"\nFlags:\n")
	fromFlag := fs.String("from", "", "source element type (required)")
	toFlag := fs.String("to", "", "destination element type (required)")
	bits := fs.Bool("bits", false, "read each VALUE as the raw bits of the source type, in hex")
	rulesFlag := fs.String("rules", "openvino", "rule set: openvino, onnx or ml_dtypes")
	saturate := fs.Bool("saturate", true, "onnx: Cast's saturate for float8 targets")
	roundMode := fs.String("round-mode", "", "onnx: Cast's round_mode for f8e8m0 targets: up (default), down or nearest")
	flags, words := interleaved(args, convertValueFlags)
	if code, ok := parseFlags(fs, flags, stdout, stderr); !ok {
		return code
	}
	conv, err := converterFlags(fs, *rulesFlag, *saturate, *roundMode)
	if err == nil {
		err = convertMain(conv, *fromFlag, *toFlag, *bits, words, stdin, stdout)
	}
	if err != nil {
		failf(stderr, "convert", "%v", err)
		if isUsage(err) {
			return exitUsage
		}
		return exitFail
	}
	return exitOK
}

// converterFlags builds the Converter of --rules, --saturate and --round-mode; the last two are
// ONNX Cast's attributes, an error under the other rule sets.
func converterFlags(fs *flag.FlagSet, rules string, saturate bool, roundMode string) (kernels.Converter, error) {
	var r kernels.Rules
	var err error
	if r.Set, err = kernels.ParseRuleSet(rules); err != nil {
		return kernels.Converter{}, usageErrorf("--rules: %v", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range []string{"saturate", "round-mode"} {
		if set[name] && r.Set != kernels.ONNX {
			return kernels.Converter{}, usageErrorf("--%s is an attribute of ONNX's Cast: it needs --rules onnx", name)
		}
	}
	r.NoSaturate = !saturate
	if roundMode != "" {
		if r.E8M0Round, err = kernels.ParseE8M0Rounding(roundMode); err != nil {
			return kernels.Converter{}, usageErrorf("--round-mode: %v", err)
		}
	}
	return kernels.Converter{Rules: r}, nil
}

func convertMain(conv kernels.Converter, fromName, toName string, bits bool, words []string, stdin io.Reader, stdout io.Writer) error {
	if fromName == "" || toName == "" {
		return usageErrorf("--from and --to are required")
	}
	from, err := parseConvertType("--from", fromName)
	if err != nil {
		return err
	}
	to, err := parseConvertType("--to", toName)
	if err != nil {
		return err
	}
	if !kernels.Supported(from, to) {
		return usageErrorf("conversion from %s to %s is not supported (string and dynamic hold no values)", from, to)
	}
	next := argChunks(words)
	if len(words) == 1 && words[0] == "-" {
		next = stdinChunks(stdin)
	}
	w := bufio.NewWriter(stdout)
	total := 0
	for {
		chunk, where, err := next()
		if err != nil {
			w.Flush() // the lines converted before the error stay on stdout
			return err
		}
		if len(chunk) == 0 {
			break
		}
		total += len(chunk)
		if err := convertChunk(conv, from, to, bits, chunk, where, w); err != nil {
			w.Flush() // what was converted before the bad chunk stays in order on stdout
			return err
		}
	}
	if total == 0 {
		return usageErrorf("no values (give VALUE... or - for stdin)")
	}
	return w.Flush()
}

// chunkLen is how many values convert handles at a time, so that memory stays the same however
// many values stdin holds. It is a multiple of 8: every chunk of a sub-byte type starts on a byte
// boundary, and the output is the same as for one tensor of all the values.
const chunkLen = 1 << 14

// A chunk source returns the next values (none at the end) and where is the place of each value
// for error messages ("stdin line 7", "value 3").
type chunkSource func() (words []string, where func(i int) string, err error)

// argChunks gives the command-line values in chunks.
func argChunks(words []string) chunkSource {
	done := 0
	return func() ([]string, func(int) string, error) {
		start := done
		end := min(len(words), start+chunkLen)
		done = end
		return words[start:end], func(i int) string { return fmt.Sprintf("value %d", start+i+1) }, nil
	}
}

// maxLineBytes bounds one line of stdin, newline included; a longer line is a usage error.
const maxLineBytes = 1 << 20

// chunkBytes ends a chunk before chunkLen values once the values read hold this many bytes (at
// a multiple of 8 values, as chunkLen is), so that a chunk of long lines holds at most about
// chunkBytes + 8·maxLineBytes.
const chunkBytes = 4 << 20

// stdinChunks reads the values of r, one per line (blank lines skipped), in chunks.
func stdinChunks(r io.Reader) chunkSource {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	line := 0
	words := make([]string, 0, chunkLen)
	lines := make([]int, 0, chunkLen)
	return func() ([]string, func(int) string, error) {
		words, lines = words[:0], lines[:0]
		size := 0
		for len(words) < chunkLen && (size < chunkBytes || len(words)%8 != 0) && sc.Scan() {
			line++
			if w := strings.TrimSpace(sc.Text()); w != "" {
				words = append(words, w)
				lines = append(lines, line)
				size += len(w)
			}
		}
		if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, usageErrorf("stdin line %d: longer than %d bytes (a line holds one VALUE)", line+1, maxLineBytes)
		} else if err != nil {
			return nil, nil, fmt.Errorf("reading stdin after line %d: %v", line, err)
		}
		return words, func(i int) string { return fmt.Sprintf("stdin line %d", lines[i]) }, nil
	}
}

// convertChunk converts the values of one chunk as one tensor and writes a line per value.
func convertChunk(conv kernels.Converter, from, to element.Type, bits bool, words []string, where func(int) string, w io.Writer) error {
	src, err := sourceTensor(conv, from, words, bits, where)
	if err != nil {
		return err
	}
	dst, err := src.ConvertWith(conv, to)
	if err != nil {
		return err
	}
	lines, err := formatElements(dst)
	if err != nil {
		return err
	}
	for _, l := range lines {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// convertTypes returns the types convert accepts: those that hold values (not string, not
// dynamic).
func convertTypes() []string {
	var names []string
	for _, t := range element.All() {
		if kernels.Supported(t, t) {
			names = append(names, t.String())
		}
	}
	return names
}

func convertTypesHelp() string {
	return "\n" + wrapList("Types: ", convertTypes(), 100) +
		"NumPy and PyTorch names work too: float32, float16, bfloat16, float64, int8, uint8, bool,\ncomplex64, float8_e4m3fn, half, double, float (f32), ...\n"
}

// parseConvertType reads the type name of flag; an unknown name is a usage error that lists the
// types convert accepts.
func parseConvertType(flag, name string) (element.Type, error) {
	t, err := element.Parse(name)
	if err != nil {
		return t, usageErrorf("%s: unknown element type %q (valid: %s)", flag, name, strings.Join(convertTypes(), ", "))
	}
	return t, nil
}

// sourceTensor parses the words into one tensor of type from; an error names the place of the
// bad word (where(i) for words[i]). Decimals are converted with conv.
func sourceTensor(conv kernels.Converter, from element.Type, words []string, bits bool, where func(int) string) (op.Tensor, error) {
	n := int64(len(words))
	if !bits {
		if t, ok := wholeTensor(conv, from, words); ok {
			return t, nil
		}
	}
	elems := make([]op.Tensor, len(words))
	for i, w := range words {
		var e op.Tensor
		var err error
		if bits {
			e, err = parseBits(from, w)
		} else {
			e, err = parseValue(conv, from, w)
		}
		if err != nil {
			if isUsage(err) {
				return op.Tensor{}, usageErrorf("%s: %v", where(i), err)
			}
			return op.Tensor{}, fmt.Errorf("%s: %v", where(i), err)
		}
		elems[i] = e
	}
	if from.IsPacked() {
		codes := make([]uint8, n)
		for i, e := range elems {
			c, err := e.Codes()
			if err != nil {
				return op.Tensor{}, err
			}
			codes[i] = c[0]
		}
		return op.FromCodes(from, []int64{n}, codes)
	}
	var data []byte
	for _, e := range elems {
		data = append(data, e.Bytes()...)
	}
	return op.FromBytes(from, []int64{n}, data)
}

// wholeTensor is sourceTensor for the common case, without a tensor per value: a float type
// whose words are all decimals it holds (read by readFloat, then converted as parseValue does),
// or an integer type whose words are all integers it holds. Otherwise ok is false and each word
// goes through parseValue, which also finds the bad one.
func wholeTensor(conv kernels.Converter, from element.Type, words []string) (t op.Tensor, ok bool) {
	shape := []int64{int64(len(words))}
	var x op.Tensor
	var err error
	switch {
	case from == element.F64:
		f := make([]float64, len(words))
		for i, w := range words {
			v, e := readFloat(from, w)
			if e != nil {
				return op.Tensor{}, false
			}
			f[i] = v
		}
		x, err = op.FromFloat64(shape, f)
	case from.IsReal():
		f := make([]float32, len(words))
		for i, w := range words {
			v, e := readFloat(from, w)
			if e != nil {
				return op.Tensor{}, false
			}
			f[i] = float32(v) // exact: read at float32 precision
		}
		x, err = op.FromFloat32(shape, f)
	case isIntRange(from):
		lo, hi, _ := from.IntRange()
		v := make([]int64, len(words))
		for i, w := range words {
			n, e := strconv.ParseInt(w, 10, 64)
			if e != nil || n < lo || n > 0 && uint64(n) > hi {
				return op.Tensor{}, false
			}
			v[i] = n
		}
		x, err = op.FromInt64(shape, v)
	default:
		return op.Tensor{}, false
	}
	if err == nil {
		t, err = x.ConvertWith(conv, from)
	}
	return t, err == nil && !overflowed(x, t)
}

// parseValue reads a number (or true/false) and converts it to a one-element tensor of type t
// with conv.
func parseValue(conv kernels.Converter, t element.Type, w string) (op.Tensor, error) {
	one := []int64{1}
	var x op.Tensor
	var err error
	lw := strings.ToLower(w)
	switch {
	case lw == "true" || lw == "false":
		x, err = op.FromBool(one, []bool{lw == "true"})
	case isIntRange(t):
		x, err = parseInteger(t, w)
	case t.IsIntegral(): // nf4: the nearest of its 16 values
		if i, e := strconv.ParseInt(w, 10, 64); e == nil {
			x, err = op.FromInt64(one, []int64{i})
		} else if u, e := strconv.ParseUint(w, 10, 64); e == nil {
			x, err = op.FromUint64(one, []uint64{u})
		} else if f, e := readFloat(t, w); e == nil {
			x, err = op.FromFloat32(one, []float32{float32(f)})
		} else {
			return op.Tensor{}, e
		}
	case t == element.F64:
		f, e := readFloat(t, w)
		if e != nil {
			return op.Tensor{}, e
		}
		x, err = op.FromFloat64(one, []float64{f})
	case t.IsReal():
		f, e := readFloat(t, w)
		if e != nil {
			return op.Tensor{}, e
		}
		x, err = op.FromFloat32(one, []float32{float32(f)})
	default: // complex: a real decimal or (RE+IMi)
		x, err = parseComplex(t, w)
	}
	if err != nil {
		return op.Tensor{}, err
	}
	y, err := x.ConvertWith(conv, t)
	if err == nil && overflowed(x, y) {
		part, ok := t.ComplexPart()
		if !ok {
			part = t
		}
		return op.Tensor{}, outOfFloatRange(part, w)
	}
	return y, err
}

// isIntRange reports whether t holds a range of integers (boolean and the i* and u* types).
func isIntRange(t element.Type) bool {
	_, _, ok := t.IntRange()
	return ok
}

// parseInteger reads w as an integer that type t holds: a value outside t's range or with a
// fraction is a usage error naming the range, never wrapped or rounded. An integral number
// written as a decimal ("1e3") counts as that integer.
func parseInteger(t element.Type, w string) (op.Tensor, error) {
	one := []int64{1}
	lo, hi, _ := t.IntRange()
	if i, err := strconv.ParseInt(w, 10, 64); err == nil {
		if i < lo || i > 0 && uint64(i) > hi {
			return op.Tensor{}, outOfRange(t, w)
		}
		return op.FromInt64(one, []int64{i})
	}
	if u, err := strconv.ParseUint(w, 10, 64); err == nil {
		if u > hi {
			return op.Tensor{}, outOfRange(t, w)
		}
		return op.FromUint64(one, []uint64{u})
	}
	f, err := strconv.ParseFloat(w, 64)
	if err != nil && !isRangeErr(err) {
		if _, cerr := strconv.ParseComplex(w, 128); cerr == nil {
			return op.Tensor{}, usageErrorf("value %q is complex; %s holds %s", w, t, intRangeText(t))
		}
		return op.Tensor{}, usageErrorf("value %q is not a number", w)
	}
	switch {
	case f != math.Trunc(f) || math.IsNaN(f):
		return op.Tensor{}, usageErrorf("value %q is not an integer; %s holds %s", w, t, intRangeText(t))
	case f < float64(lo) || f >= float64(hi)+1: // float64(hi)+1 is exact: 2^k
		return op.Tensor{}, outOfRange(t, w)
	case f >= 0:
		return op.FromUint64(one, []uint64{uint64(f)})
	}
	return op.FromInt64(one, []int64{int64(f)})
}

func outOfRange(t element.Type, w string) error {
	return usageErrorf("value %q is out of range: %s holds %s", w, t, intRangeText(t))
}

// intRangeText describes the values of an integer type: "the integers -128..127".
func intRangeText(t element.Type) string {
	lo, hi, _ := t.IntRange()
	if t == element.Boolean {
		return "true, false, 0 and 1"
	}
	return fmt.Sprintf("the integers %d..%d", lo, hi)
}

func isRangeErr(err error) bool {
	var ne *strconv.NumError
	return errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange)
}

// parseBits reads a hex bit pattern of type t into a one-element tensor.
func parseBits(t element.Type, w string) (op.Tensor, error) {
	h := strings.TrimPrefix(strings.TrimPrefix(w, "0x"), "0X")
	v, ok := new(big.Int).SetString(h, 16)
	if !ok || h == "" || v.Sign() < 0 {
		return op.Tensor{}, usageErrorf("bit pattern %q is not hex", w)
	}
	if v.BitLen() > t.Bits() {
		return op.Tensor{}, usageErrorf("bit pattern %q has more than the %d bits of %s", w, t.Bits(), t)
	}
	one := []int64{1}
	if t.IsPacked() {
		return op.FromCodes(t, one, []uint8{uint8(v.Uint64())})
	}
	data := make([]byte, t.Bits()/8)
	be := v.FillBytes(make([]byte, len(data)))
	for i := range data {
		data[i] = be[len(be)-1-i] // little-endian
	}
	return op.FromBytes(t, one, data)
}

// formatElements returns "VALUE\tBITS" for each element of x: the value by formatValues, the
// bits in hex (sub-byte types as their N-bit code).
func formatElements(x op.Tensor) ([]string, error) {
	t := x.Type()
	vals, err := formatValues(x, -1)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(vals))
	if t.IsPacked() {
		codes, err := x.Codes()
		if err != nil {
			return nil, err
		}
		digits := (t.Bits() + 3) / 4
		for i := range out {
			out[i] = fmt.Sprintf("%s\t0x%0*x", vals[i], digits, codes[i])
		}
		return out, nil
	}
	for i := range out {
		out[i] = vals[i] + "\t" + hexBits(x.Bytes(), t, i)
	}
	return out, nil
}

// hexBits formats element i of an unpacked buffer as 0x followed by its bytes, most significant
// first (the element's full width).
func hexBits(data []byte, t element.Type, i int) string {
	w := t.Bits() / 8
	var sb strings.Builder
	sb.WriteString("0x")
	for k := w - 1; k >= 0; k-- {
		fmt.Fprintf(&sb, "%02x", data[i*w+k])
	}
	return sb.String()
}
