package benchcli

import (
	"os"
	"strings"
)

// CPUName returns the processor's model name from /proc/cpuinfo, or "" where that is not
// readable.
func CPUName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
