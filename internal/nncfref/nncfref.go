// Package nncfref regenerates, for the tests of several packages, the data behind NNCF's
// reference vectors (quant/testdata/nncf, see its SOURCE.md): numpy's default_rng stream
// (SeedSequence and PCG64) and the weights of NNCF's IntegerModel test model drawn from it, and
// reads the reference files.
package nncfref

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"os"
)

// seedSequence returns the first n 32-bit words of numpy's SeedSequence(seed).generate_state:
// the seed's 32-bit words (least significant first; [0] for 0) are hashed into a pool of four
// words, which is then hashed out (numpy's bit_generator.pyx, after M. E. O'Neill's "Improving
// seed_seq").
func seedSequence(seed uint64, n int) []uint32 {
	const (
		initA, multA = 0x43b0d7e5, 0x931e8875
		initB, multB = 0x8b51f9dd, 0x58f38ded
		mixL, mixR   = 0xca01f9dd, 0x4973f715
		xshift       = 16
	)
	entropy := []uint32{uint32(seed)}
	if seed>>32 != 0 {
		entropy = append(entropy, uint32(seed>>32))
	}
	hashConst := uint32(initA)
	hashmix := func(v uint32) uint32 {
		v ^= hashConst
		hashConst *= multA
		v *= hashConst
		return v ^ v>>xshift
	}
	mix := func(x, y uint32) uint32 {
		r := mixL*x - mixR*y
		return r ^ r>>xshift
	}
	var pool [4]uint32
	for i := range pool {
		var e uint32
		if i < len(entropy) {
			e = entropy[i]
		}
		pool[i] = hashmix(e)
	}
	for src := range pool {
		for dst := range pool {
			if src != dst {
				pool[dst] = mix(pool[dst], hashmix(pool[src]))
			}
		}
	}
	out := make([]uint32, n)
	hashConst = initB
	for i := range out {
		v := pool[i%len(pool)]
		v ^= hashConst
		hashConst *= multB
		v *= hashConst
		out[i] = v ^ v>>xshift
	}
	return out
}

// PCG64 is numpy's PCG64 bit generator: a 128-bit linear congruential state with the XSL-RR
// output function.
type PCG64 struct{ hi, lo, incHi, incLo uint64 }

// The 128-bit multiplier 0x2360ED051FC65DA44385DF649FCCF645 (PCG_DEFAULT_MULTIPLIER_128).
const mulHi, mulLo = 0x2360ED051FC65DA4, 0x4385DF649FCCF645

func (p *PCG64) step() {
	h, l := bits.Mul64(p.lo, mulLo)
	h += p.hi*mulLo + p.lo*mulHi
	var c uint64
	p.lo, c = bits.Add64(l, p.incLo, 0)
	p.hi, _ = bits.Add64(h, p.incHi, c)
}

// DefaultRNG returns numpy's default_rng(seed): PCG64 seeded with four 64-bit words of
// SeedSequence(seed) (initial state from words 0 and 1, stream from words 2 and 3, high word
// first), as pcg_setseq_128_srandom_r seeds it.
func DefaultRNG(seed uint64) *PCG64 {
	w := seedSequence(seed, 8)
	u := func(i int) uint64 { return uint64(w[2*i]) | uint64(w[2*i+1])<<32 }
	initHi, initLo, seqHi, seqLo := u(0), u(1), u(2), u(3)
	p := &PCG64{incHi: seqHi<<1 | seqLo>>63, incLo: seqLo<<1 | 1}
	p.step()
	var c uint64
	p.lo, c = bits.Add64(p.lo, initLo, 0)
	p.hi, _ = bits.Add64(p.hi, initHi, c)
	p.step()
	return p
}

// State returns the 128-bit state and increment, high words first.
func (p *PCG64) State() (hi, lo, incHi, incLo uint64) { return p.hi, p.lo, p.incHi, p.incLo }

// Uint64 advances the state and returns the XSL-RR output of the new state.
func (p *PCG64) Uint64() uint64 {
	p.step()
	return bits.RotateLeft64(p.hi^p.lo, -int(p.hi>>58))
}

// Random is numpy's Generator.random(): the top 53 bits of Uint64 times 2^-53, in [0, 1).
func (p *PCG64) Random() float64 { return float64(p.Uint64()>>11) * 0x1p-53 }

// Weight is a row-major float32 matrix.
type Weight struct {
	V          []float32
	Rows, Cols int
}

// IntegerModelWeights regenerates the weights of NNCF's IntegerModel(dim2, dim3,
// positive_w=False) (tests/openvino/native/models.py): from a fresh default_rng(0),
// rng.random(shape)·2 − 1 in float64 rounded to float32, drawn in the order gather_2_data
// [3, dim3], matmul_1_data [dim3, dim3], matmul_2_data [dim3, dim2].
func IntegerModelWeights(dim2, dim3 int) map[string]Weight {
	rng := DefaultRNG(0)
	draw := func(r, c int) Weight {
		v := make([]float32, r*c)
		for i := range v {
			v[i] = float32(rng.Random()*2 - 1)
		}
		return Weight{v, r, c}
	}
	g := draw(3, dim3)
	m1 := draw(dim3, dim3)
	m2 := draw(dim3, dim2)
	return map[string]Weight{"gather_2_data": g, "matmul_1_data": m1, "matmul_2_data": m2}
}

// Case is one mode of NNCF's test_compare_compressed_weights: the mode of matmul_2_data and its
// group size, the backup mode of gather_2_data and matmul_1_data and its group size (−1: per
// row), and IntegerModel's (dim2, dim3).
type Case struct {
	Mode, Backup  string
	Dim2, Dim3    int
	Group, BGroup int
}

// Cases are the ten modes of the reference files.
var Cases = []Case{
	{"int8_asym", "int8_asym", 3, 6, -1, -1},
	{"int8_sym", "int8_sym", 3, 6, -1, -1},
	{"int4_asym", "int8_asym", 3, 6, 3, -1},
	{"int4_sym", "int8_asym", 3, 6, 3, -1},
	{"nf4", "int8_asym", 3, 6, 3, -1},
	{"fp4", "fp8_e4m3", 3, 6, 3, 3},
	{"fp8_e4m3", "fp8_e4m3", 3, 6, 3, 3},
	{"mxfp4", "mxfp8_e4m3", 32, 32, 32, 32},
	{"mxfp8_e4m3", "mxfp8_e4m3", 32, 32, 32, 32},
	{"nvfp4", "int8_asym", 16, 16, 16, -1},
}

// Tensor is one field of a reference file: its shape and its values.
type Tensor struct {
	Shape  []int
	Values []float64
}

// Reference reads the reference file of mode in dir: for each weight name, its fields
// (compressed_weight, scale, zero_point, sec_order_scale).
func Reference(dir, mode string) (map[string]map[string]Tensor, error) {
	path := dir + "/IntegerModel_compressed_weights_" + mode + ".json"
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc map[string]map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[string]map[string]Tensor{}
	for name, fields := range doc {
		out[name] = map[string]Tensor{}
		for f, v := range fields {
			var t Tensor
			if err := flatten(v, 0, &t); err != nil {
				return nil, fmt.Errorf("%s: %s.%s: %w", path, name, f, err)
			}
			out[name][f] = t
		}
	}
	return out, nil
}

// flatten appends the numbers of a nested JSON array to t, recording the shape.
func flatten(x any, depth int, t *Tensor) error {
	switch v := x.(type) {
	case float64:
		t.Values = append(t.Values, v)
		return nil
	case []any:
		if depth == len(t.Shape) {
			t.Shape = append(t.Shape, len(v))
		}
		for _, e := range v {
			if err := flatten(e, depth+1, t); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unexpected %T", x)
}
