package kernels

import "testing"

// TestStreams checks which conversions take the non-temporal kernels, with the threshold at
// 16 MiB: narrowing and same-size pairs from 16 MiB of traffic, widening pairs from 32 MiB.
func TestStreams(t *testing.T) {
	defer func(old int64) { largeMinBytes = old }(largeMinBytes)
	largeMinBytes = 16 << 20
	const mi = 1 << 20
	for _, c := range []struct {
		sb, db int64
		want   bool
	}{
		{8 * mi, 8*mi - 1, false},  // narrowing, just below the threshold
		{8 * mi, 8 * mi, true},     // same size, at it (i32 → f32, 2 Mi elements)
		{16 * mi, 8 * mi, true},    // f32 → f16, 4 Mi elements
		{32 * mi, 16 * mi, true},   // f64 → f32, 4 Mi elements
		{4 * mi, 16 * mi, false},   // i8 → f32, 4 Mi elements: 20 MiB
		{8 * mi, 16 * mi, false},   // f16 → f32, 4 Mi elements: 24 MiB
		{8 * mi, 24*mi - 1, false}, // widening, just below 32 MiB
		{8 * mi, 24 * mi, true},    // widening, at 32 MiB
		{8 * mi, 32 * mi, true},    // i8 → f32, 8 Mi elements: 40 MiB
		{mi, 4 * mi, false},        // small
	} {
		if got := streams(c.sb, c.db); got != c.want {
			t.Errorf("streams(%d, %d) = %v, want %v", c.sb, c.db, got, c.want)
		}
	}
}
