package kernels

import (
	"os"
	"strconv"
	"strings"
)

// ntMinBytes returns the conversion size (bytes read plus bytes written) from which the amd64
// kernels with non-temporal stores take over (twice it for a destination larger than its
// source; see streams), and half the size from which the default thread policy splits a
// conversion (splitMin): half the size of the last-level cache that cpu0 reports in sysfs
// (Linux), counted as at most cacheShareBytes for each CPU that shares it (shared_cpu_list),
// clamped to [4 MiB, 128 MiB], or 16 MiB where it reports none. sysfs is the root of /sys (a
// variable for the tests). Below it, source and destination can stay in the cache between calls
// and ordinary stores leave the result there for its reader; above it, non-temporal stores save
// the destination's read-for-ownership and keep the source cached. Where the line lies depends
// on what else uses the cache, so it is a compromise; the measurements it rests on are in
// docs/perf/README.md ("Non-temporal stores and the cache size", "The default thread policy").
func ntMinBytes(sysfs string) int64 {
	const fallback, lo, hi = 16 << 20, 4 << 20, 128 << 20
	best, level, sharers := int64(0), 0, 0
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
			list, err := readSmall(dir + "shared_cpu_list")
			sharers = 0
			if err == nil {
				sharers = countCPUs(list)
			}
		}
	}
	if best <= 0 {
		return fallback
	}
	if sharers > 0 {
		best = min(best, int64(sharers)*cacheShareBytes)
	}
	return min(max(best/2, lo), hi)
}

// cacheShareBytes bounds the last-level cache counted for each CPU that shares it. A virtual
// machine is shown the whole socket's cache (hundreds of MiB) beside its few CPUs, which use about
// their share of it; counted whole, it would keep conversions that no longer fit the VM's share on
// one goroutine and off non-temporal stores. 16 MiB a CPU is more than the L3 per core of current
// server CPUs, so on bare metal, where all of a cache's sharers are listed, the bound never
// lowers the size the CPU reports.
const cacheShareBytes = 16 << 20

// countCPUs counts the CPUs of a sysfs CPU list such as "0-3,8,10-11"; it returns 0 for a list
// it cannot read.
func countCPUs(list string) int {
	n := 0
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a || b-a >= 1<<16 {
			return 0
		}
		n += b - a + 1
	}
	return n
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
