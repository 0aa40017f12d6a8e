package kernels

import (
	"os"
	"strconv"
	"strings"
)

// ntMinBytes returns the conversion size (bytes read plus bytes written) from which the amd64
// kernels with non-temporal stores take over (twice it for a destination larger than its
// source; see streams): half the size of the last-level cache that cpu0
// reports in sysfs (Linux), clamped to [4 MiB, 128 MiB], or 16 MiB where it reports none. sysfs
// is the root of /sys (a variable for the tests). Below it, source and destination can stay in
// the cache between calls and ordinary stores leave the result there for its reader; above it,
// non-temporal stores save the destination's read-for-ownership and keep the source cached.
// Where the line lies depends on what else uses the cache, so it is a compromise; the
// measurements it rests on are in docs/perf/README.md ("Non-temporal stores and the cache
// size").
func ntMinBytes(sysfs string) int64 {
	const fallback, lo, hi = 16 << 20, 4 << 20, 128 << 20
	best, level := int64(0), 0
	for i := range 8 {
		dir := sysfs + "/devices/system/cpu/cpu0/cache/index" + strconv.Itoa(i) + "/"
		lv, err1 := readSmall(dir + "level")
		ty, err2 := readSmall(dir + "type")
		sz, err3 := readSmall(dir + "size")
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		l, err := strconv.Atoi(lv)
		b := parseCacheSize(sz)
		if err != nil || b <= 0 || ty == "Instruction" {
			continue
		}
		if l > level || (l == level && b > best) {
			best, level = b, l
		}
	}
	if best <= 0 {
		return fallback
	}
	return min(max(best/2, lo), hi)
}

// readSmall returns a sysfs attribute's value, trimmed.
func readSmall(path string) (string, error) {
	b, err := os.ReadFile(path)
	return strings.TrimSpace(string(b)), err
}

// parseCacheSize reads a sysfs cache size such as "32768K", "1M" or "512": bytes, or -1.
func parseCacheSize(s string) int64 {
	mul := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mul, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mul, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mul, s = 1<<30, s[:len(s)-1]
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || v > 1<<40/mul {
		return -1
	}
	return v * mul
}
