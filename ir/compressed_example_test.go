package ir_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/convertpromote/convertpromote/ir"
)

func ExampleModel_CompressedWeights() {
	m, err := ir.Read("../testdata/ir/compressed/int_modes.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	ws, err := m.CompressedWeights()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range ws {
		fmt.Printf("%s: %s codes %s, scheme %s, %s%v for %s\n", w.Mode, w.CodeType, w.Codes.Name, w.Scheme, w.Type, w.Shape, w.Consumer.Name)
	}
	for _, s := range ir.SummarizeCompressed(ws) {
		fmt.Println(s)
	}
	// Output:
	// int8_asym: u8 codes a, scheme int8_asym/8, f32[4 8] for mm_a
	// int8_sym: i8 codes b, scheme int8_sym/8, f32[4 8] for mm_b
	// int4_asym: u4 codes c, scheme int4_asym/4, f32[4 8] for mm_c
	// int4_sym: i4 codes d, scheme int4_sym/4, f32[4 8] for mm_d
	// int8_asym: 1 weight, group 8, 44 B stored, 128 B decompressed
	// int8_sym: 1 weight, group 8, 40 B stored, 128 B decompressed
	// int4_asym: 1 weight, group 4, 36 B stored, 128 B decompressed
	// int4_sym: 1 weight, group 4, 32 B stored, 128 B decompressed
}

func ExampleModel_DecompressedData() {
	m, err := ir.Read("../testdata/ir/compressed/int_modes.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	ws, err := m.CompressedWeights()
	if err != nil {
		fmt.Println(err)
		return
	}
	w := ws[2] // int4_asym: (code − zero point) × scale in f16, groups of 4, converted to f32
	data, err := m.DecompressedData(&w)
	if err != nil {
		fmt.Println(err)
		return
	}
	row := make([]float32, w.Shape[1])
	for i := range row {
		row[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	fmt.Println(w.Type, w.Shape, "first row:", row)
	// Output:
	// f32 [4 8] first row: [0.01260376 -0.03149414 0.02520752 -0.01890564 0.051818848 -0.014801025 0.036987305 -0.02960205]
}
