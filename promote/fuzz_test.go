package promote_test

import (
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/promote"
)

// FuzzPromote parses two operands as the CLI does (type, shape, weak: and py: prefixes) and asks
// every policy under a configuration taken from the input. Nothing may panic; every policy must
// give the same answer, or fail, for (a, b) and for (b, a); and a successful answer is a type the
// policy knows.
func FuzzPromote(f *testing.F) {
	for _, s := range [][2]string{
		{"f16", "i64"}, {"i64[]", "u8[2,3]"}, {"weak:f32", "bf16[?,4]"}, {"py:int", "u64[..]"},
		{"nf4", "f32[1]"}, {"u1[9223372036854775807,2]", "f8e4m3[-1]"}, {"py:float", "py:bool"},
	} {
		f.Add(s[0], s[1], uint8(0))
	}
	f.Fuzz(func(t *testing.T, sa, sb string, flags uint8) {
		a, errA := promote.ParseOperand(sa)
		b, errB := promote.ParseOperand(sb)
		if errA != nil || errB != nil {
			return
		}
		targets := []element.Type{element.Dynamic, element.F32, element.I64, element.U64, element.F16}
		cfg := promote.Config{
			PromoteUnsafe:          flags&1 != 0,
			PyTorchScalarPromotion: flags&2 != 0,
			X64:                    flags&4 != 0,
			Op:                     []string{"", "div", "compare", "add"}[flags>>3&3],
			U64Target:              targets[int(flags>>5)%len(targets)],
		}
		for _, name := range promote.PolicyNames() {
			p, err := promote.New(name, cfg)
			if err != nil {
				continue // a configuration this policy rejects (an Op it lacks, ...)
			}
			r1, e1 := p.Promote(a, b)
			r2, e2 := p.Promote(b, a)
			if (e1 == nil) != (e2 == nil) || (e1 == nil && r1 != r2) {
				t.Fatalf("%s %+v: (%q, %q) → %v %v; swapped → %v %v", name, cfg, sa, sb, r1, e1, r2, e2)
			}
			if e1 != nil {
				continue
			}
			known := false
			for _, ty := range p.Types() {
				known = known || ty == r1.Type
			}
			if !known && r1.Type != element.Dynamic {
				t.Fatalf("%s: (%q, %q) → %s, a type the policy does not list", name, sa, sb, r1.Type)
			}
		}
	})
}
