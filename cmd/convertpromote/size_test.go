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
