package ir

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// The three XML examples of the ConvertPromoteTypes-14 specification, as pasted from
// ../shared/seeds/001_…: not well-formed (commas between attributes, "< !--").
func specSnippets(t *testing.T) []string {
	d := sharedDir(t)
	if d == "" {
		t.Skip("no ../shared")
	}
	files, _ := filepath.Glob(filepath.Join(d, "seeds", "001_*.txt"))
	if len(files) != 1 {
		t.Skip("specification seed not found")
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`(?s)<layer .*?</layer>`).FindAllString(string(data), -1)
}

func TestSpecSnippets(t *testing.T) {
	snips := specSnippets(t)
	want := []element.Type{element.F32, element.I64, element.F32}
	if len(snips) != len(want) {
		t.Fatalf("%d snippets in the specification", len(snips))
	}
	for i, s := range snips {
		if _, err := Parse(strings.NewReader(s), "strict.xml"); err == nil {
			t.Errorf("example %d parses strictly", i+1)
		}
		m, err := ParseSnippet([]byte(s), "example.xml")
		if err != nil {
			t.Errorf("example %d: %v", i+1, err)
			continue
		}
		rep, err := m.Check()
		if err != nil || len(rep.Promotes) != 1 || rep.Promotes[0].Common != want[i] {
			t.Errorf("example %d: %+v %v", i+1, rep.Promotes, err)
		}
		if l := rep.Promotes[0].Layer; l.Outputs[0].Names != "ConvertPromoteTypes:0" || l.Name != "layer0" {
			t.Errorf("example %d: names %q %q", i+1, l.Name, l.Outputs[0].Names)
		}
	}
	// A pasted example with a wrong declared type fails with the example's line.
	bad := strings.Replace(snips[1], `<port id="2" precision="I64"`, `<port id="2" precision="I32"`, 1)
	m, err := ParseSnippet([]byte(bad), "bad.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Check(); err == nil || !strings.Contains(err.Error(), "bad.xml:13: layer 0 (layer0): output port 2 has precision I32 but the inputs (i16, u32) promote to i64") {
		t.Errorf("bad example: %v", err)
	}
}
