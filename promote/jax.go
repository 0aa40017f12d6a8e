package promote

import (
	"fmt"

	"github.com/convertpromote/convertpromote/element"
)

func init() {
	register("jax", func(c Config) (Policy, error) {
		if _, err := normalizeOp("jax", c.Op); err != nil {
			return nil, err
		}
		return JAX{X64: c.X64}, nil
	})
	register("jax-strict", func(c Config) (Policy, error) {
		if _, err := normalizeOp("jax-strict", c.Op); err != nil {
			return nil, err
		}
		return JAX{X64: c.X64, Strict: true}, nil
	})
}

// JAX is jax.numpy's result_type (jax/_src/dtypes.py): the least upper bound of the two operands
// on JAX's type promotion lattice, with the weak types i*, f* and c*.
//
// A weak operand is a weakly typed value of its kind: an integer one is i*, a float one f*, a
// complex one c*; a weak boolean is an ordinary boolean. When both operands are weak the bound is
// taken of their strong types and the result is weak. A weak result has the default type of its
// kind: i64, f64, c128 with X64, i32, f32, c64 without.
//
// With X64 false (jax_enable_x64 off, JAX's default) JAX canonicalizes every dtype it sees: a
// 64-bit operand counts as its 32-bit counterpart (i64 → i32, u64 → u32, f64 → f32,
// c128 → c64), and so does a 64-bit result. So "f64 + f64" is f32 without X64.
//
// Strict is jax_numpy_dtype_promotion='strict': the lattice has no edges between strong types,
// so two different strong types are an error, while a weak i* still takes any integer, float or
// complex type, f* any float or complex type and c* any complex type.
//
// The float8 types (and f4e2m1) sit under f* only: they promote with weak values, bool and the
// integers (which JAX sends through f*) but not with another float type. JAX has no operation
// kinds; Config.Op must be empty.
type JAX struct {
	X64    bool
	Strict bool
}

// Name returns "jax" or "jax-strict".
func (j JAX) Name() string {
	if j.Strict {
		return "jax-strict"
	}
	return "jax"
}

var jaxTypes = []element.Type{
	element.Boolean, element.U1, element.U2, element.U4, element.U8, element.U16, element.U32, element.U64,
	element.I4, element.I8, element.I16, element.I32, element.I64,
	element.F4E2M1, element.F8E4M3, element.F8E5M2, element.F8E8M0,
	element.BF16, element.F16, element.F32, element.F64, element.C64, element.C128,
}

// Types returns JAX's dtypes: bool, the unsigned and signed integers (with ml_dtypes' uint1, uint2,
// uint4 and int4; JAX lists uint1 when its ml_dtypes has it), the small floats f4e2m1, f8e4m3 (float8_e4m3fn), f8e5m2, f8e8m0 (float8_e8m0fnu),
// bf16, f16, f32, f64, c64 and c128. The 64-bit ones are accepted without X64 and canonicalized.
func (JAX) Types() []element.Type { return append([]element.Type(nil), jaxTypes...) }

// jaxNode is a lattice node: an element type, or one of the weak types.
type jaxNode int

const (
	jaxIntWeak     jaxNode = 1000 + iota // i*
	jaxFloatWeak                         // f*
	jaxComplexWeak                       // c*
)

func (n jaxNode) String() string {
	switch n {
	case jaxIntWeak:
		return "i*"
	case jaxFloatWeak:
		return "f*"
	case jaxComplexWeak:
		return "c*"
	}
	return element.Type(n).String()
}

func jt(t element.Type) jaxNode { return jaxNode(t) }

// jaxSmallFloats are the float types that only f* reaches.
var jaxSmallFloats = []jaxNode{jt(element.F4E2M1), jt(element.F8E4M3), jt(element.F8E5M2), jt(element.F8E8M0)}

// jaxLattice is the standard lattice of _type_promotion_lattice (strict=False, x64=True): each
// node maps to the nodes immediately above it.
var jaxLattice = map[jaxNode][]jaxNode{
	jt(element.Boolean): {jaxIntWeak},
	jaxIntWeak:          {jt(element.U8), jt(element.U2), jt(element.U4), jt(element.I8), jt(element.I4), jt(element.U1)},
	jt(element.U1):      {},
	jt(element.U2):      {},
	jt(element.U4):      {},
	jt(element.U8):      {jt(element.I16), jt(element.U16)},
	jt(element.U16):     {jt(element.I32), jt(element.U32)},
	jt(element.U32):     {jt(element.I64), jt(element.U64)},
	jt(element.U64):     {jaxFloatWeak},
	jt(element.I4):      {},
	jt(element.I8):      {jt(element.I16)},
	jt(element.I16):     {jt(element.I32)},
	jt(element.I32):     {jt(element.I64)},
	jt(element.I64):     {jaxFloatWeak},
	jaxFloatWeak:        append(append([]jaxNode(nil), jaxSmallFloats...), jt(element.BF16), jt(element.F16), jaxComplexWeak),
	jt(element.F4E2M1):  {},
	jt(element.F8E4M3):  {},
	jt(element.F8E5M2):  {},
	jt(element.F8E8M0):  {},
	jt(element.BF16):    {jt(element.F32)},
	jt(element.F16):     {jt(element.F32)},
	jt(element.F32):     {jt(element.F64), jt(element.C64)},
	jt(element.F64):     {jt(element.C128)},
	jaxComplexWeak:      {jt(element.C64)},
	jt(element.C64):     {jt(element.C128)},
	jt(element.C128):    {},
}

// jaxStrictLattice is the strict lattice: only the weak types have edges.
var jaxStrictLattice = func() map[jaxNode][]jaxNode {
	m := map[jaxNode][]jaxNode{}
	var ints, floats, complexes []jaxNode
	for _, t := range jaxTypes {
		m[jt(t)] = nil
		switch kindOf(t) {
		case kindInt:
			ints = append(ints, jt(t))
		case kindFloat:
			floats = append(floats, jt(t))
		case kindComplex:
			complexes = append(complexes, jt(t))
		}
	}
	m[jaxIntWeak] = append([]jaxNode{jaxFloatWeak}, ints...)
	m[jaxFloatWeak] = append([]jaxNode{jaxComplexWeak}, floats...)
	m[jaxComplexWeak] = complexes
	return m
}()

// upperBounds returns, for each node, the set of nodes at or above it.
func upperBounds(lattice map[jaxNode][]jaxNode) map[jaxNode]map[jaxNode]bool {
	ub := map[jaxNode]map[jaxNode]bool{}
	var visit func(n jaxNode, into map[jaxNode]bool)
	visit = func(n jaxNode, into map[jaxNode]bool) {
		if into[n] {
			return
		}
		into[n] = true
		for _, m := range lattice[n] {
			visit(m, into)
		}
	}
	for n := range lattice {
		ub[n] = map[jaxNode]bool{}
		visit(n, ub[n])
	}
	return ub
}

var (
	jaxUB       = upperBounds(jaxLattice)
	jaxStrictUB = upperBounds(jaxStrictLattice)
)

// leastUpperBound is _least_upper_bound of two nodes; ok is false when they have none.
func leastUpperBound(ub map[jaxNode]map[jaxNode]bool, a, b jaxNode) (jaxNode, bool) {
	if a == b {
		return a, true
	}
	var common []jaxNode
	for n := range ub[a] {
		if ub[b][n] {
			common = append(common, n)
		}
	}
	for _, c := range common {
		least := true
		for _, d := range common {
			if !ub[c][d] {
				least = false
				break
			}
		}
		if least {
			return c, true
		}
	}
	return 0, false
}

// canonical is JAX's canonicalize_dtype: without x64 the 64-bit types become 32-bit.
func (j JAX) canonical(t element.Type) element.Type {
	if j.X64 {
		return t
	}
	switch t {
	case element.I64:
		return element.I32
	case element.U64:
		return element.U32
	case element.F64:
		return element.F32
	case element.C128:
		return element.C64
	}
	return t
}

// defaultOf returns the default type of kind k (result_type's default_types).
func (j JAX) defaultOf(k kind) element.Type {
	switch k {
	case kindInt:
		return j.canonical(element.I64)
	case kindFloat:
		return j.canonical(element.F64)
	case kindComplex:
		return j.canonical(element.C128)
	}
	return element.Boolean
}

// node returns the lattice node of a (canonical) type, weak or not.
func jaxNodeOf(t element.Type, weak bool) jaxNode {
	if !weak || t == element.Boolean {
		return jt(t)
	}
	switch kindOf(t) {
	case kindFloat:
		return jaxFloatWeak
	case kindComplex:
		return jaxComplexWeak
	}
	return jaxIntWeak
}

func jaxNodeKind(n jaxNode) kind {
	switch n {
	case jaxIntWeak:
		return kindInt
	case jaxFloatWeak:
		return kindFloat
	case jaxComplexWeak:
		return kindComplex
	}
	return kindOf(element.Type(n))
}

// Promote returns jnp.result_type(a, b) and whether the result is weakly typed.
func (j JAX) Promote(a, b Operand) (Result, error) {
	name := j.Name()
	if err := checkTypes(name, jaxTypes, a, b); err != nil {
		return Result{}, err
	}
	ta, tb := j.canonical(a.Type), j.canonical(b.Type)
	ub := jaxUB
	if j.Strict {
		ub = jaxStrictUB
	}
	var (
		res  jaxNode
		weak bool
	)
	switch {
	case ta == tb && !(a.Weak && b.Weak):
		return Result{Type: ta}, nil
	case a.Weak && b.Weak && !j.Strict:
		n, ok := leastUpperBound(ub, jt(ta), jt(tb))
		if !ok {
			return Result{}, j.noPath(a, b, jt(ta), jt(tb))
		}
		res, weak = n, true
	default:
		na, nb := jaxNodeOf(ta, a.Weak), jaxNodeOf(tb, b.Weak)
		n, ok := leastUpperBound(ub, na, nb)
		if !ok {
			return Result{}, j.noPath(a, b, na, nb)
		}
		res, weak = n, n >= jaxIntWeak
	}
	k := jaxNodeKind(res)
	if k == kindBool {
		return Result{Type: element.Boolean}, nil
	}
	if weak {
		return Result{Type: j.defaultOf(k), Weak: true}, nil
	}
	return Result{Type: j.canonical(element.Type(res))}, nil
}

func (j JAX) noPath(a, b Operand, na, nb jaxNode) error {
	why := "no implicit dtype promotion path"
	switch {
	case j.Strict:
		why += " with jax_numpy_dtype_promotion=strict"
	case isSmallFloatNode(na) || isSmallFloatNode(nb):
		why += " (8-bit and 4-bit floats do not promote implicitly)"
	case isSubByteIntNode(na) || isSubByteIntNode(nb):
		why += " (1-bit, 2-bit and 4-bit integers do not promote implicitly)"
	}
	return promoteErr(j.Name(), a, b, "%s between %s", why, fmt.Sprintf("%v and %v", na, nb))
}

func isSmallFloatNode(n jaxNode) bool {
	for _, s := range jaxSmallFloats {
		if s == n {
			return true
		}
	}
	return false
}

func isSubByteIntNode(n jaxNode) bool {
	switch n {
	case jt(element.U1), jt(element.U2), jt(element.U4), jt(element.I4):
		return true
	}
	return false
}
