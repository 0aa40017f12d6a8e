package ir

import (
	"errors"
	"github.com/convertpromote/convertpromote/internal/testkit"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// hugeConstModel copies testdata/ir/large/huge_const.xml (a u8[1 Gi] Const and a u8 scalar
// into ConvertPromoteTypes) to a temporary directory beside a sparse .bin of the size it needs.
func hugeConstModel(t *testing.T) *Model {
	t.Helper()
	p := copyModel(t, filepath.Join("large", "huge_const.xml"), nil)
	f, err := os.Create(BinPath(p))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1<<30 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	m, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRunBudget(t *testing.T) {
	const need = 2<<30 + 2 // the 1 GiB Const and the scalar, then both outputs
	for _, c := range []struct {
		name string
		do   func(m *Model) error
		want int64
	}{
		{"Run", func(m *Model) error { _, err := m.Run(nil); return err }, need},
		{"Fold", func(m *Model) error { _, err := m.Fold(); return err }, need + 1<<30 + 1},
		{"RunWith", func(m *Model) error { _, err := m.RunWith(nil, RunOptions{MaxMemory: 1 << 20}); return err }, need},
	} {
		m := hugeConstModel(t)
		var err error
		if n := testkit.Allocated(func() { err = c.do(m) }); n > 16<<20 {
			t.Errorf("%s: allocated %d bytes before failing", c.name, n)
		}
		var be *BudgetError
		if !errors.As(err, &be) {
			t.Fatalf("%s: err = %v, want a *BudgetError", c.name, err)
		}
		if be.Need != c.want || be.Consts != 1<<30+1 {
			t.Errorf("%s: %+v, want Need %d", c.name, be, c.want)
		}
		if !strings.Contains(err.Error(), "huge_const.xml: evaluating needs ") || !strings.Contains(err.Error(), "more than the memory budget of ") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestPlanBytes(t *testing.T) {
	m := hugeConstModel(t)
	p, err := m.Plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.ConstBytes != 1<<30+1 || p.OutputBytes != 1<<30+1 || p.InputBytes != 0 || p.Bytes() != 2<<30+2 {
		t.Errorf("plan %+v", p)
	}
	if len(p.Outputs) != 2 || p.Outputs[0].Name != "p0:2" || p.Outputs[0].Shape[0] != 1<<30 || p.Outputs[0].Type.String() != "u8" {
		t.Errorf("planned outputs %+v", p.Outputs)
	}
}

// TestRunBudgetExact runs a testdata model with a budget of exactly what its plan needs, and one
// byte less.
func TestRunBudgetExact(t *testing.T) {
	path := filepath.Join(repoRoot(t), "testdata", "ir", "pytorch_scalar.xml")
	m, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.ConstBytes == 0 || p.OutputBytes == 0 {
		t.Fatalf("plan %+v", p)
	}
	res, err := m.RunWith(nil, RunOptions{MaxMemory: p.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, o := range res.Outputs {
		if o.Layer.Type != "Result" {
			sum += int64(len(o.Tensor.Bytes()))
		}
	}
	if sum != p.OutputBytes {
		t.Errorf("outputs hold %d bytes, the plan says %d", sum, p.OutputBytes)
	}
	var be *BudgetError
	if _, err := m.RunWith(nil, RunOptions{MaxMemory: p.Bytes() - 1}); !errors.As(err, &be) {
		t.Errorf("budget %d: err = %v", p.Bytes()-1, err)
	}
	if _, err := m.RunWith(nil, RunOptions{MaxMemory: -1}); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB",
		2 << 30: "2 GiB", 2<<30 + 2: "2 GiB", 3 << 29: "1.5 GiB", 1<<63 - 1: "8 EiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestBudgetHolds: what Run and Fold allocate stays within the sum they check against the budget
// (plus a little for the graph), here with a 16 MiB Const.
func TestBudgetHolds(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "ir", "large", "huge_const.xml"))
	if err != nil {
		t.Fatal(err)
	}
	const size = 16 << 20
	xml := strings.ReplaceAll(string(data), "1073741824", strconv.Itoa(size))
	for _, fold := range []bool{false, true} {
		m, err := ParseBytes([]byte(xml), make([]byte, size+1), "m.xml")
		if err != nil {
			t.Fatal(err)
		}
		var be *BudgetError
		_, err = m.RunWith(nil, RunOptions{MaxMemory: 1})
		if fold {
			_, err = m.FoldWith(RunOptions{MaxMemory: 1})
		}
		if !errors.As(err, &be) {
			t.Fatalf("fold %t: err = %v", fold, err)
		}
		n := testkit.Allocated(func() {
			if fold {
				_, err = m.FoldWith(RunOptions{MaxMemory: be.Need})
			} else {
				_, err = m.RunWith(nil, RunOptions{MaxMemory: be.Need})
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if n > uint64(be.Need)+1<<20 {
			t.Errorf("fold %t: allocated %d bytes for a budget of %d", fold, n, be.Need)
		}
	}
}
