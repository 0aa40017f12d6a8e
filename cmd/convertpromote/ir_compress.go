package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/convertpromote/convertpromote/ir"
)

func init() {
	irSubUsage["compress"] = `Usage: convertpromote ir compress [flags] MODEL.xml -o OUT.xml (--to f16 | --mode MODE)

Compresses the model's weights and writes OUT.xml and OUT.bin beside it; OUT.bin then holds only
the data the Consts of OUT.xml use. The model is never written onto: -o must name another file.

--to f16 does what OpenVINO (2025.x, 2026.0) does when it saves a model with compress_to_fp16, the
default of ovc and ov.save_model: each f32 or f64 Const becomes an f16 Const NAME_compressed
followed by a Convert back to its type, named NAME and marked "decompression" in its rt_info, so
that consumers and outputs keep their names. Left as they are: Consts marked "precise" in their
rt_info, Consts that feed shapes (the shape input of Reshape, Broadcast, Tile, Interpolate, ...:
these are marked "precise"), empty Consts, and Consts with at least 75% of their values outside
f16's range (|v| > 65504 or 0 < |v| < 2^-24). Values beyond ±65504 (±Inf too) are clamped to
±65504, then rounded to nearest even; an f32 NaN becomes 65504 as on OpenVINO's x86 path, an f64
NaN stays NaN. A model that already holds compressed weights (a FakeQuantize or FakeConvert, or
u8/i8/u4/i4/nf4/f8 weights multiplied by a scale Const) is left unchanged, as OpenVINO leaves it.
docs/ir.md has the details.

--mode MODE compresses the weights of MatMul and Gather (embedding) layers as NNCF's data-free
weight compression does. MODE is one of
  ` + strings.Join(compressModes, ", ") + `.
--group-size N sets the group size (N > 0, or -1 for one group per row; NNCF's default for the
mode when not given), and --all-layers compresses the embeddings and the last MatMul with MODE
too instead of NNCF's backup mode.

When there is nothing to compress, OUT.xml and OUT.bin are still written (a copy of the model)
and a line on stdout says why; the exit status is 0.

Exit status: 0 ok (also when nothing was compressed); 1 when the model does not check or cannot
be read, compressed or written; 2 for bad usage.

Examples:
  convertpromote ir compress testdata/ir/f32_weights.xml -o /tmp/f16.xml --to f16
  convertpromote ir compress testdata/ir/example2_integers_unsafe.xml -o /tmp/unchanged.xml --to f16
  convertpromote ir compress testdata/ir/nncf_weights.xml -o /tmp/int4.xml --mode int4_asym
  convertpromote ir compress testdata/ir/nncf_weights.xml -o /tmp/fp4.xml --mode fp4 --group-size 32 --all-layers

Flags:
`
}

// compressModes are the --mode values: NNCF's data-free weight compression modes.
var compressModes = []string{"int8_asym", "int8_sym", "int4_asym", "int4_sym", "nf4", "fp4",
	"fp8_e4m3", "mxfp4", "mxfp8_e4m3", "nvfp4"}

// compressOptions are the flags of ir compress.
type compressOptions struct {
	to, mode  string
	groupSize int
	allLayers bool
}

// define adds the flags of ir compress to fs.
func (o *compressOptions) define(fs *flag.FlagSet) {
	fs.StringVar(&o.mode, "mode", "", "NNCF weight compression mode: "+strings.Join(compressModes, ", ")+" (compress)")
	fs.IntVar(&o.groupSize, "group-size", 0, "elements per group with --mode, -1 for one group per row (default: NNCF's for the mode) (compress)")
	fs.BoolVar(&o.allLayers, "all-layers", false, "with --mode, compress embeddings and the last MatMul with MODE too (compress)")
}

// check validates the flags of ir compress for subcommand sub: exactly one of --to f16 and
// --mode MODE, --group-size and --all-layers only with --mode; on other subcommands, none of
// them. Its errors are usage errors.
func (o *compressOptions) check(sub string, fs *flag.FlagSet) error {
	var given []string
	for _, f := range []string{"mode", "group-size", "all-layers"} {
		if flagGiven(fs, f) {
			given = append(given, "--"+f)
		}
	}
	if sub != "compress" {
		if len(given) > 0 {
			return fmt.Errorf("%s is a flag of ir compress", given[0])
		}
		return nil
	}
	hasTo, hasMode := flagGiven(fs, "to"), flagGiven(fs, "mode")
	switch {
	case hasTo && hasMode:
		return errors.New("give --to f16 or --mode MODE, not both")
	case !hasTo && !hasMode:
		return errors.New("give --to f16 or --mode MODE; run 'convertpromote ir compress -h'")
	case hasTo && o.to != "f16":
		return fmt.Errorf("--to %q: the only target is f16 (use --mode for NNCF's weight compression)", o.to)
	case hasTo && (flagGiven(fs, "group-size") || flagGiven(fs, "all-layers")):
		return errors.New("--group-size and --all-layers go with --mode, not --to")
	case hasMode && !slices.Contains(compressModes, o.mode):
		return fmt.Errorf("--mode %q: unknown mode (valid: %s)", o.mode, strings.Join(compressModes, ", "))
	case flagGiven(fs, "group-size") && o.groupSize <= 0 && o.groupSize != -1:
		return fmt.Errorf("--group-size %d: want a positive group size, or -1 for one group per row", o.groupSize)
	}
	return nil
}

func irCompress(m *ir.Model, opts irOptions, stdout, _ io.Writer) error {
	o := opts.compress
	if o.mode != "" {
		n, err := compressWeights(m, o.mode, o.groupSize, o.allLayers)
		if err != nil {
			return err
		}
		return saveCompressed(m, opts.out, n, stdout, func() string {
			if n == 0 {
				return "no MatMul or Gather weight to compress; written unchanged"
			}
			return fmt.Sprintf("compressed %s (%s)", count(n, "weight"), o.mode)
		})
	}
	rep, err := ir.CompressToF16Report(m)
	if err != nil {
		return err
	}
	return saveCompressed(m, opts.out, len(rep.Compressed), stdout, func() string {
		if rep.Optimized != "" {
			return "the model already holds compressed weights (" + rep.Optimized + "); OpenVINO leaves such a model as it is: written unchanged"
		}
		var b strings.Builder
		if len(rep.Compressed) == 0 {
			b.WriteString("no f32 or f64 Const to compress to f16; written unchanged")
		} else {
			fmt.Fprintf(&b, "compressed %s to f16 (NAME_compressed -> Convert NAME)", count(len(rep.Compressed), "f32/f64 Const"))
		}
		for _, k := range []struct {
			what  string
			names []string
		}{
			{"marked precise", rep.Precise},
			{"on a shape path (now marked precise)", rep.ShapePath},
			{"with >= 75% of values out of f16's range", rep.OutOfRange},
			{"empty", rep.Empty},
		} {
			if len(k.names) > 0 {
				fmt.Fprintf(&b, "; kept %d %s: %s", len(k.names), k.what, listNames(k.names, 4))
			}
		}
		return b.String()
	})
}

// compressWeights is NNCF's data-free weight compression of the model's MatMul and Gather
// weights; a group size of 0 is NNCF's default for the mode.
func compressWeights(m *ir.Model, mode string, groupSize int, allLayers bool) (int, error) {
	return ir.CompressWeights(m, ir.WeightCompression{Mode: mode, GroupSize: groupSize, AllLayers: allLayers})
}

// saveCompressed saves the model to out and prints what was done (msg, built after saving).
// When n Consts were compressed (n > 0), OUT.bin keeps only the data the model's Consts use;
// otherwise it is a copy of the model's .bin, so that an unchanged model is written unchanged.
func saveCompressed(m *ir.Model, out string, n int, stdout io.Writer, msg func() string) error {
	if n > 0 {
		if err := m.CompactWeights(); err != nil {
			return err
		}
	}
	if err := saveModel(m, out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s\n", out, msg())
	return nil
}

// listNames quotes up to max names, then says how many more there are.
func listNames(names []string, max int) string {
	q := make([]string, 0, min(len(names), max))
	for _, n := range names[:min(len(names), max)] {
		q = append(q, fmt.Sprintf("%q", n))
	}
	s := strings.Join(q, ", ")
	if len(names) > max {
		s += fmt.Sprintf(" and %d more", len(names)-max)
	}
	return s
}

// count is "1 NOUN" or "N NOUNs".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
