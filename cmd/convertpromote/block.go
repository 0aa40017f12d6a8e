package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

func init() {
	register("block", "show how one block of a block-scaled format (MXFP4, MXFP8, NVFP4) decodes",
		"convertpromote block --format mxfp4 --quantize 0.3 -1 2.5 7", runBlock)
}

const blockUsage = `Usage: convertpromote block [--format FORMAT] [--to TYPE] --scale BITS CODE...
       convertpromote block [--format FORMAT] [--to TYPE] --quantize VALUE...

Shows how one block of a block-scaled format decodes (docs/SEMANTICS.md §9): for each element
its code, the code's value, that value times the block's scale, and the result in --to (f32,
f16 or bf16) with its bits. With --scale the CODEs are the element codes in hex (0x0..0xf for
f4e2m1, 0x00..0xff for the 8-bit elements); with --quantize the VALUEs are first quantized into
one block by the format's rule, and their column comes first. A VALUE is a decimal, rounded once
to the nearest float32, or inf, -inf or nan; a decimal beyond float32's finite range is an error
(out of range).

FORMAT is mxfp4 (f4e2m1 elements, an f8e8m0 scale, blocks of 32), mxfp8e4m3, mxfp8e5m2 (f8e4m3
or f8e5m2 elements, an f8e8m0 scale, blocks of 32) or nvfp4 (f4e2m1 elements, an f8e4m3 scale,
blocks of 16). A block holds at most that many elements.

Output: a header line with the format and the scale (its bits and value), then one
tab-separated line per element: [value,] code, element, element × scale, the --to value and its
bits. A NaN scale makes the whole block NaN.

Values print as the shortest decimal that reads back to the same float32, which names each
exactly (docs/SEMANTICS.md §3.11); the × scale column is the exact product.

Exit status: 0 on success; 2 for bad usage (unknown format or type, a code or value that does
not parse or is out of range, more elements than a block holds).

Examples:
  convertpromote block --format mxfp4 --scale 0x80 0x1 0x7 0xf   # scale 2: 1, 12, -12
  convertpromote block --format nvfp4 --to bf16 --scale 0x3c 0x3 0x5
  convertpromote block --format mxfp4 --quantize 0.3 -1 2.5 7
`

var blockValueFlags = map[string]bool{"format": true, "to": true, "scale": true}

func runBlock(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("block", blockUsage+"\nFlags:\n")
	formatFlag := fs.String("format", "mxfp4", "block format: mxfp4, mxfp8e4m3, mxfp8e5m2 or nvfp4")
	toFlag := fs.String("to", "f32", "decoded type: f32, f16 or bf16")
	scaleFlag := fs.String("scale", "", "the block's scale bits in hex (0x7f); with CODEs")
	quantize := fs.Bool("quantize", false, "the arguments are values to quantize into one block")
	flags, words := interleaved(args, blockValueFlags)
	if code, ok := parseFlags(fs, flags, stdout, stderr); !ok {
		return code
	}
	f, err := quant.Parse(*formatFlag)
	if err != nil {
		failf(stderr, "block", "--format: %v", err)
		return exitUsage
	}
	if f.Scale.Bits() != 8 || f.Zero != element.Dynamic || f.Scale2 != element.Dynamic {
		failf(stderr, "block", "--format %s: block shows a block-scaled scheme (a one-byte scale, no zero point, no second-level scale)", f)
		return exitUsage
	}
	to, err := element.Parse(*toFlag)
	if err != nil || to != element.F32 && to != element.F16 && to != element.BF16 {
		failf(stderr, "block", "--to %q: the decoded type is f32, f16 or bf16", *toFlag)
		return exitUsage
	}
	n := len(words)
	switch {
	case n == 0:
		failf(stderr, "block", "no %s given (see convertpromote block -h)", map[bool]string{true: "values", false: "codes"}[*quantize])
		return exitUsage
	case n > f.Group:
		failf(stderr, "block", "%d elements given; a %s block holds at most %d", n, f, f.Group)
		return exitUsage
	case *quantize && *scaleFlag != "":
		failf(stderr, "block", "--scale and --quantize exclude each other: --quantize computes the scale")
		return exitUsage
	case !*quantize && *scaleFlag == "":
		failf(stderr, "block", "--scale is required with CODEs (or give values with --quantize)")
		return exitUsage
	}
	q := f.Alloc(n)
	codes, scales := q.Codes, q.Scales
	var vals []float32
	if *quantize {
		vals = make([]float32, n)
		for i, w := range words {
			v, err := readFloat(element.F32, w)
			if err != nil {
				failf(stderr, "block", "%v", err)
				return exitUsage
			}
			vals[i] = float32(v) // exact: read at float32 precision
		}
		if err := quant.QuantizeF32s(q, f, vals); err != nil {
			failf(stderr, "block", "%v", err)
			return exitFail
		}
	} else {
		s, err := parseBlockBits(*scaleFlag, 8)
		if err != nil {
			failf(stderr, "block", "--scale: %v", err)
			return exitUsage
		}
		scales[0] = uint8(s)
		for i, w := range words {
			c, err := parseBlockBits(w, f.Code.Bits())
			if err != nil {
				failf(stderr, "block", "code %d: %v", i, err)
				return exitUsage
			}
			if f.Code.Bits() == 4 {
				codes[i/2] |= uint8(c) << (4 * (i & 1))
			} else {
				codes[i] = uint8(c)
			}
		}
	}
	dst := make([]byte, n*to.Bits()/8)
	if err := quant.Dequantize(dst, to, q, f, n); err != nil {
		failf(stderr, "block", "%v", err)
		return exitFail
	}
	scale := blockElemValue(f.Scale, scales[0])
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s elements, %s scale, block of %d; scale 0x%02x = %s\n", f, f.Code, f.Scale, f.Group, scales[0], formatValue(f.Scale, uint64(scales[0])))
	if vals != nil {
		b.WriteString("# value\tcode\telement\t× scale\t" + to.String() + "\tbits\n")
	} else {
		b.WriteString("# code\telement\t× scale\t" + to.String() + "\tbits\n")
	}
	for i := range n {
		var c uint8
		if f.Code.Bits() == 4 {
			c = codes[i/2] >> (4 * (i & 1)) & 0xF
		} else {
			c = codes[i]
		}
		e := blockElemValue(f.Code, c)
		prod := float64(e) * float64(scale)
		if scale != scale {
			prod = math.NaN()
		}
		if vals != nil {
			fmt.Fprintf(&b, "%s\t", formatValue(element.F32, uint64(math.Float32bits(vals[i]))))
		}
		width := (f.Code.Bits() + 3) / 4
		fmt.Fprintf(&b, "0x%0*x\t%s\t%s\t", width, c, formatValue(f.Code, uint64(c)), formatValue(element.F64, math.Float64bits(prod)))
		if to == element.F32 {
			bits := binary.LittleEndian.Uint32(dst[4*i:])
			fmt.Fprintf(&b, "%s\t0x%08x\n", formatValue(element.F32, uint64(bits)), bits)
		} else {
			h := binary.LittleEndian.Uint16(dst[2*i:])
			fmt.Fprintf(&b, "%s\t0x%04x\n", formatValue(to, uint64(h)), h)
		}
	}
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		failf(stderr, "block", "writing the output: %v", err)
		return exitFail
	}
	return exitOK
}

// parseBlockBits reads a code of the given width in hex (with or without 0x).
func parseBlockBits(s string, width int) (uint64, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	v, err := strconv.ParseUint(t, 16, 64)
	if err != nil || t == "" {
		return 0, fmt.Errorf("%q is not a hex code (examples: 0x7f, 0xf)", s)
	}
	if v >= 1<<width {
		return 0, fmt.Errorf("%q does not fit in %d bits", s, width)
	}
	return v, nil
}

// blockElemValue decodes one code of an element or scale type to float32.
func blockElemValue(t element.Type, c uint8) float32 {
	switch t {
	case element.F4E2M1:
		return kernels.F32FromF4E2M1(c)
	case element.F8E4M3:
		return kernels.F32FromF8E4M3(c)
	case element.F8E5M2:
		return kernels.F32FromF8E5M2(c)
	}
	return kernels.F32FromF8E8M0(c)
}
