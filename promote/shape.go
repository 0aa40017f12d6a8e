package promote

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Dim is one dimension of a partial shape: the interval [Min, Max]. Max < 0 means unbounded.
// A static dimension has Min == Max; the fully dynamic dimension "?" is {0, -1}.
type Dim struct {
	Min, Max int64
}

// StaticDim returns the static dimension n.
func StaticDim(n int64) Dim { return Dim{n, n} }

// DynamicDim returns the fully dynamic dimension "?".
func DynamicDim() Dim { return Dim{0, -1} }

// IsStatic reports whether d has one value.
func (d Dim) IsStatic() bool { return d.Max >= 0 && d.Min == d.Max }

// String formats d as OpenVINO does: "3", "?", "1..10", "2..", "..7".
func (d Dim) String() string {
	switch {
	case d.IsStatic():
		return strconv.FormatInt(d.Min, 10)
	case d.Min == 0 && d.Max < 0:
		return "?"
	case d.Max < 0:
		return strconv.FormatInt(d.Min, 10) + ".."
	case d.Min == 0:
		return ".." + strconv.FormatInt(d.Max, 10)
	}
	return strconv.FormatInt(d.Min, 10) + ".." + strconv.FormatInt(d.Max, 10)
}

// Shape is a partial shape: a list of dimensions, or a dynamic rank. The zero value is the
// static rank-0 shape [] (a scalar).
type Shape struct {
	Dims        []Dim
	DynamicRank bool
}

// DynamicRankShape returns the shape of unknown rank ("[...]").
func DynamicRankShape() Shape { return Shape{DynamicRank: true} }

// StaticShape returns the static shape with the given dimensions.
func StaticShape(dims ...int64) Shape {
	s := Shape{Dims: make([]Dim, len(dims))}
	for i, n := range dims {
		s.Dims[i] = StaticDim(n)
	}
	return s
}

// Rank returns the rank and true, or 0 and false when the rank is dynamic.
func (s Shape) Rank() (int, bool) {
	if s.DynamicRank {
		return 0, false
	}
	return len(s.Dims), true
}

// IsScalar reports whether s is the static rank-0 shape []. [1] and [?] are not scalars.
func (s Shape) IsScalar() bool { return !s.DynamicRank && len(s.Dims) == 0 }

// IsStatic reports whether the rank and every dimension are static.
func (s Shape) IsStatic() bool {
	if s.DynamicRank {
		return false
	}
	for _, d := range s.Dims {
		if !d.IsStatic() {
			return false
		}
	}
	return true
}

// Static returns the dimensions of a static shape, or an error naming the shape.
func (s Shape) Static() ([]int64, error) {
	if !s.IsStatic() {
		return nil, fmt.Errorf("shape %s is not static", s)
	}
	out := make([]int64, len(s.Dims))
	for i, d := range s.Dims {
		out[i] = d.Min
	}
	return out, nil
}

// Equal reports whether two shapes are the same partial shape.
func (s Shape) Equal(o Shape) bool {
	if s.DynamicRank || o.DynamicRank {
		return s.DynamicRank == o.DynamicRank
	}
	if len(s.Dims) != len(o.Dims) {
		return false
	}
	for i := range s.Dims {
		if s.Dims[i] != o.Dims[i] {
			return false
		}
	}
	return true
}

// String formats s as "[2,?,1..5]", "[]" or "[...]".
func (s Shape) String() string {
	if s.DynamicRank {
		return "[...]"
	}
	parts := make([]string, len(s.Dims))
	for i, d := range s.Dims {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// ParseShape reads a partial shape: "[2,3]", "2, 3", "[]" (rank 0), "[...]" or "..." (dynamic
// rank), with dimensions that are integers, "?" or -1 (dynamic), or intervals "1..5", "2..",
// "..7". An empty string without brackets is rank 0, as in OpenVINO's shape="" attribute. A
// negative dimension other than -1, or an interval whose bounds are reversed, is an error.
func ParseShape(s string) (Shape, error) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "[") {
		if !strings.HasSuffix(t, "]") {
			return Shape{}, fmt.Errorf("shape %q: missing ']'", s)
		}
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if t == "..." {
		return DynamicRankShape(), nil
	}
	if t == "" {
		return Shape{Dims: []Dim{}}, nil
	}
	fields := strings.Split(t, ",")
	sh := Shape{Dims: make([]Dim, 0, len(fields))}
	for _, f := range fields {
		d, err := ParseDim(f)
		if err != nil {
			return Shape{}, fmt.Errorf("shape %q: %w", s, err)
		}
		sh.Dims = append(sh.Dims, d)
	}
	return sh, nil
}

// ParseDim reads one dimension: an integer ≥ 0, "?" or "-1" (dynamic), or an interval "a..b",
// "a..", "..b".
func ParseDim(f string) (Dim, error) {
	f = strings.TrimSpace(f)
	switch f {
	case "?", "-1":
		return DynamicDim(), nil
	case "":
		return Dim{}, fmt.Errorf("empty dimension")
	}
	if lo, hi, ok := strings.Cut(f, ".."); ok {
		d := Dim{Min: 0, Max: -1}
		var err error
		if lo != "" {
			if d.Min, err = parseDimInt(lo); err != nil {
				return Dim{}, err
			}
		}
		if hi != "" {
			if d.Max, err = parseDimInt(hi); err != nil {
				return Dim{}, err
			}
			if d.Max < d.Min {
				return Dim{}, fmt.Errorf("dimension %q: interval bounds reversed", f)
			}
		}
		return d, nil
	}
	n, err := parseDimInt(f)
	if err != nil {
		return Dim{}, err
	}
	return StaticDim(n), nil
}

func parseDimInt(f string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("dimension %q is not an integer, '?' or an interval", f)
	}
	if n < 0 {
		return 0, fmt.Errorf("dimension %q is negative (only -1 means dynamic)", f)
	}
	return n, nil
}

// NumElements returns the element count of a static shape, or an error when a dimension is
// dynamic or the product overflows int64.
func NumElements(dims []int64) (int64, error) {
	n := int64(1)
	for _, d := range dims {
		if d < 0 {
			return 0, fmt.Errorf("dimension %d is negative", d)
		}
		if d != 0 && n > math.MaxInt64/d {
			return 0, fmt.Errorf("element count of shape %v overflows int64", dims)
		}
		n *= d
	}
	return n, nil
}
