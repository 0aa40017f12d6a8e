package main

import "testing"

func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{
		"4GiB": 4 << 30, "4gib": 4 << 30, "4G": 4 << 30, "4GB": 4e9, "1.5GiB": 3 << 29, "512MiB": 512 << 20,
		"100MB": 100e6, "1000000": 1e6, "64 KiB": 64 << 10, "3B": 3, "1T": 1 << 40, "0.5k": 512,
	} {
		if got, err := parseSize(s); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "GiB", "0", "-1G", "4XB", "NaN", "Inf", "1e30GiB", "4 G i B"} {
		if got, err := parseSize(s); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", s, got)
		}
	}
}

func TestSuggestSize(t *testing.T) {
	for n, want := range map[int64]string{1: "1MiB", 1 << 20: "1MiB", 1<<20 + 1: "2MiB", 1 << 30: "1GiB",
		2<<30 + 2: "3GiB", 1<<63 - 1: "8589934591GiB"} {
		if got := suggestSize(n); got != want {
			t.Errorf("suggestSize(%d) = %q, want %q", n, got, want)
		}
	}
}
