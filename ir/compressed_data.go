package ir

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// DecompressedData computes the weight w (found by CompressedWeights on m): Elements values of
// w.Type, row-major in w.Shape, exactly as evaluating the subgraph node by node gives
// (docs/SEMANTICS.md §9.5). The arithmetic is quant.Dequantize's with w.Scheme, straight into
// w.Type (f32, f16 or bf16; an f64 weight is dequantized into f32, which holds every f16 or f32
// result exactly, and widened); an fp16 weight is kernels.Convert's f16 → f32. Reshape moves no
// data; a Transpose permutes the result. A codebook's values are gathered by index (an index
// past the codebook gives 0, as OpenVINO's reference Gather does) and then scaled like codes;
// a NaN codebook value gives a NaN. It holds the codes, the result and, for
// scales or zero points that broadcast along more than the group, one scale or zero point per
// group in memory.
func (m *Model) DecompressedData(w *CompressedWeight) ([]byte, error) {
	if w == nil || w.Codes == nil || w.Output == nil {
		return nil, fmt.Errorf("ir: DecompressedData: no weight")
	}
	out, err := m.decompress(w)
	if err != nil {
		return nil, err
	}
	if w.Transpose != nil {
		out = transposeBytes(out, w.Type.Bits()/8, w.transposeIn, w.Transpose)
	}
	return out, nil
}

func (m *Model) decompress(w *CompressedWeight) ([]byte, error) {
	ci, codes, err := m.ConstData(w.Codes)
	if err != nil {
		return nil, err
	}
	if ci.Elements != w.Elements || ci.Type != w.CodeType {
		return nil, m.errorf(w.Codes.Line, w.Codes, "the Const is %s %s, the weight was found with %s %s", ci.Type, dimsString(ci.Shape), w.CodeType, dimsString(w.codeDims))
	}
	n := int(w.Elements)
	size, err := w.Type.ByteSize(w.Elements)
	if err != nil {
		return nil, m.errorf(w.Output.Line, w.Output, "%v", err)
	}
	out := make([]byte, size)
	if w.Mode == "fp16" {
		if err := kernels.Convert(out, w.Type, codes, element.F16, n); err != nil {
			return nil, m.errorf(w.Output.Line, w.Output, "%v", err)
		}
		return out, nil
	}
	s := w.Scheme
	_, scales, err := m.ConstData(w.Scale)
	if err != nil {
		return nil, err
	}
	q := quant.Data{Codes: codes}
	groups := s.Groups(n)
	if q.Scales, err = spread(scales, s.Scale, w.scaleDims, w.codeDims, s.Group, groups); err != nil {
		return nil, m.errorf(w.Scale.Line, w.Scale, "%v", err)
	}
	if w.Zero != nil {
		_, zeros, err := m.ConstData(w.Zero)
		if err != nil {
			return nil, err
		}
		zt := s.Zero
		if s.ScalarZero {
			q.Zeros = zeros
		} else {
			if zt == element.U4 {
				// Spread per group as u8: the same values, one a byte.
				nz := int(count(w.zeroDims))
				wide := make([]byte, nz)
				if err := kernels.Convert(wide, element.U8, zeros, element.U4, nz); err != nil {
					return nil, m.errorf(w.Zero.Line, w.Zero, "%v", err)
				}
				zeros, s.Zero = wide, element.U8
			}
			if q.Zeros, err = spread(zeros, s.Zero, w.zeroDims, w.codeDims, s.Group, groups); err != nil {
				return nil, m.errorf(w.Zero.Line, w.Zero, "%v", err)
			}
		}
	}
	if w.Scale2 != nil {
		if _, q.Scale2, err = m.ConstData(w.Scale2); err != nil {
			return nil, err
		}
	}
	if w.Codebook != nil {
		if q, err = m.gatherCodebook(w, q, ci, n); err != nil {
			return nil, err
		}
	}
	to := w.Type
	dst := out
	if to == element.F64 {
		to = element.F32
		dst = make([]byte, 4*n)
	}
	if err := quant.Dequantize(dst, to, q, s, n); err != nil {
		return nil, m.errorf(w.Output.Line, w.Output, "dequantizing %s: %v", s, err)
	}
	if w.Type == element.F64 {
		if err := kernels.Convert(out, element.F64, dst, element.F32, n); err != nil {
			return nil, m.errorf(w.Output.Line, w.Output, "%v", err)
		}
	}
	return out, nil
}

// gatherCodebook replaces the indexes in q.Codes by codes of w.Scheme.Code: the re-coded
// codebook entries, or, without a re-coding, the code −0 with the zero point −v for each
// element (so that −0 − (−v) = v exactly, −0 included).
func (m *Model) gatherCodebook(w *CompressedWeight, q quant.Data, ci ConstInfo, n int) (quant.Data, error) {
	_, data, err := m.ConstData(w.Codebook)
	if err != nil {
		return q, err
	}
	cbci, _ := m.ConstInfo(w.Codebook)
	k := int(cbci.Elements)
	idx := make([]uint16, n)
	switch ci.Type {
	case element.U16:
		for i := range idx {
			idx[i] = binary.LittleEndian.Uint16(q.Codes[2*i:])
		}
	default:
		wide := make([]byte, n)
		if err := kernels.Convert(wide, element.U8, q.Codes, ci.Type, n); err != nil {
			return q, m.errorf(w.Codes.Line, w.Codes, "%v", err)
		}
		for i, c := range wide {
			idx[i] = uint16(c)
		}
	}
	codes := make([]byte, n)
	if w.recode != nil {
		for i, j := range idx {
			codes[i] = w.recode[min(int(j), k)]
		}
		q.Codes = codes
		return q, nil
	}
	// One group per element: the value's negation as the zero point, the code −0.
	C := w.cbType
	es := C.Bits() / 8
	vals := make([]byte, (k+1)*es)
	if err := kernels.Convert(vals, C, data, cbci.Type, k); err != nil {
		return q, m.errorf(w.Codebook.Line, w.Codebook, "%v", err)
	}
	zeros := make([]byte, n*es)
	for i, j := range idx {
		copy(zeros[i*es:], vals[min(int(j), k)*es:][:es])
		zeros[i*es+es-1] ^= 0x80 // the sign bit: −v
		codes[i] = 0x80          // f8e4m3 −0
	}
	// q.Scales were spread one per element, the scheme's group being 1.
	return quant.Data{Codes: codes, Scales: q.Scales, Zeros: zeros}, nil
}

// spread returns one value (of type t) per group of group elements of a tensor of shape
// codes, from src holding a tensor of shape dims that broadcasts onto codes (dims
// right-aligned, 1 where it broadcasts) and is constant within each group. When src is
// already in that order it is returned as it is.
func spread(src []byte, t element.Type, dims, codes []int64, group, groups int) ([]byte, error) {
	es := (t.Bits() + 7) / 8
	if t.IsPacked() {
		es = 0
	}
	n := count(codes)
	// The axes before a0 index the groups (with the group's own split when it is smaller than
	// the run of trailing axes where dims are 1).
	dense := int64(groups) == count(dims)
	if dense {
		return src, nil
	}
	if es == 0 {
		return nil, fmt.Errorf("a packed %s tensor of shape %s cannot be spread per group", t, dimsString(dims))
	}
	out := make([]byte, groups*es)
	// Source strides, 0 along broadcast axes.
	r := len(codes)
	stride := make([]int64, r)
	acc := int64(1)
	for a := r - 1; a >= 0; a-- {
		if dims[a] != 1 {
			stride[a] = acc
		}
		acc *= dims[a]
	}
	idx := make([]int64, r)
	for k := 0; k < groups; k++ {
		// The multi-index of the group's first element.
		e := int64(k) * int64(group)
		if e >= n {
			break
		}
		off := int64(0)
		for a := r - 1; a >= 0; a-- {
			idx[a] = e % codes[a]
			e /= codes[a]
			off += idx[a] * stride[a]
		}
		copy(out[k*es:(k+1)*es], src[off*int64(es):])
	}
	return out, nil
}

// transposeBytes permutes a row-major tensor of elements of es bytes and shape in: output axis
// i is input axis perm[i].
func transposeBytes(src []byte, es int, in, perm []int64) []byte {
	r := len(in)
	out := make([]byte, len(src))
	inStride := make([]int64, r)
	acc := int64(1)
	for a := r - 1; a >= 0; a-- {
		inStride[a] = acc
		acc *= in[a]
	}
	outDims := make([]int64, r)
	st := make([]int64, r) // input stride of each output axis
	for i, p := range perm {
		outDims[i], st[i] = in[p], inStride[p]
	}
	idx := make([]int64, r)
	off := int64(0)
	n := len(src) / es
	for k := 0; k < n; k++ {
		copy(out[k*es:(k+1)*es], src[off*int64(es):])
		for a := r - 1; a >= 0; a-- {
			idx[a]++
			off += st[a]
			if idx[a] < outDims[a] {
				break
			}
			off -= st[a] * idx[a]
			idx[a] = 0
		}
	}
	return out
}

// CompressedSummary is what CompressedWeights found for one mode.
type CompressedSummary struct {
	Mode string
	// Count is the number of weights; Groups their distinct group sizes, ascending (none for
	// fp16).
	Count  int
	Groups []int
	// Stored is the bytes of their codes, scales, zero points and codebooks; Decompressed the
	// bytes of the weights they stand for.
	Stored, Decompressed int64
}

// SummarizeCompressed totals weights by mode, in the order of NNCF's mode list (int8_asym,
// int8_sym, int4_asym, int4_sym, nf4, fp4, fp8_e4m3, mxfp4, mxfp8_e4m3, nvfp4, codebook), then
// other and fp16.
func SummarizeCompressed(ws []CompressedWeight) []CompressedSummary {
	order := []string{"int8_asym", "int8_sym", "int4_asym", "int4_sym", "nf4", "fp4", "fp8_e4m3", "mxfp4", "mxfp8_e4m3", "nvfp4", "codebook", "other", "fp16"}
	var out []CompressedSummary
	for _, mode := range order {
		s := CompressedSummary{Mode: mode}
		for i := range ws {
			w := &ws[i]
			if w.Mode != mode {
				continue
			}
			s.Count++
			s.Stored += w.Stored
			s.Decompressed += w.Decompressed()
			if w.Group > 0 && !slices.Contains(s.Groups, w.Group) {
				s.Groups = append(s.Groups, w.Group)
			}
		}
		if s.Count > 0 {
			slices.Sort(s.Groups)
			out = append(out, s)
		}
	}
	return out
}

// String formats the summary as one line: "int4_asym: 2 weights, group 128, 1.06 MiB stored,
// 4 MiB decompressed" ("group 32, 128" for several group sizes, no group for fp16).
func (s CompressedSummary) String() string {
	var b strings.Builder
	b.WriteString(s.Mode)
	b.WriteString(": ")
	b.WriteString(strconv.Itoa(s.Count))
	if s.Count == 1 {
		b.WriteString(" weight")
	} else {
		b.WriteString(" weights")
	}
	for i, g := range s.Groups {
		if i == 0 {
			b.WriteString(", group ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(g))
	}
	fmt.Fprintf(&b, ", %s stored, %s decompressed", formatBytes(s.Stored), formatBytes(s.Decompressed))
	return b.String()
}

// decompressScratch is the memory DecompressedData holds besides the Consts it reads (Stored)
// and the weight: a Transpose's copy, an f64 weight's f32 values, per-group copies of scales and
// zero points that broadcast along more than the group, u4 zero points widened to u8, and a
// codebook's indexes, codes and second copy. Plan counts it against the budget, so it sits
// beside DecompressedData: the two change together.
func (m *Model) decompressScratch(w *CompressedWeight) int64 {
	var b int64
	if w.Transpose != nil {
		addBytes(&b, w.Decompressed())
	}
	if w.Mode == "fp16" {
		return b
	}
	n := w.Elements
	if w.Type == element.F64 {
		addBytes(&b, 4*n)
	}
	s := w.Scheme
	groups := int64(s.Groups(int(n)))
	per := func(t element.Type) int64 { return int64((t.Bits() + 7) / 8) }
	if groups != count(w.scaleDims) {
		addBytes(&b, groups*per(s.Scale))
	}
	if w.Zero != nil && !s.ScalarZero {
		zt := s.Zero
		if zt == element.U4 {
			addBytes(&b, count(w.zeroDims))
			zt = element.U8
		}
		if groups != count(w.zeroDims) {
			addBytes(&b, groups*per(zt))
		}
	}
	if w.Codebook != nil {
		addBytes(&b, 3*n) // u16 indexes and one code a byte
		if w.CodeType != element.U16 {
			addBytes(&b, n)
		}
		if ci, err := m.ConstInfo(w.Codebook); err == nil {
			addBytes(&b, ci.Need)
			if w.recode == nil {
				es := per(w.cbType)
				addBytes(&b, (ci.Elements+1)*es)
				addBytes(&b, n*es)
			}
		}
	}
	return b
}
