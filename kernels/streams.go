package kernels

import (
	"sync"

	"github.com/convertpromote/convertpromote/element"
)

// largeKernel, when an architecture's init sets it, returns a kernel for the pair on path p meant
// for conversions of at least largeMinBytes, see streams (non-temporal stores, which bypass the
// caches as the runtime's memmove does from 1 MiB on), or nil to keep the ordinary kernel: under
// OpenVINO's rules for v < 0, else under the rule variant v (a rule set's own loop).
var largeKernel func(p Path, v int, from, to element.Type) loopFunc

// largeMinBytes, when not zero, is the size (bytes read plus bytes written) from which Convert
// asks largeKernel; tests set it. When zero, largeMin reads half the last-level cache from sysfs
// (ntMinBytes) the first time a conversion is large enough to ask, not at start-up: programs
// that never convert a megabyte never open /sys.
var largeMinBytes int64

var (
	largeOnce     sync.Once
	largeDetected int64
)

// streams reports whether a conversion of sb source and db destination bytes takes largeKernel:
// from largeMin() bytes of traffic (half the last-level cache), or from 2·largeMin() (the whole
// cache) for a destination larger than its source. Below that, source and result can stay in
// the cache: ordinary stores leave the result there for its reader, and they are faster than
// non-temporal ones for the widening pairs, whose time the stores set, because a core writes
// into the L3 faster than it writes to memory. The measurements behind the two thresholds are
// in docs/perf/README.md ("Non-temporal stores and the cache size").
func streams(sb, db int64) bool {
	m := largeMin()
	if db > sb {
		m *= 2
	}
	return sb+db >= m
}

// largeMin returns the threshold of largeKernel.
func largeMin() int64 {
	if largeMinBytes != 0 {
		return largeMinBytes
	}
	largeOnce.Do(func() { largeDetected = ntMinBytes("/sys") })
	return largeDetected
}
