package ir

import (
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
)

// TestFNUZRejected: the FNUZ float8 types, which OpenVINO lacks, are an error naming the type
// and the line wherever an IR names an element type: a port precision, a Parameter's
// element_type and ConvertPromoteTypes' u64_integer_promotion_target.
func TestFNUZRejected(t *testing.T) {
	good := strings.ReplaceAll(loopModel, "OUT", "FP32")
	for _, c := range []struct{ old, new, want string }{
		{`<port id="0" precision="I64"/></output>`, `<port id="0" precision="F8E4M3FNUZ"/></output>`, "t.xml:2: layer 0 (n): port 0: precision: element type f8e4m3fnuz is not an OpenVINO element type"},
		{`element_type="i64"`, `element_type="f8e5m2fnuz"`, "element_type: element type f8e5m2fnuz is not an OpenVINO element type"},
	} {
		src := strings.Replace(good, c.old, c.new, 1)
		if src == good {
			t.Fatalf("replacement %q not applied", c.old)
		}
		m, err := Parse(strings.NewReader(src), "t.xml")
		if err == nil {
			_, err = m.Check()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.new, err, c.want)
		}
	}
	for _, ty := range []element.Type{element.F8E4M3FNUZ, element.F8E5M2FNUZ} {
		l := &Layer{Type: OpType, Data: &Node{Kind: ElementNode, Name: "data", Attrs: []Attr{{"u64_integer_promotion_target", ty.String()}}}}
		if _, err := parsePromoteAttrs(l); err == nil || !strings.Contains(err.Error(), ty.String()+" is not an OpenVINO element type") {
			t.Errorf("u64_integer_promotion_target=%s: %v", ty, err)
		}
	}
}
