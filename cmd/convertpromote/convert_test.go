package main

import (
	"strings"
	"testing"
)

func TestConvertAcceptance(t *testing.T) {
	cases := []struct {
		stdin string
		args  []string
		code  int
		out   string // exact stdout when code is 0
		err   string // substring of stderr otherwise
	}{
		{"", []string{"convert", "--from", "f32", "--to", "f16", "1", "65520", "1e-8"}, 0, "1\t0x3c00\n+Inf\t0x7c00\n0\t0x0000\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "f8e4m3", "464", "465"}, 0, "448\t0x7e\nNaN\t0x7f\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "i8", "300", "-1e9", "nan"}, 0, "127\t0x7f\n-128\t0x80\n0\t0x00\n", ""},
		// Flags after the values; negative values are values, not flags.
		{"", []string{"convert", "-3.8", "-inf", "--from", "f64", "--to", "i16"}, 0, "-3\t0xfffd\n-32768\t0x8000\n", ""},
		// f16 prints the shortest decimal that reads back to the same bits.
		{"", []string{"convert", "--from", "f32", "--to", "f16", "0.1", "-0", "6e-8", "nan", "-inf"}, 0, "0.1\t0x2e66\n-0\t0x8000\n6e-08\t0x0001\nNaN\t0x7e00\n-Inf\t0xfc00\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "bf16", "--bits", "0x3F84C000"}, 0, "1.04\t0x3f85\n", ""},
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
		{"", []string{"convert", "--from", "i32", "--to", "f16", "70000", "-70000"}, 0, "65500\t0x7bff\n-65500\t0xfbff\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "boolean", "nan", "0", "-0", "true"}, 0, "true\t0x01\nfalse\t0x00\nfalse\t0x00\ntrue\t0x01\n", ""},
		{"", []string{"convert", "--from", "f64", "--to", "f32", "0.1", "1e39"}, 0, "0.1\t0x3dcccccd\n+Inf\t0x7f800000\n", ""},
		{"", []string{"convert", "--from", "f32", "--to", "c64", "1.5"}, 0, "(1.5+0i)\t0x000000003fc00000\n", ""},
		{"", []string{"convert", "--from", "c128", "--to", "f32", "(2-3i)"}, 0, "2\t0x40000000\n", ""},
		// stdin.
		{"1\n\n-3.1\n", []string{"convert", "--from", "f32", "--to", "u8", "-"}, 0, "1\t0x01\n0\t0x00\n", ""},
		// Errors.
		{"", []string{"convert", "--from", "f32", "--to", "f16", "abc"}, 2, "", `"abc"`},
		{"", []string{"convert", "--from", "f33", "--to", "f16", "1"}, 2, "", "f33"},
		{"", []string{"convert", "--from", "f32", "--to", "string", "1"}, 2, "", "string"},
		{"", []string{"convert", "--from", "f32", "--to", "f16"}, 2, "", "no values"},
		{"", []string{"convert", "--to", "f16", "1"}, 2, "", "--from"},
		{"", []string{"convert", "--from", "f16", "--to", "f32", "--bits", "0x10000"}, 2, "", "16 bits"},
		{"", []string{"convert", "--from", "u3", "--to", "f32", "--bits", "0x8"}, 2, "", "3 bits"},
		{"", []string{"convert", "--from", "f16", "--to", "f32", "--bits", "zz"}, 2, "", `"zz"`},
		{"", []string{"convert", "--bogus", "--from", "f16", "--to", "f32", "1"}, 2, "", "bogus"},
	}
	for _, c := range cases {
		code, out, errs := cli(t, c.stdin, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, errs)
			continue
		}
		if c.code == 0 && out != c.out {
			t.Errorf("%v: stdout\n%q\nwant\n%q", c.args, out, c.out)
		}
		if c.code != 0 && !strings.Contains(errs, c.err) {
			t.Errorf("%v: stderr %q does not mention %q", c.args, errs, c.err)
		}
	}
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

// TestConvertRules: --rules, --saturate and --round-mode, with the examples the help gives, the
// FNUZ types, and the flags' errors.
func TestConvertRules(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string // exact stdout when code is 0
		err  string // substring of stderr otherwise
	}{
		{[]string{"convert", "--rules", "onnx", "--from", "f32", "--to", "f8e4m3", "465"}, 0, "448\t0x7e\n", ""},
		{[]string{"convert", "--rules", "onnx", "--saturate=false", "--from", "f32", "--to", "f8e4m3", "465"}, 0, "NaN\t0x7f\n", ""},
		{[]string{"convert", "--rules", "onnx", "--from", "f32", "--to", "f8e4m3", "465", "--saturate=false"}, 0, "NaN\t0x7f\n", ""},
		{[]string{"convert", "--rules", "ml_dtypes", "--bits", "--from", "f32", "--to", "f8e4m3", "0x3a8005f0"}, 0, "0.001953125\t0x01\n", ""},
		{[]string{"convert", "--rules", "openvino", "--bits", "--from", "f32", "--to", "f8e4m3", "0x3a8005f0"}, 0, "0\t0x00\n", ""},
		{[]string{"convert", "--rules", "onnx", "--round-mode", "down", "--from", "f32", "--to", "f8e8m0", "3", "0"}, 0, "2\t0x80\n5.877472e-39\t0x00\n", ""},
		{[]string{"convert", "--rules", "onnx", "--saturate=false", "--round-mode", "nearest", "--from", "f32", "--to", "f8e8m0", "3", "0"}, 0, "4\t0x81\nNaN\t0xff\n", ""},
		{[]string{"convert", "--rules", "ml_dtypes", "--from", "f32", "--to", "i8", "300", "-129.5"}, 0, "44\t0x2c\n127\t0x7f\n", ""},
		{[]string{"convert", "--rules", "onnx", "--from", "i32", "--to", "f16", "70000"}, 0, "+Inf\t0x7c00\n", ""},
		// FNUZ: no negative zero, one NaN, ml_dtypes' rounding under every rule set.
		{[]string{"convert", "--from", "f32", "--to", "f8e4m3fnuz", "-0", "240", "248", "nan"}, 0, "0\t0x00\n240\t0x7f\nNaN\t0x80\nNaN\t0x80\n", ""},
		{[]string{"convert", "--rules", "onnx", "--from", "f32", "--to", "float8_e5m2fnuz", "1e6", "-1e6"}, 0, "57344\t0x7f\n-57344\t0xff\n", ""},
		{[]string{"convert", "--from", "f8e5m2fnuz", "--to", "f32", "--bits", "0x80", "0xff"}, 0, "NaN\t0x7fc00000\n-57344\t0xc7600000\n", ""},
		// Errors.
		{[]string{"convert", "--rules", "tflite", "--from", "f32", "--to", "f16", "1"}, 2, "", `unknown rule set "tflite"`},
		{[]string{"convert", "--saturate=false", "--from", "f32", "--to", "f8e4m3", "1"}, 2, "", "--saturate is an attribute of ONNX's Cast"},
		{[]string{"convert", "--rules", "ml_dtypes", "--round-mode", "up", "--from", "f32", "--to", "f8e8m0", "1"}, 2, "", "--round-mode is an attribute of ONNX's Cast"},
		{[]string{"convert", "--rules", "onnx", "--round-mode", "ceil", "--from", "f32", "--to", "f8e8m0", "1"}, 2, "", `unknown f8e8m0 round mode "ceil"`},
	}
	for _, c := range cases {
		code, out, errs := cli(t, "", c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, errs)
			continue
		}
		if c.code == 0 && out != c.out {
			t.Errorf("%v: stdout %q, want %q", c.args, out, c.out)
		}
		if c.code != 0 && !strings.Contains(errs, c.err) {
			t.Errorf("%v: stderr %q, want it to contain %q", c.args, errs, c.err)
		}
	}
}
