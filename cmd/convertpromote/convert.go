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
	register("convert", "convert values between element types and show the result bits", runConvert)
}

const convertUsage = `Usage: convertpromote convert --from TYPE --to TYPE [--bits] [--rules SET [--saturate=BOOL] [--round-mode MODE]] [VALUE... | -]

Converts values of type --from to type --to with the rules of --rules (docs/SEMANTICS.md) and prints
one line per value: the destination value, a tab, and the destination's raw bits in hex (the
element's width; sub-byte types as their N-bit code). The values are converted as one tensor.

A VALUE is a number (1.5, -3, 1e-8, nan, inf, -inf), true or false; for complex types also
(1+2i). It is first converted to the source type: decimals are read as float64 and converted
with the library's rules (so f64 and f32 sources are exact), integers as integers. With --bits a
VALUE is the raw bit pattern of the source type in hex (0x3c00). "-" reads values from stdin,
one per line. Flags may come before or after the values.

--rules picks whose casts to reproduce: openvino (the default, OpenVINO's Convert), onnx (ONNX
Cast-25) or ml_dtypes (ml_dtypes 0.6, as JAX and PyTorch cast to float8). Under onnx,
--saturate=false is Cast's saturate=0 for float8 targets and --round-mode (up, down or nearest)
is Cast's round_mode for f8e8m0 targets; both are errors under the other rule sets. The rule set
also applies to reading decimal VALUEs into the source type.

Printed values: f16 and bf16 as the shortest decimal that reads back (as f32, then converted) to
the same bits; f32 and f64 in Go's shortest round-trip form; f8e4m3, f8e5m2, f8e4m3fnuz,
f8e5m2fnuz, f8e8m0, f4e2m1 and nf4 as Go formats their float32 value; NaN, +Inf, -Inf; integers in decimal; true/false.

Exit status: 0 on success; 2 for bad usage (unknown type, unsupported pair, a VALUE that does
not parse).

Examples:
  convertpromote convert --from f32 --to f16 1 65520 1e-8      # 1 0x3c00, +Inf 0x7c00, 0 0x0000
  convertpromote convert --from f32 --to f8e4m3 464 465        # 448 0x7e, NaN 0x7f
  convertpromote convert --from f16 --to f32 --bits 0x7e01     # NaN 0x7fc02000
  echo -3.1 | convertpromote convert --from f32 --to u3 -      # 5 0x5
  convertpromote convert --rules onnx --from f32 --to f8e4m3 465                   # 448 0x7e
  convertpromote convert --rules onnx --saturate=false --from f32 --to f8e4m3 465  # NaN 0x7f
  convertpromote convert --rules ml_dtypes --bits --from f32 --to f8e4m3 0x3a8005f0  # 0.001953125 0x01

Flags:
`

var convertValueFlags = map[string]bool{"from": true, "to": true, "rules": true, "round-mode": true}

func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("convert", convertUsage, stderr)
	fromFlag := fs.String("from", "", "source element type (required)")
	toFlag := fs.String("to", "", "destination element type (required)")
	bits := fs.Bool("bits", false, "read each VALUE as the raw bits of the source type, in hex")
	rulesFlag := fs.String("rules", "openvino", "rule set: openvino, onnx or ml_dtypes")
	saturate := fs.Bool("saturate", true, "onnx: Cast's saturate for float8 targets")
	roundMode := fs.String("round-mode", "", "onnx: Cast's round_mode for f8e8m0 targets: up (default), down or nearest")
	flags, words := interleaved(args, convertValueFlags)
	if code, ok := parseFlags(fs, flags, stdout); !ok {
		return code
	}
	conv, err := converterFlags(fs, *rulesFlag, *saturate, *roundMode)
	if err == nil {
		err = convertMain(conv, *fromFlag, *toFlag, *bits, words, stdin, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "convert: %v\n", err)
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
	from, err := element.Parse(fromName)
	if err != nil {
		return usageErrorf("--from: %v", err)
	}
	to, err := element.Parse(toName)
	if err != nil {
		return usageErrorf("--to: %v", err)
	}
	if !kernels.Supported(from, to) {
		return usageErrorf("conversion from %s to %s is not supported (string and dynamic hold no values)", from, to)
	}
	if len(words) == 1 && words[0] == "-" {
		words = words[:0]
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			if w := strings.TrimSpace(sc.Text()); w != "" {
				words = append(words, w)
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("reading stdin: %v", err)
		}
	}
	if len(words) == 0 {
		return usageErrorf("no values (give VALUE... or - for stdin)")
	}
	src, err := sourceTensor(conv, from, words, bits)
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
	w := bufio.NewWriter(stdout)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	return w.Flush()
}

// sourceTensor parses the words into one tensor of type from (decimals converted with conv).
func sourceTensor(conv kernels.Converter, from element.Type, words []string, bits bool) (op.Tensor, error) {
	n := int64(len(words))
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
			return op.Tensor{}, err
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
	case t.IsIntegral():
		if i, e := strconv.ParseInt(w, 10, 64); e == nil {
			x, err = op.FromInt64(one, []int64{i})
		} else if u, e := strconv.ParseUint(w, 10, 64); e == nil {
			x, err = op.FromUint64(one, []uint64{u})
		} else if f, e := strconv.ParseFloat(w, 64); e == nil {
			x, err = op.FromFloat64(one, []float64{f})
		} else {
			return op.Tensor{}, usageErrorf("value %q is not a number", w)
		}
	default:
		if f, e := strconv.ParseFloat(w, 64); e == nil || isRangeErr(e) {
			x, err = op.FromFloat64(one, []float64{f}) // out of range: ParseFloat gives ±Inf
		} else if c, e := strconv.ParseComplex(w, 128); e == nil && t.IsComplex() {
			x, err = op.FromComplex128(one, []complex128{c})
		} else {
			return op.Tensor{}, usageErrorf("value %q is not a number", w)
		}
	}
	if err != nil {
		return op.Tensor{}, err
	}
	return x.ConvertWith(conv, t)
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

// formatElements returns "VALUE\tBITS" for each element of x.
func formatElements(x op.Tensor) ([]string, error) {
	t := x.Type()
	n := x.Len()
	out := make([]string, n)
	bitsOf := func(i int) string { return hexBits(x.Bytes(), t, i) }
	switch {
	case t.IsPacked() || t == element.F8E4M3 || t == element.F8E5M2 || t == element.F8E8M0 || t.IsFNUZ():
		codes, err := x.Codes()
		if err != nil {
			return nil, err
		}
		var vals []string
		switch t {
		case element.F8E4M3, element.F8E5M2, element.F8E8M0, element.F4E2M1, element.NF4,
			element.F8E4M3FNUZ, element.F8E5M2FNUZ:
			f, err := x.Float32s()
			if err != nil {
				return nil, err
			}
			for _, v := range f {
				vals = append(vals, formatFloat(float64(v), 32))
			}
		default:
			iv, err := x.Int64s()
			if err != nil {
				return nil, err
			}
			for _, v := range iv {
				vals = append(vals, strconv.FormatInt(v, 10))
			}
		}
		digits := (t.Bits() + 3) / 4
		for i := range out {
			out[i] = fmt.Sprintf("%s\t0x%0*x", vals[i], digits, codes[i])
		}
		return out, nil
	case t == element.F16 || t == element.BF16:
		h, err := x.Bits16()
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i] = formatHalf(t, h[i]) + "\t" + bitsOf(i)
		}
	case t == element.C32:
		h, err := x.Bits16()
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i] = formatComplex(formatHalf(element.F16, h[2*i]), formatHalf(element.F16, h[2*i+1])) + "\t" + bitsOf(i)
		}
	case t == element.C64 || t == element.C128:
		c, err := x.Complex128s()
		if err != nil {
			return nil, err
		}
		size := 64
		if t == element.C64 {
			size = 32
		}
		for i, v := range c {
			out[i] = formatComplex(formatFloat(real(v), size), formatFloat(imag(v), size)) + "\t" + bitsOf(i)
		}
	case t == element.F32 || t == element.F64:
		f, err := x.Float64s()
		if err != nil {
			return nil, err
		}
		size := 64
		if t == element.F32 {
			size = 32
		}
		for i, v := range f {
			out[i] = formatFloat(v, size) + "\t" + bitsOf(i)
		}
	case t == element.Boolean:
		b, err := x.Bools()
		if err != nil {
			return nil, err
		}
		for i, v := range b {
			out[i] = strconv.FormatBool(v) + "\t" + bitsOf(i)
		}
	case t == element.U64:
		u, err := x.Uint64s()
		if err != nil {
			return nil, err
		}
		for i, v := range u {
			out[i] = strconv.FormatUint(v, 10) + "\t" + bitsOf(i)
		}
	default: // the other integers
		iv, err := x.Int64s()
		if err != nil {
			return nil, err
		}
		for i, v := range iv {
			out[i] = strconv.FormatInt(v, 10) + "\t" + bitsOf(i)
		}
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

// formatFloat formats v in Go's shortest round-trip form for the given bit size, with NaN,
// +Inf and -Inf spelled that way.
func formatFloat(v float64, size int) string {
	return strconv.FormatFloat(v, 'g', -1, size)
}

// formatHalf formats f16 or bf16 bits as the shortest decimal that, read as f32 and converted
// back to t, gives the same bits.
func formatHalf(t element.Type, h uint16) string {
	enc := kernels.F16FromF32
	dec := kernels.F32FromF16
	if t == element.BF16 {
		enc, dec = kernels.BF16FromF32, kernels.F32FromBF16
	}
	v := float64(dec(h))
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return formatFloat(v, 32)
	}
	for p := 1; p < 17; p++ {
		s := strconv.FormatFloat(v, 'e', p-1, 64)
		f, err := strconv.ParseFloat(s, 32)
		if err == nil && enc(float32(f)) == h {
			d, _ := strconv.ParseFloat(s, 64)
			return strconv.FormatFloat(d, 'g', -1, 64)
		}
	}
	return formatFloat(v, 32) // not reached: the exact value always reads back
}

func formatComplex(re, im string) string {
	if !strings.HasPrefix(im, "-") && !strings.HasPrefix(im, "+") {
		im = "+" + im
	}
	return "(" + re + im + "i)"
}
