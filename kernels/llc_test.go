package kernels

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// fakeCache is one cache directory of a fake sysfs tree: its level, type and size, and the CPUs
// sharing it as a list (shared_cpu_list) or a mask (shared_cpu_map); an empty one is not written.
type fakeCache struct{ level, typ, size, list, mask string }

// fakeSysfs writes cpu0's cache entries under a temporary root.
func fakeSysfs(t testing.TB, caches []fakeCache) string {
	root := t.TempDir()
	for i, c := range caches {
		dir := filepath.Join(root, "devices/system/cpu/cpu0/cache", "index"+strconv.Itoa(i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]string{"level": c.level, "type": c.typ, "size": c.size, "shared_cpu_list": c.list, "shared_cpu_map": c.mask} {
			if v == "" {
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(v+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

// vm2 is a 2-vCPU VM whose L3 is llc and whose L2 is l2 a vCPU: what the AMD EPYC VM of
// docs/perf/README.md §17 reports with llc 32768K and l2 1024K.
func vm2(llc, l2 string) []fakeCache {
	return []fakeCache{
		{"1", "Data", "32K", "0", ""}, {"1", "Instruction", "32K", "0", ""},
		{"2", "Unified", l2, "0", ""}, {"3", "Unified", llc, "0-1", ""},
	}
}

// TestCacheShare: the share of the last-level cache for trees that real machines and VMs
// report, with the CPUs sharing each cache listed, masked or not given, and with malformed
// entries.
func TestCacheShare(t *testing.T) {
	const mi = 1 << 20
	for _, c := range []struct {
		name   string
		caches []fakeCache
		ncpu   int
		want   int64
	}{
		{"AMD VM, 32 MiB on 2 vCPUs: kept", vm2("32768K", "1024K"), 2, 32 * mi},
		{"Intel VM, 260 MiB on 2 vCPUs with 2 MiB L2s", vm2("266240K", "2048K"), 2, 64 * mi},
		{"260 MiB on 2 vCPUs with 1 MiB L2s", vm2("266240K", "1024K"), 2, 32 * mi},
		{"260 MiB on 2 SMT siblings sharing an L2", []fakeCache{
			{"2", "Unified", "2048K", "0-1", ""}, {"3", "Unified", "266240K", "0-1", ""}}, 2, 32 * mi},
		{"260 MiB shared by 120 CPUs, the process on 2", []fakeCache{
			{"2", "Unified", "2048K", "0", ""}, {"3", "Unified", "266240K", "0-119", ""}}, 2, 64 * mi},
		{"260 MiB shared by 120 CPUs, the process on all", []fakeCache{
			{"2", "Unified", "2048K", "0", ""}, {"3", "Unified", "266240K", "0-119", ""}}, 120, 260 * mi},
		{"Zen 4 CCD on bare metal, SMT", []fakeCache{
			{"2", "Unified", "1024K", "0,96", ""}, {"3", "Unified", "32768K", "0-7,96-103", ""}}, 192, 32 * mi},
		{"Sapphire Rapids socket, SMT", []fakeCache{
			{"2", "Unified", "2048K", "0,56", ""}, {"3", "Unified", "107520K", "0-111", ""}}, 224, 105 * mi},
		{"masks instead of lists", []fakeCache{
			{"2", "Unified", "2048K", "", "00000000,00000001"}, {"3", "Unified", "266240K", "", "00000000,00000003"}}, 64, 64 * mi},
		{"no sharing given: all CPUs of the process", []fakeCache{
			{"2", "Unified", "2M", "", ""}, {"3", "Unified", "260M", "", ""}}, 4, 128 * mi},
		{"malformed lists count as not given", []fakeCache{
			{"2", "Unified", "2M", "0-", ""}, {"3", "Unified", "260M", "zero", "xyz"}}, 3, 96 * mi},
		{"ncpu 0 counts as 1", vm2("260M", "2M"), 0, 32 * mi},
		{"an L2 as last level is not bounded", []fakeCache{
			{"1", "Data", "64K", "0", ""}, {"2", "Unified", "12M", "0-3", ""}}, 8, 12 * mi},
		{"an L3 without an L2 is not bounded", []fakeCache{{"3", "Unified", "260M", "0-1", ""}}, 2, 260 * mi},
		{"an unreadable L2 is ignored", []fakeCache{
			{"2", "Unified", "big", "0", ""}, {"3", "Unified", "260M", "0-1", ""}}, 2, 260 * mi},
		{"the larger of two L2 entries", []fakeCache{
			{"2", "Data", "512K", "0", ""}, {"2", "Unified", "1M", "0", ""}, {"3", "Unified", "260M", "0-1", ""}}, 2, 32 * mi},
		{"no overflow with many CPUs", []fakeCache{
			{"2", "Unified", "1G", "0", ""}, {"3", "Unified", "1073741824K", "", ""}}, 1 << 30, 1 << 40},
		{"none reported", nil, 2, 0},
		{"only instruction caches", []fakeCache{{"3", "Instruction", "64M", "0-1", ""}}, 2, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "missing")
			if c.caches != nil {
				root = fakeSysfs(t, c.caches)
			}
			if got := cacheShare(root, c.ncpu); got != c.want {
				t.Errorf("cacheShare(ncpu %d) = %d (%.1f MiB), want %.1f MiB", c.ncpu, got, float64(got)/mi, float64(c.want)/mi)
			}
		})
	}
}

func TestNTMinBytes(t *testing.T) {
	zen4 := []fakeCache{{"1", "Data", "32K", "", ""}, {"1", "Instruction", "32K", "", ""}, {"2", "Unified", "1024K", "", ""}, {"3", "Unified", "32768K", "", ""}}
	for _, c := range []struct {
		name   string
		caches []fakeCache
		want   int64
	}{
		{"zen4", zen4, 16 << 20},
		{"no sysfs", nil, 16 << 20},
		{"small L3 clamped up", []fakeCache{{"2", "Unified", "512K", "", ""}, {"3", "Unified", "6M", "", ""}}, 4 << 20},
		{"huge L3 clamped down", []fakeCache{{"3", "Unified", "1G", "", ""}}, 64 << 20},
		{"96 MiB L3 in bytes", []fakeCache{{"3", "Unified", "100663296", "", ""}}, 48 << 20},
		{"highest level wins over a larger lower one", []fakeCache{{"2", "Unified", "65536K", "", ""}, {"3", "Unified", "16384K", "", ""}}, 8 << 20},
		{"instruction caches ignored", []fakeCache{{"2", "Unified", "16M", "", ""}, {"3", "Instruction", "64M", "", ""}}, 8 << 20},
		{"unreadable sizes", []fakeCache{{"3", "Unified", "lots", "", ""}, {"x", "Unified", "8M", "", ""}}, 16 << 20},
		{"260 MiB on 2 vCPUs", vm2("266240K", "2048K"), 32 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "missing")
			if c.caches != nil {
				root = fakeSysfs(t, c.caches)
			}
			// Eight CPUs of the process, as when sysfs lists all the CPUs sharing a cache.
			if got := ntMinFor(cacheShare(root, 8)); got != c.want {
				t.Errorf("ntMinBytes = %d MiB, want %d MiB", got>>20, c.want>>20)
			}
		})
	}
	// ntMinBytes itself, on a tree whose answer does not depend on the CPUs of the machine that
	// runs the test: one CPU shares the 260 MiB L3, so the bound is 16 times the 2 MiB L2.
	root := fakeSysfs(t, []fakeCache{{"2", "Unified", "2M", "0", ""}, {"3", "Unified", "260M", "0", ""}})
	if got := ntMinBytes(root); got != 16<<20 {
		t.Errorf("ntMinBytes = %d MiB, want 16 MiB", got>>20)
	}
}

func TestParseCacheSize(t *testing.T) {
	for s, want := range map[string]int64{
		"32768K": 32 << 20, "1M": 1 << 20, "2G": 2 << 30, "512": 512,
		"": -1, "K": -1, "-5K": -1, "0K": -1, "12.5M": -1, "99999999999999999K": -1,
	} {
		if got := parseCacheSize(s); got != want {
			t.Errorf("parseCacheSize(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestCountCPUList(t *testing.T) {
	for s, want := range map[string]int{
		"0": 1, "0-1": 2, "0,2-3": 3, "0-127": 128, "0-7,96-103": 16, "3-3": 1, "65535": 1,
		"": 0, " ": 0, "1-0": 0, "-1": 0, "0-": 0, "a": 0, "0,,1": 0, "0-65536": 0, "0 - 1": 0, "0x1": 0,
	} {
		if got := countCPUList(s); got != want {
			t.Errorf("countCPUList(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestCountCPUMap(t *testing.T) {
	for s, want := range map[string]int{
		"3": 2, "00000000,00000003": 2, "ffffffff,ffffffff": 64, "80000000,00000001": 2, "0": 0,
		"": 0, "xyz": 0, "1ffffffff": 0, "3,": 0, "-1": 0,
	} {
		if got := countCPUMap(s); got != want {
			t.Errorf("countCPUMap(%q) = %d, want %d", s, got, want)
		}
	}
}
