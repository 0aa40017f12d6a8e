package kernels

import (
	"math/bits"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// ntMinBytes returns the conversion size (bytes read plus bytes written) from which the amd64
// kernels with non-temporal stores take over (twice it for a destination larger than its
// source; see streams): half the cache share that cacheShare finds in sysfs (Linux) for the
// CPUs this process may run on, clamped to [4 MiB, 64 MiB], or 16 MiB where sysfs reports no
// cache. sysfs is the root of /sys (a variable for the tests). Below it, source and destination
// can stay in the cache between calls and ordinary stores leave the result there for its
// reader; above it, non-temporal stores save the destination's read-for-ownership and keep the
// source cached. Where the line lies depends on what else uses the cache, so it is a
// compromise; the measurements it rests on are in docs/perf/README.md ("Non-temporal stores and
// the cache size", "The thread default on virtual machines").
func ntMinBytes(sysfs string) int64 {
	return ntMinFor(cacheShare(sysfs, runtime.NumCPU()))
}

// ntMinFor is ntMinBytes for a cache share of share bytes (0: none reported). The upper clamp
// holds whatever sysfs reports, an L2 of any size included: the default thread policy splits
// from twice this size (splitMin), so a conversion of 128 MiB of traffic or more is split on
// every machine with a second core. A share beyond 128 MiB belongs to a part with dozens of
// cores or to a VM's host, whose other cores' work leaves little chance that one conversion's
// data stays in the cache.
func ntMinFor(share int64) int64 {
	const fallback, lo, hi = 16 << 20, 4 << 20, 64 << 20
	if share <= 0 {
		return fallback
	}
	return min(max(share/2, lo), hi)
}

// llcPerL2 bounds the last-level cache that one core can count on, as a multiple of its L2.
//
// Why a bound at all: a virtual machine's sysfs reports the host socket's whole L3 and lists
// only the VM's own vCPUs as sharing it, while the host's other cores, which run other tenants,
// use the same cache. Taken at its word, a few hundred MiB of L3 on two vCPUs kept conversions
// that come from memory on one goroutine, where a second core nearly doubles the speed. No
// sysfs file tells how many cores the host shares the cache among, so the bound comes from the
// core's own L2, which a VM reports as it is: a real core's share of the L3 is a few times its
// L2 (Zen 4: 4 MiB of L3 a core beside 1 MiB of L2; Sapphire Rapids: about 1.9 MiB beside
// 2 MiB).
//
// Why 16 and not 4: a split that fits in the cache loses to one goroutine (the helper's start
// and join, and a core that alone draws most of the cache's bandwidth), so a bound below the
// cache that is really there makes the default slower than one goroutine; 16 leaves the whole
// L3 to a VM whose L3 is a single CCD's (32 MiB, 1 MiB of L2 a core, two vCPUs), where splits
// within that size lost (docs/perf/README.md §17). Parts with stacked cache (X3D), whose cores
// get 12 times their L2 or more, split from less than their cache; the check of each split
// against one goroutine's speed (splitStats.paid) limits what that costs.
const llcPerL2 = 16

// cacheShare returns the bytes of last-level cache that the CPUs this process may run on can
// count on: the largest data or unified cache of the highest level that cpu0 reports under
// sysfs, bounded, when it is an L3 or higher and cpu0 reports an L2, by llcPerL2 times the L2
// for each L2 among the CPUs that share it, at most ncpu of them (runtime.NumCPU: the CPUs of
// the process's affinity mask). A cache that does not list the CPUs sharing it is taken as
// shared by all ncpu; an L2 that does not, as private to one. It returns 0 where sysfs reports
// no cache.
func cacheShare(sysfs string, ncpu int) int64 {
	var llc, l2 sysCache
	for i := range 8 {
		c, ok := readCache(sysfs + "/devices/system/cpu/cpu0/cache/index" + strconv.Itoa(i) + "/")
		if !ok {
			continue
		}
		if c.level > llc.level || (c.level == llc.level && c.size > llc.size) {
			llc = c
		}
		if c.level == 2 && c.size > l2.size {
			l2 = c
		}
	}
	if llc.size <= 0 || llc.level < 3 || l2.size <= 0 {
		return max(llc.size, 0)
	}
	cpus := max(ncpu, 1)
	if llc.sharers > 0 {
		cpus = min(cpus, llc.sharers)
	}
	per := max(l2.sharers, 1) // an L2 shared by SMT siblings counts once
	cores := int64((cpus + per - 1) / per)
	// llc.size ≤ 1 TiB (parseCacheSize), so the bound is computed without overflow.
	if perCore := llcPerL2 * l2.size; perCore < llc.size/cores {
		return perCore * cores
	}
	return llc.size
}

// sysCache is one cache that sysfs describes: its level, size in bytes and the number of CPUs
// that share it (0 where sysfs does not say).
type sysCache struct {
	level   int
	size    int64
	sharers int
}

// readCache reads the sysfs cache directory dir (ending in "/"); ok is false for an instruction
// cache or one whose level or size is missing or unreadable.
func readCache(dir string) (c sysCache, ok bool) {
	lv, err1 := readSmall(dir + "level")
	ty, err2 := readSmall(dir + "type")
	sz, err3 := readSmall(dir + "size")
	if err1 != nil || err2 != nil || err3 != nil || ty == "Instruction" {
		return c, false
	}
	l, err := strconv.Atoi(lv)
	c.level, c.size = l, parseCacheSize(sz)
	if err != nil || l <= 0 || c.size <= 0 {
		return c, false
	}
	if s, err := readSmall(dir + "shared_cpu_list"); err == nil {
		c.sharers = countCPUList(s)
	} else if s, err := readSmall(dir + "shared_cpu_map"); err == nil {
		c.sharers = countCPUMap(s)
	}
	return c, true
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

// maxCPUs bounds the CPU numbers countCPUList accepts (the kernel's own limit is 8192), so
// that a malformed range cannot make the count overflow.
const maxCPUs = 1 << 16

// countCPUList counts the CPUs of a sysfs CPU list such as "0-3,8-11" or "5"; 0 if it is empty
// or malformed.
func countCPUList(s string) int {
	n := 0
	for part := range strings.SplitSeq(s, ",") {
		a, b, isRange := strings.Cut(part, "-")
		lo, err1 := strconv.Atoi(a)
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(b)
		}
		if err1 != nil || err2 != nil || lo < 0 || hi < lo || hi >= maxCPUs {
			return 0
		}
		n += hi - lo + 1
	}
	return n
}

// countCPUMap counts the CPUs of a sysfs CPU mask such as "00000000,0000000f" (32-bit hex
// words); 0 if it is empty or malformed.
func countCPUMap(s string) int {
	n := 0
	for word := range strings.SplitSeq(s, ",") {
		v, err := strconv.ParseUint(word, 16, 32)
		if err != nil {
			return 0
		}
		n += bits.OnesCount32(uint32(v))
	}
	return n
}
