package main

import (
	"strings"
	"testing"
)

func TestBlockCommand(t *testing.T) {
	cases := []cliCase{
		{"", []string{"block", "--format", "mxfp4", "--scale", "0x80", "0x1", "0x7", "0xf"}, 0,
			"# mxfp4: f4e2m1 elements, f8e8m0 scale, block of 32; scale 0x80 = 2\n# code\telement\t× scale\tf32\tbits\n" +
				"0x1\t0.5\t1\t1\t0x3f800000\n0x7\t6\t12\t12\t0x41400000\n0xf\t-6\t-12\t-12\t0xc1400000\n", ""},
		// NVFP4's f8e4m3 scale 0x3c is 1.5; bf16 output.
		{"", []string{"block", "--format", "nvfp4", "--to", "bf16", "--scale", "0x3c", "0x3", "0x5"}, 0,
			"# nvfp4: f4e2m1 elements, f8e4m3 scale, block of 16; scale 0x3c = 1.5\n# code\telement\t× scale\tbf16\tbits\n" +
				"0x3\t1.5\t2.25\t2.25\t0x4010\n0x5\t3\t4.5\t4.5\t0x4090\n", ""},
		// amax 7: scale 2^(2-2) = 1; 2.5 ties to 2, 7 clamps to 6.
		{"", []string{"block", "--quantize", "0.3", "-1", "2.5", "7"}, 0,
			"# mxfp4: f4e2m1 elements, f8e8m0 scale, block of 32; scale 0x7f = 1\n# value\tcode\telement\t× scale\tf32\tbits\n" +
				"0.3\t0x1\t0.5\t0.5\t0.5\t0x3f000000\n-1\t0xa\t-1\t-1\t-1\t0xbf800000\n2.5\t0x4\t2\t2\t2\t0x40000000\n7\t0x7\t6\t6\t6\t0x40c00000\n", ""},
		// A product beyond f16 is +Inf; a NaN scale makes the block NaN. The element 448 and the
		// scale 2^17 = 131072 print exactly, as every value does; the product is exact.
		{"", []string{"block", "--format", "mxfp8e4m3", "--to", "f16", "--scale", "0x90", "0x7e"}, 0,
			"# mxfp8e4m3: f8e4m3 elements, f8e8m0 scale, block of 32; scale 0x90 = 131072\n# code\telement\t× scale\tf16\tbits\n" +
				"0x7e\t448\t5.8720256e+07\t+Inf\t0x7c00\n", ""},
		{"", []string{"block", "--scale", "0xff", "0x2"}, 0,
			"# mxfp4: f4e2m1 elements, f8e8m0 scale, block of 32; scale 0xff = NaN\n# code\telement\t× scale\tf32\tbits\n" +
				"0x2\t1\tNaN\tNaN\t0x7fc00000\n", ""},
		{"", []string{"block", "--format", "mxfp6", "--scale", "0x7f", "0x1"}, 2, "", "mxfp6"},
		// NNCF's mxfp4 subgraph computes in f16, where the scale 2^17 is +Inf; the block format
		// mxfp4 computes in f32.
		{"", []string{"block", "--format", "mxfp4/32", "--scale", "0x90", "0x1", "0x9"}, 0,
			"# mxfp4/32: f4e2m1 elements, f8e8m0 scale, block of 32; scale 0x90 = 131072\n# code\telement\t× scale\tf32\tbits\n" +
				"0x1\t0.5\t65536\t+Inf\t0x7f800000\n0x9\t-0.5\t-65536\t-Inf\t0xff800000\n", ""},
		{"", []string{"block", "--format", "mxfp4", "--scale", "0x90", "0x1"}, 0,
			"# mxfp4: f4e2m1 elements, f8e8m0 scale, block of 32; scale 0x90 = 131072\n# code\telement\t× scale\tf32\tbits\n" +
				"0x1\t0.5\t65536\t65536\t0x47800000\n", ""},
		{"", []string{"block", "--format", "int4_asym/128", "--scale", "0x3c", "0x1"}, 2, "", "no zero point"},
		{"", []string{"block", "--format", "u4/f16/32", "--scale", "0x3c", "0x1"}, 2, "", "one-byte scale"},
		{"", []string{"block", "--to", "f64", "--scale", "0x7f", "0x1"}, 2, "", "f32, f16 or bf16"},
		{"", []string{"block", "--scale", "0x7f", "0x10"}, 2, "", "4 bits"},
		{"", []string{"block", "--scale", "0x100", "0x1"}, 2, "", "8 bits"},
		{"", []string{"block", "--scale", "0x7f"}, 2, "", "no codes"},
		{"", []string{"block", "0x1"}, 2, "", "--scale is required"},
		{"", []string{"block", "--quantize", "--scale", "0x7f", "1"}, 2, "", "exclude"},
		{"", []string{"block", "--quantize", "abc"}, 2, "", `"abc"`},
		// A VALUE is rounded once, to the nearest float32: this decimal lies just above the tie
		// 1.25 + 2^-24, so it is 0x3fa00001, above the f4e2m1 tie 1.25, and quantizes to 1.5.
		{"", []string{"block", "--quantize", "4", "1.25000005960464477539062500001"}, 0,
			"# mxfp4: f4e2m1 elements, f8e8m0 scale, block of 32; scale 0x7f = 1\n# value\tcode\telement\t× scale\tf32\tbits\n" +
				"4\t0x6\t4\t4\t4\t0x40800000\n1.2500001\t0x3\t1.5\t1.5\t1.5\t0x3fc00000\n", ""},
		// A decimal beyond float32's range is out of range, however far beyond; the words are not.
		{"", []string{"block", "--quantize", "1", "1e39"}, 2, "", `value "1e39" is out of range: f32 holds magnitudes up to 3.4028235e+38`},
		{"", []string{"block", "--quantize", "-1e400"}, 2, "", `value "-1e400" is out of range: f32 holds magnitudes up to 3.4028235e+38`},

		{"", []string{"block", "--format", "nvfp4", "--scale", "0x38", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1"}, 2, "", "at most 16"},
	}
	checkCLICases(t, cases)
}

// TestBlockQuantizeRange: the largest float32 and the words inf, -inf and nan are values;
// only a decimal beyond float32's range is out of range.
func TestBlockQuantizeRange(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"3.4028235e38", "1"}, "\n3.4028235e+38\t0x7\t"},
		{[]string{"-inf", "1"}, "\n-Inf\t0x"},
		{[]string{"nan"}, "\nNaN\t0x"},
	} {
		code, out, errs := cli(t, "", append([]string{"block", "--quantize"}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("block --quantize %q: exit %d, %q %q; want %q in the output", c.args, code, out, errs, c.want)
		}
	}
}
