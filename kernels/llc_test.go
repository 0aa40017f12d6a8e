package kernels

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// fakeSysfs writes cpu0's cache entries (level, type, size) under a temporary root.
func fakeSysfs(t *testing.T, caches [][3]string) string {
	root := t.TempDir()
	for i, c := range caches {
		dir := filepath.Join(root, "devices/system/cpu/cpu0/cache", "index"+strconv.Itoa(i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for j, name := range []string{"level", "type", "size"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(c[j]+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func TestNTMinBytes(t *testing.T) {
	zen4 := [][3]string{{"1", "Data", "32K"}, {"1", "Instruction", "32K"}, {"2", "Unified", "1024K"}, {"3", "Unified", "32768K"}}
	for _, c := range []struct {
		name   string
		caches [][3]string
		want   int64
	}{
		{"zen4", zen4, 16 << 20},
		{"no sysfs", nil, 16 << 20},
		{"small L3 clamped up", [][3]string{{"2", "Unified", "512K"}, {"3", "Unified", "6M"}}, 4 << 20},
		{"huge L3 clamped down", [][3]string{{"3", "Unified", "1G"}}, 128 << 20},
		{"96 MiB L3 in bytes", [][3]string{{"3", "Unified", "100663296"}}, 48 << 20},
		{"highest level wins over a larger lower one", [][3]string{{"2", "Unified", "65536K"}, {"3", "Unified", "16384K"}}, 8 << 20},
		{"instruction caches ignored", [][3]string{{"2", "Unified", "16M"}, {"3", "Instruction", "64M"}}, 8 << 20},
		{"unreadable sizes", [][3]string{{"3", "Unified", "lots"}, {"x", "Unified", "8M"}}, 16 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "missing")
			if c.caches != nil {
				root = fakeSysfs(t, c.caches)
			}
			if got := ntMinBytes(root); got != c.want {
				t.Errorf("ntMinBytes = %d MiB, want %d MiB", got>>20, c.want>>20)
			}
		})
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
