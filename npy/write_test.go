package npy

import (
	"bytes"
	"github.com/convertpromote/convertpromote/internal/testkit"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/op"
)

// TestWriteChunked: types NumPy lacks are converted a chunk at a time; the data equals the
// whole tensor converted at once, for lengths that end mid-chunk and mid-byte.
func TestWriteChunked(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, typ := range []element.Type{element.BF16, element.F8E4M3, element.F8E5M2, element.F8E8M0,
		element.F4E2M1, element.NF4, element.U1, element.U2, element.U3, element.U4, element.U6,
		element.I4, element.C32} {
		st, _, _ := storedType(typ)
		for _, n := range []int64{7, chunk + 5} {
			size, _ := typ.ByteSize(n)
			data := make([]byte, size)
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			x, err := op.FromBytes(typ, []int64{n}, data)
			if err != nil {
				t.Fatal(err)
			}
			want, err := x.Convert(st)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Write(&b, x); err != nil {
				t.Fatalf("%s[%d]: %v", typ, n, err)
			}
			if got := b.Bytes()[b.Len()-len(want.Bytes()):]; !bytes.Equal(got, want.Bytes()) {
				t.Errorf("%s[%d]: data differs from the whole tensor converted", typ, n)
			}
		}
	}
}

// TestWriteMemory: writing a u1 tensor as u8 does not allocate its 8-times-larger copy.
func TestWriteMemory(t *testing.T) {
	x, err := op.NewTensor(element.U1, []int64{8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if n := testkit.Allocated(func() { Write(io.Discard, x) }); n > 1<<20 {
		t.Errorf("writing a 1 MiB u1 tensor (8 MiB as u8) allocated %d bytes", n)
	}
}

// A header that claims more data than the file holds fails before the claimed size is
// allocated: the reader allocates as data arrives.
func TestReadShortDataMemory(t *testing.T) {
	header := "{'descr': '|u1', 'fortran_order': False, 'shape': (1073741824,), }"
	header += strings.Repeat(" ", 63-(10+len(header))%64) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	b.WriteByte(byte(len(header)))
	b.WriteByte(byte(len(header) >> 8))
	b.WriteString(header)
	b.Write(make([]byte, 1000))
	var err error
	n := testkit.Allocated(func() { _, err = Read(bytes.NewReader(b.Bytes())) })
	if err == nil || !strings.Contains(err.Error(), "1073741824 bytes expected") {
		t.Fatalf("err = %v, want a short-data error", err)
	}
	if n > 64<<20 {
		t.Errorf("allocated %d bytes for a file of %d bytes", n, b.Len())
	}
}
