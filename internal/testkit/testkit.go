// Package testkit holds the helpers that the tests of several packages share: a section of a
// Markdown file that a test keeps equal to what the code says, the bytes a call allocates, and a
// deadline for a call that could block.
package testkit

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// DocSection checks that the Markdown file at path holds want between the lines
// "<!-- name: begin -->" and "<!-- name: end -->"; with update it rewrites the section instead.
// how tells the reader the command that rewrites it.
func DocSection(t testing.TB, path, name, want string, update bool, how string) {
	t.Helper()
	begin, end := "<!-- "+name+": begin -->\n", "<!-- "+name+": end -->\n"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no %q … %q section", path, strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	got := s[i+len(begin) : j]
	switch {
	case got == want:
	case update:
		if err := os.WriteFile(path, []byte(s[:i+len(begin)]+want+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
	default:
		t.Errorf("%s: the %s section differs from the code; run %s\ngot:\n%s\nwant:\n%s", path, name, how, got, want)
	}
}

// Allocated returns the bytes the program allocates while f runs.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Within runs f and fails the test if it has not returned after five seconds, so that a call that
// blocks (on a FIFO, say) fails instead of hanging the test binary.
func Within(t testing.TB, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still blocked after 5s", what)
		return nil
	}
}
