package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/op"
)

func TestConvertAcceptance(t *testing.T) {
	cases := []cliCase{
		{"", []string{"convert", "--from", "f32", "--to", "f16", "1", "65520", "1e-8"}, 0, "1\t0x3c00\n+Inf\t0x7c00\n0\t0x0000\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "f8e4m3", "464", "465"}, 0, "448\t0x7e\nNaN\t0x7f\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "i8", "300", "-1e9", "nan"}, 0, "127\t0x7f\n-128\t0x80\n0\t0x00\n", ""},
		// Flags after the values; negative values are values, not flags.
		{"", []string{"convert", "-3.8", "-inf", "--from", "f64", "--to", "i16"}, 0, "-3\t0xfffd\n-32768\t0x8000\n", ""},
		// f16 prints the shortest decimal that reads back to the same bits.
		{"", []string{"convert", "--from", "f32", "--to", "f16", "0.1", "-0", "6e-8", "nan", "-inf"}, 0, "0.099975586\t0x2e66\n-0\t0x8000\n5.9604645e-08\t0x0001\nNaN\t0x7e00\n-Inf\t0xfc00\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "bf16", "--bits", "0x3F84C000"}, 0, "1.0390625\t0x3f85\n", ""},
		// Raw bits of the source: an f16 signalling NaN is quieted, payload kept (F16C).
		{"", []string{"convert", "--from", "f16", "--to", "f32", "--bits", "0x7c01", "0x3c00"}, 0, "NaN\t0x7fc02000\n1\t0x3f800000\n", ""},
		// Sub-byte destinations print the N-bit code; values are packed as one tensor.
		{"", []string{"convert", "--from", "f32", "--to", "u3", "-3.1", "7", "8"}, 0, "5\t0x5\n7\t0x7\n0\t0x0\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "u6", "-1"}, 0, "63\t0x3f\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "u2", "4.0", "3"}, 0, "0\t0x0\n3\t0x3\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "i4", "-3.1", "7.9", "8"}, 0, "-3\t0xd\n7\t0x7\n-8\t0x8\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "nf4", "0.08", "-2", "nan"}, 0, "0.0795803\t0x8\n-1\t0x0\n-1\t0x0\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "f4e2m1", "0.21875", "5", "-100"}, 0, "0\t0x0\n4\t0x6\n-6\t0xf\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "f8e8m0", "1.5", "3", "6", "-1"}, 0, "2\t0x80\n2\t0x80\n8\t0x82\n5.877472e-39\t0x00\n", ""},
		{"", []string{"convert", "--from", "u1", "--to", "f32", "--bits", "1", "0", "1"}, 0, "1\t0x3f800000\n0\t0x00000000\n1\t0x3f800000\n", ""},
		// Sources: integers parse as integers (u64 max is exact), true/false, booleans print true/false.
		{"", []string{"convert", "--from", "u64", "--to", "i64", "18446744073709551615"}, 0, "-1\t0xffffffffffffffff\n", ""},
		{"", []string{"convert", "--from", "i32", "--to", "f16", "70000", "-70000"}, 0, "65504\t0x7bff\n-65504\t0xfbff\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "boolean", "nan", "0", "-0", "true"}, 0, "true\t0x01\nfalse\t0x00\nfalse\t0x00\ntrue\t0x01\n", ""},
		{"", []string{"convert", "--from", "f64", "--to", "f32", "0.1", "1e39"}, 0, "0.1\t0x3dcccccd\n+Inf\t0x7f800000\n", ""},
		// A decimal is rounded once into an f32 source: just above the tie 1.25 + 2^-24.
		{"", []string{"convert", "--from", "f32", "--to", "f32", "1.25000005960464477539062500001"}, 0, "1.2500001\t0x3fa00001\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "f16", "inf", "-INF", "nan"}, 0, "+Inf\t0x7c00\n-Inf\t0xfc00\nNaN\t0x7e00\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "c64", "1.5"}, 0, "(1.5+0i)\t0x000000003fc00000\n", ""},
		{"", []string{"convert", "--from", "c128", "--to", "f32", "(2-3i)"}, 0, "2\t0x40000000\n", ""},
		// stdin.
		{"1\n\n-3.1\n", []string{"convert", "--from", "f32", "--to", "u8", "-"}, 0, "1\t0x01\n0\t0x00\n", ""},
		// Errors.
		{"", []string{"convert", "--from", "f32", "--to", "f16", "abc"}, 2, "", `"abc"`},
		// A decimal beyond the source type's finite range, however far, is out of range.
		{"", []string{"convert", "--from", "f32", "--to", "f16", "1", "1e39"}, 2, "", `value 2: value "1e39" is out of range: f32 holds magnitudes up to 3.4028235e+38`},
		{"", []string{"convert", "--from", "f32", "--to", "f16", "-1e400"}, 2, "", `value "-1e400" is out of range: f32 holds magnitudes up to`},
		{"", []string{"convert", "--from", "f64", "--to", "f32", "1e400"}, 2, "", `value "1e400" is out of range: f64 holds magnitudes up to 1.7976931348623157e+308`},
		{"1\n1e39\n", []string{"convert", "--from", "f32", "--to", "f16", "-"}, 2, "", `stdin line 2: value "1e39" is out of range`},
		{"", []string{"convert", "--from", "c64", "--to", "c128", "(1+1e39i)"}, 2, "", `value "(1+1e39i)" is out of range: f32 holds magnitudes up to`},
		{"", []string{"convert", "--from", "f33", "--to", "f16", "1"}, 2, "", "f33"},
		{"", []string{"convert", "--from", "f32", "--to", "string", "1"}, 2, "", "string"},
		{"", []string{"convert", "--from", "f32", "--to", "f16"}, 2, "", "no values"},
		{"", []string{"convert", "--to", "f16", "1"}, 2, "", "--from"},
		{"", []string{"convert", "--from", "f16", "--to", "f32", "--bits", "0x10000"}, 2, "", "16 bits"},
		{"", []string{"convert", "--from", "u3", "--to", "f32", "--bits", "0x8"}, 2, "", "3 bits"},
		{"", []string{"convert", "--from", "f16", "--to", "f32", "--bits", "zz"}, 2, "", `"zz"`},
		{"", []string{"convert", "--bogus", "--from", "f16", "--to", "f32", "1"}, 2, "", "bogus"},
	}
	checkCLICases(t, cases)
}

func TestConvertHelp(t *testing.T) {
	code, out, _ := cli(t, "", "convert", "-h")
	if code != 0 || !strings.Contains(out, "--from") && !strings.Contains(out, "-from") || !strings.Contains(out, "Examples:") {
		t.Errorf("convert -h: exit %d, output %q", code, out)
	}
	code, out, _ = cli(t, "", "help", "convert")
	if code != 0 || !strings.Contains(out, "convert --from TYPE --to TYPE") {
		t.Errorf("help convert: exit %d", code)
	}
}

// TestConvertSourceRange: a VALUE the --from integer type cannot hold is bad usage that names the
// value and the type's range; it is never wrapped or rounded into the type.
func TestConvertSourceRange(t *testing.T) {
	bad := []struct {
		from, value, want string
	}{
		{"i8", "300", `value "300" is out of range: i8 holds the integers -128..127`},
		{"i8", "-129", `value "-129" is out of range: i8 holds the integers -128..127`},
		{"u8", "-1", `value "-1" is out of range: u8 holds the integers 0..255`},
		{"u8", "256", `value "256" is out of range: u8 holds the integers 0..255`},
		{"i4", "8", `value "8" is out of range: i4 holds the integers -8..7`},
		{"u1", "2", `value "2" is out of range: u1 holds the integers 0..1`},
		{"u3", "-1", `value "-1" is out of range: u3 holds the integers 0..7`},
		{"u64", "18446744073709551616", `value "18446744073709551616" is out of range: u64 holds the integers 0..18446744073709551615`},
		{"u64", "-1", `out of range: u64 holds the integers 0..18446744073709551615`},
		{"i64", "9.3e18", `value "9.3e18" is out of range: i64 holds the integers -9223372036854775808..9223372036854775807`},
		{"i32", "inf", `value "inf" is out of range: i32`},
		{"i8", "1.5", `value "1.5" is not an integer; i8 holds the integers -128..127`},
		{"u16", "nan", `value "nan" is not an integer; u16 holds the integers 0..65535`},
		{"i8", "(1+2i)", `value "(1+2i)" is complex; i8 holds the integers -128..127`},
		{"boolean", "2", `value "2" is out of range: boolean holds true, false, 0 and 1`},
		// Float types: a decimal that rounds past the largest finite value in the type's own
		// precision, or that the library's reading (through f32, and f16 for the 8-bit floats)
		// makes infinite or NaN.
		{"f16", "65520", `value "65520" is out of range: f16 holds magnitudes up to 65504`},
		{"f16", "-1e5", `value "-1e5" is out of range: f16 holds magnitudes up to 65504`},
		{"bf16", "3.3962e38", `value "3.3962e38" is out of range: bf16 holds magnitudes up to 3.3895314e+38`},
		{"f8e4m3", "465", `value "465" is out of range: f8e4m3 holds magnitudes up to 448`},
		{"f8e5m2", "61439", `value "61439" is out of range: f8e5m2 holds magnitudes up to 57344`},
		{"f8e4m3fnuz", "248", `value "248" is out of range: f8e4m3fnuz holds magnitudes up to 240`},
		{"f8e8m0", "2.6e38", `value "2.6e38" is out of range: f8e8m0 holds magnitudes up to 1.7014118e+38`},
		{"f4e2m1", "7", `value "7" is out of range: f4e2m1 holds magnitudes up to 6`},
		{"f32", "3.40282357e38", `value "3.40282357e38" is out of range: f32 holds magnitudes up to 3.4028235e+38`},
		{"f64", "2e308", `value "2e308" is out of range: f64 holds magnitudes up to 1.7976931348623157e+308`},
		{"c32", "(65520-1i)", `value "(65520-1i)" is out of range: f16 holds magnitudes up to 65504`},
		{"c128", "(1e400+0i)", `value "(1e400+0i)" is out of range: f64 holds magnitudes up to`},
	}
	for _, c := range bad {
		code, out, errs := cli(t, "", "convert", "--from", c.from, "--to", "f64", c.value)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "convertpromote convert: ") || !strings.Contains(errs, c.want) {
			t.Errorf("--from %s %s: exit %d, stdout %q, stderr %q; want exit 2 naming %q", c.from, c.value, code, out, errs, c.want)
		}
	}
	// The ends of each range, and integers written as decimals, are held exactly.
	good := []struct {
		from  string
		value string
		out   string
	}{
		{"i8", "-128", "-128\t0xc060000000000000\n"},
		{"i8", "127", "127\t0x405fc00000000000\n"},
		{"u8", "255", "255\t0x406fe00000000000\n"},
		{"i4", "-8", "-8\t0xc020000000000000\n"},
		{"u64", "18446744073709551615", "1.8446744073709552e+19\t0x43f0000000000000\n"},
		{"i64", "-9223372036854775808", "-9.223372036854776e+18\t0xc3e0000000000000\n"},
		{"i16", "1e3", "1000\t0x408f400000000000\n"},
		{"u8", "-0", "0\t0x0000000000000000\n"},
		{"boolean", "1", "1\t0x3ff0000000000000\n"},
		{"u1", "true", "1\t0x3ff0000000000000\n"},
		// Just inside each float type's range: the decimal rounds to the largest finite value.
		{"f16", "65519.99", "65504\t0x40effc0000000000\n"},
		{"f8e4m3", "464", "448\t0x407c000000000000\n"}, // the tie goes to the even 448
		{"f4e2m1", "-6.9", "-6\t0xc018000000000000\n"},
		{"f32", "3.4028235e38", "3.4028234663852886e+38\t0x47efffffe0000000\n"},
		{"nf4", "-5", "-1\t0xbff0000000000000\n"}, // nf4 takes every decimal: the nearest code
		{"nf4", "1e400", "1\t0x3ff0000000000000\n"},
		{"nf4", "0.3", "0.33791524171829224\t0x3fd5a06740000000\n"},
		{"f16", "-inf", "-Inf\t0xfff0000000000000\n"},
	}
	for _, c := range good {
		code, out, errs := cli(t, "", "convert", "--from", c.from, "--to", "f64", c.value)
		if code != 0 || out != c.out {
			t.Errorf("--from %s %s: exit %d, stdout %q, stderr %q; want %q", c.from, c.value, code, out, errs, c.out)
		}
	}
}

// lineSource produces n values, one per line, as it is read, and counts the lines handed out.
type lineSource struct {
	n, given int
	pending  []byte
	out      *lineSink
	maxAhead int // the most lines given out but not yet written back
}

func (s *lineSource) Read(p []byte) (int, error) {
	if len(s.pending) == 0 {
		if s.given == s.n {
			return 0, io.EOF
		}
		s.pending = []byte(strconv.Itoa(s.given%300-150) + ".25\n")
		s.given++
		s.maxAhead = max(s.maxAhead, s.given-s.out.lines)
	}
	k := copy(p, s.pending)
	s.pending = s.pending[k:]
	return k, nil
}

// lineSink counts the lines written to it.
type lineSink struct{ lines int }

func (s *lineSink) Write(p []byte) (int, error) {
	s.lines += bytes.Count(p, []byte("\n"))
	return len(p), nil
}

// TestConvertStdinStreams: convert - writes as it reads, so the values held at once stay
// bounded however long stdin is.
func TestConvertStdinStreams(t *testing.T) {
	sink := &lineSink{}
	src := &lineSource{n: 10 * chunkLen, out: sink}
	var errb bytes.Buffer
	if code := runMain([]string{"convert", "--from", "f32", "--to", "u4", "-"}, src, sink, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if sink.lines != src.n {
		t.Fatalf("%d lines out for %d in", sink.lines, src.n)
	}
	if bound := 4 * chunkLen; src.maxAhead > bound {
		t.Errorf("up to %d values were read ahead of the output, want at most %d (of %d)", src.maxAhead, bound, src.n)
	}
}

// TestConvertStdinChunksAsOneTensor: values read in chunks print exactly as one tensor of all of
// them does, sub-byte destinations included, with blank lines skipped.
func TestConvertStdinChunksAsOneTensor(t *testing.T) {
	n := 2*chunkLen + 5
	vals := make([]float32, n)
	var in strings.Builder
	for i := range vals {
		vals[i] = float32(i%41-20) * 0.37
		fmt.Fprintf(&in, "%v\n", vals[i])
		if i%1000 == 999 {
			in.WriteString("\n  \n")
		}
	}
	src, err := op.FromFloat32([]int64{int64(n)}, vals)
	if err != nil {
		t.Fatal(err)
	}
	for _, to := range []element.Type{element.U3, element.I4, element.U1, element.F16} {
		dst, err := src.Convert(to)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := formatElements(dst)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Join(lines, "\n") + "\n"
		code, out, errs := cli(t, in.String(), "convert", "--from", "f32", "--to", to.String(), "-")
		if code != 0 || out != want {
			t.Errorf("--to %s: exit %d (%s); output differs from one tensor's", to, code, errs)
		}
	}
}

// TestConvertStdinBadLine: a bad value names its line on stdin.
func TestConvertStdinBadLine(t *testing.T) {
	var in strings.Builder
	for i := 0; i < chunkLen+10; i++ {
		in.WriteString("1\n")
	}
	in.WriteString("\nabc\n")
	code, out, errs := cli(t, in.String(), "convert", "--from", "f32", "--to", "i8", "-")
	want := fmt.Sprintf("convertpromote convert: stdin line %d: value \"abc\" is not a number\n", chunkLen+12)
	if code != 2 || errs != want {
		t.Errorf("exit %d, stderr %q; want exit 2, %q", code, errs, want)
	}
	if strings.Count(out, "\n") != chunkLen || !strings.HasPrefix(out, "1\t0x01\n") {
		t.Errorf("stdout has %d lines, want the %d of the chunks before the bad one", strings.Count(out, "\n"), chunkLen)
	}
}

// TestConvertRules: --rules, --saturate and --round-mode, with the examples the help gives, the
// FNUZ types, and the flags' errors.
func TestConvertRules(t *testing.T) {
	cases := []cliCase{
		{"", []string{"convert", "--rules", "onnx", "--from", "f32", "--to", "f8e4m3", "465"}, 0, "448\t0x7e\n", ""},
		{"", []string{"convert", "--rules", "onnx", "--saturate=false", "--from", "f32", "--to", "f8e4m3", "465"}, 0, "NaN\t0x7f\n", ""},
		{"", []string{"convert", "--rules", "onnx", "--from", "f32", "--to", "f8e4m3", "465", "--saturate=false"}, 0, "NaN\t0x7f\n", ""},
		{"", []string{"convert", "--rules", "ml_dtypes", "--bits", "--from", "f32", "--to", "f8e4m3", "0x3a8005f0"}, 0, "0.001953125\t0x01\n", ""},
		{"", []string{"convert", "--rules", "openvino", "--bits", "--from", "f32", "--to", "f8e4m3", "0x3a8005f0"}, 0, "0\t0x00\n", ""},
		{"", []string{"convert", "--rules", "onnx", "--round-mode", "down", "--from", "f32", "--to", "f8e8m0", "3", "0"}, 0, "2\t0x80\n5.877472e-39\t0x00\n", ""},
		{"", []string{"convert", "--rules", "onnx", "--saturate=false", "--round-mode", "nearest", "--from", "f32", "--to", "f8e8m0", "3", "0"}, 0, "4\t0x81\nNaN\t0xff\n", ""},
		{"", []string{"convert", "--rules", "ml_dtypes", "--from", "f32", "--to", "i8", "300", "-129.5"}, 0, "44\t0x2c\n127\t0x7f\n", ""},
		{"", []string{"convert", "--rules", "onnx", "--from", "i32", "--to", "f16", "70000"}, 0, "+Inf\t0x7c00\n", ""},
		// FNUZ: no negative zero, one NaN, ml_dtypes' rounding under every rule set.
		{"", []string{"convert", "--from", "f32", "--to", "f8e4m3fnuz", "-0", "240", "248", "nan"}, 0, "0\t0x00\n240\t0x7f\nNaN\t0x80\nNaN\t0x80\n", ""},
		{"", []string{"convert", "--rules", "onnx", "--from", "f32", "--to", "float8_e5m2fnuz", "1e6", "-1e6"}, 0, "57344\t0x7f\n-57344\t0xff\n", ""},
		{"", []string{"convert", "--from", "f8e5m2fnuz", "--to", "f32", "--bits", "0x80", "0xff"}, 0, "NaN\t0x7fc00000\n-57344\t0xc7600000\n", ""},
		// Errors.
		{"", []string{"convert", "--rules", "tflite", "--from", "f32", "--to", "f16", "1"}, 2, "", `unknown rule set "tflite"`},
		{"", []string{"convert", "--saturate=false", "--from", "f32", "--to", "f8e4m3", "1"}, 2, "", "--saturate is an attribute of ONNX's Cast"},
		{"", []string{"convert", "--rules", "ml_dtypes", "--round-mode", "up", "--from", "f32", "--to", "f8e8m0", "1"}, 2, "", "--round-mode is an attribute of ONNX's Cast"},
		{"", []string{"convert", "--rules", "onnx", "--round-mode", "ceil", "--from", "f32", "--to", "f8e8m0", "1"}, 2, "", `unknown f8e8m0 round mode "ceil"`},
	}
	checkCLICases(t, cases)
}

// TestConvertStdinLongLines: a line of up to maxLineBytes (newline included) is read like any
// other; a longer one is bad usage naming its line, after the chunks before it are printed.
func TestConvertStdinLongLines(t *testing.T) {
	pad := strings.Repeat(" ", maxLineBytes-len("1.5\n"))
	code, out, errs := cli(t, "2\n"+pad+"1.5\n3\n", "convert", "--from", "f32", "--to", "f16", "-")
	if code != 0 || out != "2\t0x4000\n1.5\t0x3e00\n3\t0x4200\n" {
		t.Errorf("a line of %d bytes: exit %d, %q %q", maxLineBytes, code, out, errs)
	}
	// 100 000 digits: a long decimal is a number like any other.
	code, out, errs = cli(t, "0."+strings.Repeat("0", 100000)+"1\n", "convert", "--from", "f64", "--to", "f64", "-")
	if code != 0 || out != "0\t0x0000000000000000\n" {
		t.Errorf("a decimal of 100002 digits: exit %d, %q %q", code, out, errs)
	}
	var in strings.Builder
	for range chunkLen {
		in.WriteString("1\n")
	}
	in.WriteString("1\n" + strings.Repeat("1", maxLineBytes) + "\n1\n")
	code, out, errs = cli(t, in.String(), "convert", "--from", "f32", "--to", "u8", "-")
	want := fmt.Sprintf("convertpromote convert: stdin line %d: longer than %d bytes (a line holds one VALUE)\n", chunkLen+2, maxLineBytes)
	if code != 2 || errs != want {
		t.Errorf("a line of %d bytes: exit %d, stderr %q; want exit 2, %q", maxLineBytes+1, code, errs, want)
	}
	if strings.Count(out, "\n") != chunkLen {
		t.Errorf("stdout has %d lines, want the %d of the chunk before the long line", strings.Count(out, "\n"), chunkLen)
	}
}

// TestConvertStdinChunkBytes: a chunk ends early, at a multiple of 8 values, once its values
// hold chunkBytes, and the output stays that of one tensor.
func TestConvertStdinChunkBytes(t *testing.T) {
	// A long value is 40 KiB of digits.
	long := "0." + strings.Repeat("0", 40<<10) + "1" // 1e-40961, which is 0 in f32
	n := 3*(chunkBytes/len(long)) + 20               // a third of them long: a little more than chunkBytes
	var in strings.Builder
	for i := range n {
		if i%3 == 0 {
			in.WriteString(long + "\n")
		} else {
			fmt.Fprintf(&in, "%d\n", i%8)
		}
	}
	src := stdinChunks(strings.NewReader(in.String()))
	total, chunks := 0, 0
	for {
		words, _, err := src()
		if err != nil {
			t.Fatal(err)
		}
		if len(words) == 0 {
			break
		}
		size := 0
		for _, w := range words {
			size += len(w)
		}
		if len(words)%8 != 0 && total+len(words) != n || size > chunkBytes+8*maxLineBytes {
			t.Errorf("a chunk of %d values and %d bytes", len(words), size)
		}
		total += len(words)
		chunks++
	}
	if total != n || chunks < 2 {
		t.Errorf("%d values read in %d chunks, want %d in more than one", total, chunks, n)
	}
	code, out, errs := cli(t, in.String(), "convert", "--from", "f32", "--to", "u3", "-")
	if code != 0 || strings.Count(out, "\n") != n || !strings.HasPrefix(out, "0\t0x0\n1\t0x1\n2\t0x2\n0\t0x0\n") {
		t.Errorf("exit %d (%s); %d lines, want %d", code, errs, strings.Count(out, "\n"), n)
	}
}
