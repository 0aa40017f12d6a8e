//go:build !race

package main

// raceEnabled reports a -race build, whose instrumentation inflates memory use.
const raceEnabled = false
