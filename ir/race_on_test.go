//go:build race

package ir

// raceEnabled reports a -race build, whose instrumentation inflates allocation counts.
const raceEnabled = true
