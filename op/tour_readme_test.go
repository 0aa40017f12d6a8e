package op_test

import (
	"os"
	"strings"
	"testing"
)

// TestTourInREADME checks that the README's Go API tour is the body of Example_tour, so the
// snippet users copy is the one the tests compile and run.
func TestTourInREADME(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, snippet, ok := strings.Cut(string(readme), "```go\n")
	if !ok {
		t.Fatal("README.md has no Go code block")
	}
	snippet, _, _ = strings.Cut(snippet, "```")

	src, err := os.ReadFile("tour_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(string(src), "func Example_tour() {\n")
	if !ok {
		t.Fatal("tour_example_test.go has no Example_tour")
	}
	body, _, _ = strings.Cut(body, "\n\t// Output:")
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	if want := strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"; snippet != want {
		t.Errorf("README.md's Go tour differs from Example_tour:\n%s\nwant\n%s", snippet, want)
	}
}
