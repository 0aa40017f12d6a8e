package quant

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

//go:generate go -C ../kernels/_asm run . -quant ../../quant

// The kernel registry: one row for every named scheme, value type (f32, f16, bf16) and
// direction, with the SIMD paths that have a kernel for it; a row without paths runs the pure-Go
// loop on every path. Dispatch (HasDequantizer, HasQuantizer, Dequantize, Quantize), the tests'
// lists and the table of docs/kernels.md are derived from it or tested against it, and the
// generator (kernels/_asm, run by go generate) reads it to write the kernels' stubs and lists.
// Adding a kernel is a path in its row plus the kernel's bodies: the generator's (kernels/_asm)
// for amd64, a TEXT in quant_arm64.s for arm64; go generate writes the amd64 assembly and both
// architectures' stubs and lists (stubs_amd64.go, stubs_arm64.go). bindKernels panics at
// start-up when the kernels and the rows disagree.
//
// The rows are of two kinds. A block row (the named schemes) has kernels that convert steps of
// 32 elements (one group of 32, or two of 16) whole (decodeFunc, encodeFunc); the call runs the
// elements after the last whole step on the pure-Go loop. A group row (grouped set) stands for a
// family of schemes, its scheme with Group 0 (one of families): its kernels dequantize whole
// groups of any size that is a multiple of groupStep, the group size and the zero points being
// arguments (groupFunc); the call runs a partial last group, and every scheme of the family whose
// group is not such a multiple, on the pure-Go loop.

// step is the number of elements a kernel converts a step. A scheme with a kernel has a group
// that divides it.
const step = 32

// groupStep is the granule of a group kernel's group size: a group row's kernels take the
// schemes of its family whose Group is a multiple of it.
const groupStep = 32

// groupStreamBytes is the destination size from which the amd64 group kernels store with
// non-temporal stores, which bypass the caches, when the destination is aligned to a vector: a
// dequantized weight that large does not stay in a last-level cache of 32 MiB anyway, and the
// stores then save the destination's read for ownership (docs/perf/README.md, "Group
// dequantization"). Tests lower it to run those stores on small buffers.
var groupStreamBytes int64 = 32 << 20

// The families of the group rows: NNCF's modes (nncfModes) with the group left out, named by
// their variables in the rows, the kernels' names and the stubs (go generate reads them by name).
var (
	int8Asym = Scheme{Code: element.U8, Zero: element.U8, Scale: element.F16, Compute: element.F16}
	int8Sym  = Scheme{Code: element.I8, Scale: element.F16, Compute: element.F16}
	int4Asym = Scheme{Code: element.U4, Zero: element.U4, Scale: element.F16, Compute: element.F16}
	int4Sym  = Scheme{Code: element.I4, Scale: element.F16, Compute: element.F16}
	mxfp4F16 = Scheme{Code: element.F4E2M1, Scale: element.F8E8M0, Compute: element.F16}
	nf4F16   = Scheme{Code: element.NF4, Scale: element.F16, Compute: element.F16}
	fp4F16   = Scheme{Code: element.F4E2M1, Scale: element.F16, Compute: element.F16}
	// fp8F32 is f8e4m3 codes with an f32 scale computed in f32: DeepSeek's FP8 weight blocks
	// and compressed-tensors' FP8 weights, one row of a tile at a time (DequantizeTiles).
	fp8F32 = Scheme{Code: element.F8E4M3, Scale: element.F32}
)

// families lists the families by their variables' names.
var families = map[string]Scheme{"int8Asym": int8Asym, "int8Sym": int8Sym, "int4Asym": int4Asym, "int4Sym": int4Sym, "mxfp4F16": mxfp4F16, "nf4F16": nf4F16, "fp4F16": fp4F16, "fp8F32": fp8F32}

// withGroup returns s with groups of group elements: a scheme of family s.
func (s Scheme) withGroup(group int) Scheme {
	s.Group = group
	return s
}

// pathSet is a set of SIMD paths, bit p for kernels.Path p.
type pathSet uint8

// The SIMD paths as sets, for the rows' paths column.
const (
	onAVX2   pathSet = 1 << kernels.AVX2
	onAVX512 pathSet = 1 << kernels.AVX512
	onNEON   pathSet = 1 << kernels.NEON
	onAll            = onAVX2 | onAVX512 | onNEON
)

// maxPaths bounds the kernels.Path values a pathSet and the dispatch table hold.
const maxPaths = 8

// has reports whether p is in the set.
func (s pathSet) has(p kernels.Path) bool { return p < maxPaths && s&(1<<p) != 0 }

// row describes the kernels of one scheme, value type and direction.
type row struct {
	scheme Scheme
	// typ is the values' type: the destination of a dequantizer, the source of a quantizer.
	typ element.Type
	// decode: the row's kernels dequantize (Dequantize); otherwise they quantize (Quantize).
	decode bool
	// grouped: the row is a family's (its scheme's Group is 0), its kernels groupFuncs.
	grouped bool
	// paths are the SIMD paths with a kernel for the row.
	paths pathSet
	// loop is the pure-Go call that every kernel of the row computes for steps·32 elements (a
	// group row's: groups·group elements): the buffers and counts are the kernel's arguments.
	loop string
}

// registry lists the rows, in the order of docs/kernels.md.
var registry = []row{
	{scheme: MXFP4, typ: element.F32, decode: true, paths: onAll, loop: "decodeGeneric(dst, element.F32, codes, scales, MXFP4, steps*32)"},
	{scheme: MXFP4, typ: element.F16, decode: true, paths: onAll, loop: "decodeGeneric(dst, element.F16, codes, scales, MXFP4, steps*32)"},
	{scheme: MXFP4, typ: element.BF16, decode: true, paths: onAll, loop: "decodeGeneric(dst, element.BF16, codes, scales, MXFP4, steps*32)"},
	{scheme: NVFP4, typ: element.F32, decode: true, paths: onAll, loop: "decodeGeneric(dst, element.F32, codes, scales, NVFP4, steps*32)"},
	{scheme: NVFP4, typ: element.F16, decode: true, paths: onAll, loop: "decodeGeneric(dst, element.F16, codes, scales, NVFP4, steps*32)"},
	{scheme: NVFP4, typ: element.BF16, decode: true, paths: onAll, loop: "decodeGeneric(dst, element.BF16, codes, scales, NVFP4, steps*32)"},
	{scheme: MXFP8E4M3, typ: element.F32, decode: true, paths: onAll, loop: "decodeGeneric(dst, element.F32, codes, scales, MXFP8E4M3, steps*32)"},
	{scheme: MXFP8E4M3, typ: element.F16, decode: true, loop: "decodeGeneric(dst, element.F16, codes, scales, MXFP8E4M3, steps*32)"},
	{scheme: MXFP8E4M3, typ: element.BF16, decode: true, paths: onAll, loop: "decodeGeneric(dst, element.BF16, codes, scales, MXFP8E4M3, steps*32)"},
	{scheme: MXFP8E5M2, typ: element.F32, decode: true, loop: "decodeGeneric(dst, element.F32, codes, scales, MXFP8E5M2, steps*32)"},
	{scheme: MXFP8E5M2, typ: element.F16, decode: true, loop: "decodeGeneric(dst, element.F16, codes, scales, MXFP8E5M2, steps*32)"},
	{scheme: MXFP8E5M2, typ: element.BF16, decode: true, loop: "decodeGeneric(dst, element.BF16, codes, scales, MXFP8E5M2, steps*32)"},

	{scheme: int4Asym, typ: element.F16, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F16, Data{Codes: codes, Scales: scales, Zeros: zeros}, int4Asym.withGroup(group), groups*group)"},
	{scheme: int4Asym, typ: element.F32, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F32, Data{Codes: codes, Scales: scales, Zeros: zeros}, int4Asym.withGroup(group), groups*group)"},
	{scheme: int4Sym, typ: element.F16, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F16, Data{Codes: codes, Scales: scales}, int4Sym.withGroup(group), groups*group)"},
	{scheme: int4Sym, typ: element.F32, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F32, Data{Codes: codes, Scales: scales}, int4Sym.withGroup(group), groups*group)"},
	{scheme: int8Asym, typ: element.F16, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F16, Data{Codes: codes, Scales: scales, Zeros: zeros}, int8Asym.withGroup(group), groups*group)"},
	{scheme: int8Asym, typ: element.F32, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F32, Data{Codes: codes, Scales: scales, Zeros: zeros}, int8Asym.withGroup(group), groups*group)"},
	{scheme: int8Sym, typ: element.F16, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F16, Data{Codes: codes, Scales: scales}, int8Sym.withGroup(group), groups*group)"},
	{scheme: int8Sym, typ: element.F32, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F32, Data{Codes: codes, Scales: scales}, int8Sym.withGroup(group), groups*group)"},
	{scheme: mxfp4F16, typ: element.F16, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F16, Data{Codes: codes, Scales: scales}, mxfp4F16.withGroup(group), groups*group)"},
	{scheme: mxfp4F16, typ: element.F32, decode: true, grouped: true, paths: onAll, loop: "decodeGroups(dst, element.F32, Data{Codes: codes, Scales: scales}, mxfp4F16.withGroup(group), groups*group)"},
	{scheme: nf4F16, typ: element.F16, decode: true, grouped: true, paths: onAVX2 | onAVX512, loop: "decodeGroups(dst, element.F16, Data{Codes: codes, Scales: scales}, nf4F16.withGroup(group), groups*group)"},
	{scheme: nf4F16, typ: element.F32, decode: true, grouped: true, paths: onAVX2 | onAVX512, loop: "decodeGroups(dst, element.F32, Data{Codes: codes, Scales: scales}, nf4F16.withGroup(group), groups*group)"},
	{scheme: fp4F16, typ: element.F16, decode: true, grouped: true, paths: onAVX2 | onAVX512, loop: "decodeGroups(dst, element.F16, Data{Codes: codes, Scales: scales}, fp4F16.withGroup(group), groups*group)"},
	{scheme: fp4F16, typ: element.F32, decode: true, grouped: true, paths: onAVX2 | onAVX512, loop: "decodeGroups(dst, element.F32, Data{Codes: codes, Scales: scales}, fp4F16.withGroup(group), groups*group)"},

	{scheme: fp8F32, typ: element.BF16, decode: true, grouped: true, paths: onAVX2 | onAVX512, loop: "decodeGroups(dst, element.BF16, Data{Codes: codes, Scales: scales}, fp8F32.withGroup(group), groups*group)"},
	{scheme: fp8F32, typ: element.F32, decode: true, grouped: true, paths: onAVX2 | onAVX512, loop: "decodeGroups(dst, element.F32, Data{Codes: codes, Scales: scales}, fp8F32.withGroup(group), groups*group)"},

	{scheme: MXFP4, typ: element.F32, paths: onAll, loop: "encodeGeneric(codes, scales, MXFP4, src, element.F32, steps*32)"},
	{scheme: MXFP4, typ: element.F16, loop: "encodeGeneric(codes, scales, MXFP4, src, element.F16, steps*32)"},
	{scheme: MXFP4, typ: element.BF16, loop: "encodeGeneric(codes, scales, MXFP4, src, element.BF16, steps*32)"},
	{scheme: NVFP4, typ: element.F32, loop: "encodeGeneric(codes, scales, NVFP4, src, element.F32, steps*32)"},
	{scheme: NVFP4, typ: element.F16, loop: "encodeGeneric(codes, scales, NVFP4, src, element.F16, steps*32)"},
	{scheme: NVFP4, typ: element.BF16, loop: "encodeGeneric(codes, scales, NVFP4, src, element.BF16, steps*32)"},
	{scheme: MXFP8E4M3, typ: element.F32, loop: "encodeGeneric(codes, scales, MXFP8E4M3, src, element.F32, steps*32)"},
	{scheme: MXFP8E4M3, typ: element.F16, loop: "encodeGeneric(codes, scales, MXFP8E4M3, src, element.F16, steps*32)"},
	{scheme: MXFP8E4M3, typ: element.BF16, loop: "encodeGeneric(codes, scales, MXFP8E4M3, src, element.BF16, steps*32)"},
	{scheme: MXFP8E5M2, typ: element.F32, loop: "encodeGeneric(codes, scales, MXFP8E5M2, src, element.F32, steps*32)"},
	{scheme: MXFP8E5M2, typ: element.F16, loop: "encodeGeneric(codes, scales, MXFP8E5M2, src, element.F16, steps*32)"},
	{scheme: MXFP8E5M2, typ: element.BF16, loop: "encodeGeneric(codes, scales, MXFP8E5M2, src, element.BF16, steps*32)"},
}

// decodeFunc dequantizes steps·32 elements; the caller has checked every length.
type decodeFunc func(dst, codes, scales []byte, steps int)

// encodeFunc quantizes steps·32 elements; the caller has checked every length.
type encodeFunc func(codes, scales, src []byte, steps int)

// groupFunc dequantizes groups whole groups of group elements of its row's family (group a
// multiple of groupStep, at least groupStep): codes, scales and zeros (empty for a family without
// zero points) start at the call's first group; the caller has checked every length.
type groupFunc func(dst, codes, scales, zeros []byte, groups, group int)

// kernelSpec binds an architecture's kernel to its row: a block dequantizer (decode set), a
// block quantizer (encode set) or a group dequantizer (group set) of scheme and typ on path.
type kernelSpec struct {
	path   kernels.Path
	scheme Scheme
	typ    element.Type
	decode decodeFunc
	encode encodeFunc
	group  groupFunc
}

// rowKey identifies a row.
type rowKey struct {
	scheme Scheme
	typ    element.Type
	decode bool
}

// bound is the dispatch table's entry for a row: its kernels by path, for the paths the CPU
// runs.
type bound struct {
	row    *row
	decode [maxPaths]decodeFunc
	encode [maxPaths]encodeFunc
	group  [maxPaths]groupFunc
}

// dispatch is a dispatch table: for each scheme of the rows, its rows' entries by direction (0
// quantize, 1 dequantize) and value type (valueIndex), in an open-addressed hash table keyed by
// schemeKey: a lookup is a multiplication, a shift and, almost always, one comparison.
type dispatch struct {
	slots [dispatchSlots]struct {
		key  uint64 // schemeKey, 0 for an empty slot
		rows *[2][3]*bound
	}
}

// dispatchSlots is the size of a dispatch table: a power of two, at least twice the schemes.
const dispatchSlots = 64

// table is the dispatch table of the registry, with the kernels of this architecture
// (kernelList, ownPaths) for the paths the CPU runs.
var table = bindKernels(registry, kernelList(), ownPaths, pathAvailable)

// schemeKey packs a scheme whose group is in 0..maxGroup (0: a family's) into one non-zero word (an f32
// compute type counts as the zero value, as Scheme.norm spells it). A Scheme lives in memory,
// whose bytes were just stored one by one: schemeKey reads them one by one through a pointer,
// because a copy of the struct (a by-value argument) or a merged wide load of them (shifts that
// are multiples of 8) would wait for store forwarding to fail (about 10 ns a call).
func schemeKey(s *Scheme) uint64 {
	c := s.Compute
	if c == element.F32 {
		c = element.Dynamic
	}
	k := uint64(s.Group) | uint64(s.Code)<<21 | uint64(s.Scale)<<26 | uint64(s.Scale2)<<31 | uint64(s.Zero)<<36 | uint64(c)<<41
	if s.ScalarZero {
		k |= 1 << 46
	}
	if s.Scale2Divides {
		k |= 1 << 47
	}
	if s.E8M0Inf {
		k |= 1 << 48
	}
	return k
}

// slot returns the first slot to probe for key.
func slot(key uint64) int { return int((key * 0x9E3779B97F4A7C15) >> (64 - 6) & (dispatchSlots - 1)) }

// valueIndex returns the index of a value type in a dispatch entry: f32 0, f16 1, bf16 2, and
// -1 for any other type.
func valueIndex(t element.Type) int {
	switch t {
	case element.F32:
		return 0
	case element.F16:
		return 1
	case element.BF16:
		return 2
	}
	return -1
}

// direction returns the index of a direction in a dispatch entry.
func direction(decode bool) int {
	if decode {
		return 1
	}
	return 0
}

// scheme returns t's entries for scheme s, nil when no row has s (nor when s's group is out of
// range; a group of 0 is a family's).
func (t *dispatch) scheme(s Scheme) *[2][3]*bound {
	if s.Group < 0 || s.Group > maxGroup {
		return nil
	}
	k := schemeKey(&s)
	for i := slot(k); ; i = (i + 1) & (dispatchSlots - 1) {
		switch t.slots[i].key {
		case k:
			return t.slots[i].rows
		case 0:
			return nil
		}
	}
}

// entry returns t's entry for the row of s, typ and the direction, or nil when there is no such
// row (a scheme that is not named, a type other than f32, f16, bf16).
func (t *dispatch) entry(s Scheme, typ element.Type, decode bool) *bound {
	v := valueIndex(typ)
	if v < 0 {
		return nil
	}
	e := t.scheme(s)
	if e == nil {
		return nil
	}
	return e[direction(decode)][v]
}

// lookup returns the registry's entry for the row of s, typ and the direction, or nil: the block
// row of s itself, or else, for a dequantizer whose group is a multiple of groupStep, the group
// row of its family.
func lookup(s Scheme, typ element.Type, decode bool) *bound { return table.find(s, typ, decode) }

// find is lookup in t.
func (t *dispatch) find(s Scheme, typ element.Type, decode bool) *bound {
	if s.Group < 1 {
		return nil
	}
	if e := t.entry(s, typ, decode); e != nil || !decode || s.Group%groupStep != 0 {
		return e
	}
	return t.entry(s.withGroup(0), typ, decode)
}

// newTable returns a table with an entry for every row of rows and no kernels. It panics when
// two rows share a key, a row's scheme or type cannot be a key, or the rows have more schemes
// than half the table's slots.
func newTable(rows []row) *dispatch {
	t := new(dispatch)
	used := 0
	for i := range rows {
		r := &rows[i]
		v := valueIndex(r.typ)
		if v < 0 || r.grouped != (r.scheme.Group == 0) || r.grouped && !r.decode || r.scheme.Group < 0 || r.scheme.Group > maxGroup {
			panic(fmt.Sprintf("quant: registry row %s: a value type other than f32, f16, bf16, a group out of range, or a group row with a group or quantizing", r))
		}
		e := t.scheme(r.scheme)
		if e == nil {
			if used++; 2*used > dispatchSlots {
				panic("quant: more registry schemes than the dispatch table holds; raise dispatchSlots")
			}
			k := schemeKey(&r.scheme)
			j := slot(k)
			for t.slots[j].key != 0 {
				j = (j + 1) & (dispatchSlots - 1)
			}
			e = new([2][3]*bound)
			t.slots[j].key, t.slots[j].rows = k, e
		}
		if e[direction(r.decode)][v] != nil {
			panic(fmt.Sprintf("quant: two registry rows for %s", r))
		}
		e[direction(r.decode)][v] = &bound{row: r}
	}
	return t
}

// String names the row as the docs do: "mxfp4 → f32" for a dequantizer, "f32 → mxfp4" for a
// quantizer, "int4_asym/32k → f16" for a group row (its family, groups of a multiple of 32).
func (r *row) String() string {
	s := r.scheme.String()
	if r.scheme.Group == 0 {
		s = strings.TrimSuffix(s, "/0") + "/" + strconv.Itoa(groupStep) + "k"
	}
	if r.decode {
		return s + " → " + r.typ.String()
	}
	return r.typ.String() + " → " + s
}

// bindKernels returns the dispatch table of rows with the kernels of specs of the paths for
// which runs is true. It panics when the kernels and the rows disagree: a kernel whose scheme,
// type and direction have no row, or whose row does not name its path, or that is not one of
// the architecture's paths (own); a kernel with both or neither function; two kernels for one
// row and path; a kernel for a scheme whose group does not divide a step; a group kernel for a
// block row or a block kernel for a group row; or a row that names one of own's paths without
// a kernel on it. Every test binary runs it, so a disagreement fails
// every test on the architecture whatever the CPU runs.
func bindKernels(rows []row, specs []kernelSpec, own pathSet, runs func(kernels.Path) bool) *dispatch {
	t := newTable(rows)
	have := map[rowKey]pathSet{}
	for _, s := range specs {
		decode := s.encode == nil
		k := rowKey{s.scheme, s.typ, decode}
		e := t.entry(s.scheme, s.typ, decode)
		name := (&row{scheme: s.scheme, typ: s.typ, decode: decode}).String()
		set := 0
		for _, f := range []bool{s.decode != nil, s.encode != nil, s.group != nil} {
			if f {
				set++
			}
		}
		switch {
		case set != 1:
			panic(fmt.Sprintf("quant: %s kernel for %s: exactly one of decode, encode and group must be set", s.path, name))
		case e == nil:
			panic(fmt.Sprintf("quant: %s kernel for %s has no registry row", s.path, name))
		case !e.row.paths.has(s.path) || !own.has(s.path):
			panic(fmt.Sprintf("quant: registry row %s does not name %s", name, s.path))
		case have[k].has(s.path):
			panic(fmt.Sprintf("quant: two %s kernels for %s", s.path, name))
		case e.row.grouped != (s.group != nil):
			panic(fmt.Sprintf("quant: %s kernel for %s: a group kernel for a block row, or a block kernel for a group row", s.path, name))
		case !e.row.grouped && (s.scheme.Group <= 0 || step%s.scheme.Group != 0):
			panic(fmt.Sprintf("quant: %s kernel for %s: group %d does not divide a step of %d", s.path, name, s.scheme.Group, step))
		}
		have[k] |= 1 << s.path
		if runs(s.path) {
			e.decode[s.path], e.encode[s.path], e.group[s.path] = s.decode, s.encode, s.group
		}
	}
	for _, r := range rows {
		k := rowKey{r.scheme, r.typ, r.decode}
		if missing := r.paths & own &^ have[k]; missing != 0 {
			for p := kernels.Path(0); p < maxPaths; p++ {
				if missing.has(p) {
					panic(fmt.Sprintf("quant: registry row %s names %s, which has no kernel for it", &r, p))
				}
			}
		}
	}
	return t
}
