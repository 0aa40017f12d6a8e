package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the unit suffixes parseSize accepts (case-insensitive): K, M, G, T and KiB,
// MiB, GiB, TiB are powers of 1024; KB, MB, GB, TB powers of 1000; B or nothing is bytes.
var sizeUnits = []struct {
	suffix string
	scale  float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// parseSize reads a positive byte count with an optional unit: "4GiB", "1.5G", "512MB",
// "1000000".
func parseSize(s string) (int64, error) {
	num := strings.TrimSpace(s)
	scale := 1.0
	lower := strings.ToLower(num)
	for _, u := range sizeUnits {
		if strings.HasSuffix(lower, u.suffix) {
			num, scale = strings.TrimSpace(num[:len(num)-len(u.suffix)]), u.scale
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || v <= 0 {
		return 0, fmt.Errorf("%q is not a size: want a positive number of bytes, with an optional unit (4GiB, 512MiB, 1G, 100MB)", s)
	}
	b := math.Ceil(v * scale)
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is larger than %d bytes", s, int64(math.MaxInt64))
	}
	return int64(b), nil
}

// sizeFlag is a flag.Value holding a byte count given with parseSize's units.
type sizeFlag struct{ n *int64 }

func (f sizeFlag) String() string {
	if f.n == nil {
		return ""
	}
	switch n := *f.n; {
	case n > 0 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n > 0 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	default:
		return strconv.FormatInt(n, 10)
	}
}

func (f sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*f.n = n
	return nil
}
