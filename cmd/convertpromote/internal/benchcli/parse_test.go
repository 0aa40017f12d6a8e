package benchcli

import (
	"slices"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

func TestParseSize(t *testing.T) {
	good := map[string]int{
		"1": 1, "1000": 1000, "1Ki": 1024, "16Ki": 16384, "256Ki": 262144, "4Mi": 4194304,
		"64Mi": 67108864, "1Gi": 1073741824, " 3Ki ": 3072, "1024Gi": 1 << 40,
	}
	for s, want := range good {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"0", "0Ki", "-1", "-16Ki", "", "Ki", "1.5Ki", "1K", "1k", "1KiB", "1Ti", "abc", "1025Gi", "99999999999999999999"} {
		if got, err := ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", s, got)
		} else if !strings.Contains(err.Error(), "size") {
			t.Errorf("ParseSize(%q) error %q does not say it is about a size", s, err)
		}
	}
}

func TestParseSizes(t *testing.T) {
	got, err := ParseSizes("1Ki,16Ki,1024,4Mi")
	if err != nil || !slices.Equal(got, []int{1024, 16384, 4 << 20}) {
		t.Errorf("ParseSizes = %v, %v; want [1024 16384 4194304] (repeats dropped)", got, err)
	}
	if _, err := ParseSizes("1Ki,,2Ki"); err == nil {
		t.Error("an empty size in the list passed")
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int]string{1: "1", 1000: "1000", 1024: "1Ki", 1536: "1536", 16384: "16Ki",
		1 << 20: "1Mi", 3 << 20: "3Mi", 1 << 30: "1Gi", 1<<30 + 1024: "1048577Ki"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
		if back, err := ParseSize(FormatSize(n)); err != nil || back != n {
			t.Errorf("ParseSize(FormatSize(%d)) = %d, %v", n, back, err)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for b, want := range map[int64]string{0: "0 B", 1000: "1000 B", 1024: "1 KiB", 1536: "1.5 KiB",
		98304: "96 KiB", 384 << 20: "384 MiB", 4 << 30: "4 GiB"} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", b, got, want)
		}
	}
}

func TestParsePairErrors(t *testing.T) {
	for s, wantIn := range map[string]string{
		"f32":        `"f32"`,
		"f32:f99":    "f99",
		"q8:f32":     "q8",
		"f32:string": "not supported",
		"":           "FROM:TO",
	} {
		_, err := ParsePair(s)
		if err == nil || !strings.Contains(err.Error(), wantIn) {
			t.Errorf("ParsePair(%q) error %v, want one mentioning %s", s, err, wantIn)
		}
	}
}

func TestParsePairs(t *testing.T) {
	if !kernels.Supported(element.F32, element.F16) {
		t.Skip("kernels has no pure-Go conversions yet: every pair is unsupported")
	}
	got, err := ParsePairs("f32:f16, FP16:FP32,f32:f16,i8:f32")
	want := []Pair{{From: element.F32, To: element.F16}, {From: element.F16, To: element.F32}, {From: element.I8, To: element.F32}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ParsePairs = %v, %v; want %v", got, err, want)
	}
	if got[1].String() != "f16:f32" {
		t.Errorf("String = %q, want canonical f16:f32", got[1].String())
	}
}

func TestParseThreads(t *testing.T) {
	got, err := ParseThreads("1, 2,1,8,0")
	if err != nil || !slices.Equal(got, []int{1, 2, 8, 0}) {
		t.Errorf("ParseThreads = %v, %v", got, err)
	}
	for _, s := range []string{"-1", "x", "", "1,", "1025"} {
		if _, err := ParseThreads(s); err == nil {
			t.Errorf("ParseThreads(%q): no error", s)
		}
	}
}

func TestParseBlockPair(t *testing.T) {
	for s, want := range map[string]Pair{
		"mxfp4:f32":     {From: element.F4E2M1, To: element.F32, Block: quant.MXFP4},
		"f32:mxfp4":     {From: element.F32, To: element.F4E2M1, Block: quant.MXFP4},
		"NVFP4:bf16":    {From: element.F4E2M1, To: element.BF16, Block: quant.NVFP4},
		"f16:mxfp8e5m2": {From: element.F16, To: element.F8E5M2, Block: quant.MXFP8E5M2},
		"mxfp8e4m3:f16": {From: element.F8E4M3, To: element.F16, Block: quant.MXFP8E4M3},
	} {
		p, err := ParsePair(s)
		if err != nil || p != want {
			t.Errorf("ParsePair(%q) = %+v, %v; want %+v", s, p, err, want)
		}
		if got := p.String(); !strings.EqualFold(got, s) {
			t.Errorf("%+v.String() = %q, want %q", p, got, s)
		}
	}
}
