package quant_test

import (
	"fmt"

	"github.com/convertpromote/convertpromote/quant"
)

func ExampleCompressNNCF() {
	// A weight of 2 rows of 4, compressed as NNCF's int4_asym with one group a row.
	w := []float32{
		-1, -0.5, 0, 1,
		0.25, 0.5, 0.75, 1,
	}
	r, err := quant.CompressNNCF(w, 2, 4, "int4_asym", -1)
	if err != nil {
		panic(err)
	}
	// Row 0: scale 2/15 in float32, zero point −round(−1 / scale) = 7 (the float32 quotient is
	// just above −7.5). Row 1 has no negative value: its zero point −5 is clipped to 0, so 0.75
	// and 1 are clipped to the largest code, as NNCF computes it. u4 codes and zero points are
	// packed two a byte, low nibble first.
	fmt.Printf("%v: codes % x, zero points % x\n", r.Scheme, r.Data.Codes, r.Data.Zeros)
	back := make([]float32, len(w))
	if err := quant.DequantizeF32s(back, r.Data, r.Scheme); err != nil {
		panic(err)
	}
	fmt.Println(back)
	// The same weight as nf4: codes are the nf4 table's entries times max|w| of the group.
	r, _ = quant.CompressNNCF(w, 2, 4, "nf4", 4)
	if err := quant.DequantizeF32s(back, r.Data, r.Scheme); err != nil {
		panic(err)
	}
	fmt.Println(back)
	// Output:
	// int4_asym/4: codes 30 e7 a5 ff, zero points 07
	// [-0.93310547 -0.5332031 0 0.93310547 0.25 0.5 0.75 0.75]
	// [-1 -0.52490234 0 1 0.24609375 0.44067383 0.72314453 1]
}
