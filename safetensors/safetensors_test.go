package safetensors

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// memFile is an in-memory io.WriterAt / io.ReaderAt.
type memFile struct {
	mu sync.Mutex
	b  []byte
}

func (m *memFile) WriteAt(p []byte, off int64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if need := int(off) + len(p); need > len(m.b) {
		m.b = append(m.b, make([]byte, need-len(m.b))...)
	}
	return copy(m.b[off:], p), nil
}

// file builds a file from a header text and data.
func file(hdr string, data []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(hdr)))
	out = append(out, hdr...)
	return append(out, data...)
}

func parse(b []byte) (*File, error) { return Parse(bytes.NewReader(b), int64(len(b)), "t.safetensors") }

func TestWriterExactBytes(t *testing.T) {
	var m memFile
	w, err := NewWriter(&m, []Decl{{"a", F16, []int64{2}}, {"b", U8, []int64{}}}, map[string]string{"format": "pt"})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte{1, 2})
	w.Write([]byte{3, 4, 5})
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	hdr := `{"__metadata__":{"format":"pt"},"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},"b":{"dtype":"U8","shape":[],"data_offsets":[4,5]}}`
	for len(hdr)%8 != 0 {
		hdr += " "
	}
	if want := file(hdr, []byte{1, 2, 3, 4, 5}); !bytes.Equal(m.b, want) {
		t.Fatalf("wrote\n%q\nwant\n%q", m.b, want)
	}
}

func TestRoundTripEveryDType(t *testing.T) {
	var decls []Decl
	for i, d := range DTypes() {
		shape := []int64{2, 4}
		if i%5 == 0 {
			shape = []int64{8, 3, 0} // empty
		}
		decls = append(decls, Decl{Name: fmt.Sprintf("t%02d.%s", i, d), DType: d, Shape: shape})
	}
	decls = append(decls, Decl{Name: "scalar", DType: F32, Shape: []int64{}})
	var m memFile
	w, err := NewWriter(&m, decls, map[string]string{"k": "v", "é": "\"q\""})
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(0); i < w.DataSize(); i++ {
		w.Write([]byte{byte(i * 7)})
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	f, err := parse(m.b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Tensors(), w.Tensors()) {
		t.Fatalf("tensors\n%v\nwant\n%v", f.Tensors(), w.Tensors())
	}
	if !reflect.DeepEqual(f.Metadata(), map[string]string{"k": "v", "é": "\"q\""}) {
		t.Fatalf("metadata %v", f.Metadata())
	}
	for _, tt := range f.Tensors() {
		want := tt.Elements() * int64(tt.DType.Bits()) / 8
		if tt.Bytes() != want {
			t.Errorf("%s: %d bytes, want %d", tt.Name, tt.Bytes(), want)
		}
		p := make([]byte, tt.Bytes())
		if err := f.ReadTensorAt(tt, p, 0); err != nil {
			t.Fatal(err)
		}
		for j := range p {
			if p[j] != byte((tt.Begin+int64(j))*7) {
				t.Fatalf("%s byte %d", tt.Name, j)
			}
		}
	}
	if tt, _ := f.Lookup("scalar"); tt.Elements() != 1 || tt.Bytes() != 4 {
		t.Errorf("scalar: %+v", tt)
	}
	if err := f.ReadTensorAt(f.Tensors()[1], make([]byte, 2), f.Tensors()[1].Bytes()-1); err == nil {
		t.Error("read past a tensor's end succeeded")
	}
}

func TestDTypes(t *testing.T) {
	if len(DTypes()) != 22 {
		t.Fatalf("%d dtypes", len(DTypes()))
	}
	for _, d := range DTypes() {
		el, ok := d.Element()
		if strings.HasPrefix(string(d), "F6_") {
			if ok || d.Bits() != 6 {
				t.Errorf("%s: %v %v bits %d", d, el, ok, d.Bits())
			}
			continue
		}
		if !ok || el.Bits() != d.Bits() {
			t.Errorf("%s: element %v (%d bits), dtype %d bits", d, el, el.Bits(), d.Bits())
		}
		if back, ok := DTypeOf(el); !ok || back != d {
			t.Errorf("DTypeOf(%v) = %v, want %s", el, back, d)
		}
	}
	if DType("F12").Bits() != 0 {
		t.Error("unknown dtype has bits")
	}
}

// TestErrors builds one file for each rule of the format.
func TestErrors(t *testing.T) {
	ok := `{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"short", []byte{1, 2, 3}, ErrHeaderTooSmall},
		{"huge length", binary.LittleEndian.AppendUint64(nil, MaxHeaderSize+1), ErrHeaderTooLarge},
		{"length past end", append(binary.LittleEndian.AppendUint64(nil, 100), "{}"...), ErrInvalidHeaderLength},
		{"not utf8", file("{\"\xff\":1}", nil), ErrInvalidHeader},
		{"not object", file(`[1,2]`, nil), ErrInvalidHeaderStart},
		{"bad json", file(`{"a":}`, nil), ErrInvalidHeaderDeserialization},
		{"trailing", file(`{} x`, nil), ErrInvalidHeaderDeserialization},
		{"no dtype", file(`{"a":{"shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)), ErrInvalidHeaderDeserialization},
		{"no shape", file(`{"a":{"dtype":"F32","data_offsets":[0,4]}}`, make([]byte, 4)), ErrInvalidHeaderDeserialization},
		{"three offsets", file(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4,4]}}`, make([]byte, 4)), ErrInvalidHeaderDeserialization},
		{"negative dim", file(`{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}`, make([]byte, 4)), ErrInvalidHeaderDeserialization},
		{"float dim", file(`{"a":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}}`, make([]byte, 4)), ErrInvalidHeaderDeserialization},
		{"metadata not strings", file(`{"__metadata__":{"a":1}}`, nil), ErrInvalidMetadata},
		{"unknown dtype", file(`{"a":{"dtype":"F12","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)), ErrUnknownDType},
		{"gap", file(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, make([]byte, 8)), ErrInvalidOffset},
		{"overlap", file(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}}`, make([]byte, 6)), ErrInvalidOffset},
		{"end before begin", file(`{"a":{"dtype":"U8","shape":[0],"data_offsets":[0,0]},"b":{"dtype":"U8","shape":[0],"data_offsets":[0,0]},"c":{"dtype":"U8","shape":[1],"data_offsets":[1,0]}}`, nil), ErrInvalidOffset},
		{"overflow", file(`{"a":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}}`, make([]byte, 8)), ErrValidationOverflow},
		{"misaligned", file(`{"a":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}}`, make([]byte, 2)), ErrMisalignedSlice},
		{"f6 misaligned", file(`{"a":{"dtype":"F6_E2M3","shape":[2],"data_offsets":[0,2]}}`, make([]byte, 2)), ErrMisalignedSlice},
		{"wrong size", file(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}`, make([]byte, 4)), ErrTensorInvalidInfo},
		{"data short of eof", file(ok, make([]byte, 9)), ErrMetadataIncompleteBuffer},
		{"data past eof", file(ok, make([]byte, 7)), ErrMetadataIncompleteBuffer},
		{"duplicate", file(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}`, make([]byte, 2)), ErrDuplicateName},
	}
	for _, c := range cases {
		_, err := parse(c.b)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.File != "t.safetensors" || !strings.Contains(err.Error(), "t.safetensors") {
			t.Errorf("%s: error %q does not name the file", c.name, err)
		}
	}
	// Whitespace around the object, unknown fields and a rank-0 tensor are accepted; the F6
	// types take whole bytes for 4 elements.
	good := []string{
		"  \n" + `{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"extra":1}}` + "\t  ",
		`{"__metadata__":null,"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`,
		`{"a":{"dtype":"F6_E3M2","shape":[4,2],"data_offsets":[0,6]},"b":{"dtype":"U8","shape":[2],"data_offsets":[6,8]}}`,
	}
	for _, h := range good {
		if _, err := parse(file(h, make([]byte, 8))); err != nil {
			t.Errorf("%q: %v", h, err)
		}
	}
	// Errors name the tensor.
	_, err := parse(file(`{"w.weight":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}`, make([]byte, 4)))
	if err == nil || !strings.Contains(err.Error(), `"w.weight"`) {
		t.Errorf("error %v does not name the tensor", err)
	}
}

// countingReader records the bytes read.
type countingReader struct {
	r    io.ReaderAt
	read int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.read += len(p)
	return c.r.ReadAt(p, off)
}

func TestHugeHeaderNotRead(t *testing.T) {
	b := binary.LittleEndian.AppendUint64(nil, 1<<40)
	c := &countingReader{r: bytes.NewReader(b)}
	if _, err := Parse(c, 1<<41, "x"); !errors.Is(err, ErrHeaderTooLarge) || c.read > 8 {
		t.Fatalf("err %v after reading %d bytes", err, c.read)
	}
	// A length within the limit but beyond the file is refused before the header is allocated.
	b = binary.LittleEndian.AppendUint64(nil, MaxHeaderSize)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	Parse(bytes.NewReader(b), 16, "x")
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Fatalf("%d bytes allocated", d)
	}
}

func TestRustWriterLayout(t *testing.T) {
	// The Rust writer sorts by dtype alignment then name and pads the header with spaces.
	hdr := `{"__metadata__":{"format":"pt"},"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"BF16","shape":[1,1],"data_offsets":[4,6]}}`
	for len(hdr)%8 != 0 {
		hdr += " "
	}
	f, err := parse(file(hdr, []byte{0, 0, 128, 63, 128, 63}))
	if err != nil {
		t.Fatal(err)
	}
	if f.DataOffset() != int64(8+len(hdr)) || f.Tensors()[0].Name != "b" || f.Tensors()[1].Name != "a" {
		t.Fatalf("%+v", f.Tensors())
	}
}

func TestCreateAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.safetensors")
	w, err := Create(path, []Decl{{"x", F32, []int64{1024}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			w.WriteAt(bytes.Repeat([]byte{byte(i)}, 512), int64(i)*512)
		}(i)
	}
	wg.Wait()
	if _, err := os.Stat(path); err == nil {
		t.Fatal("target exists before Commit")
	}
	if _, err := w.WriteAt([]byte{1}, 4096); err == nil {
		t.Fatal("write past the data succeeded")
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := make([]byte, 1)
	f.ReadTensorAt(f.Tensors()[0], p, 7*512+3)
	if p[0] != 7 {
		t.Fatalf("byte %d", p[0])
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d files in the directory", len(entries))
	}
}

func TestCommitIncomplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.safetensors")
	w, err := Create(path, []Decl{{"x", U8, []int64{10}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same range twice does not count as the whole.
	w.WriteAt(make([]byte, 5), 0)
	w.WriteAt(make([]byte, 5), 0)
	if err := w.Commit(); !errors.Is(err, ErrIncomplete) {
		t.Fatalf("Commit: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("files left: %v", entries)
	}
	w, _ = Create(path, []Decl{{"x", U8, []int64{10}}}, nil)
	w.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("files left after Abort: %v", entries)
	}
}

func TestWriterRejects(t *testing.T) {
	var m memFile
	for _, d := range [][]Decl{
		{{"a", U8, []int64{1}}, {"a", U8, []int64{1}}},
		{{"a", "F12", []int64{1}}},
		{{"a", F4, []int64{3}}},
		{{"__metadata__", U8, []int64{1}}},
	} {
		if _, err := NewWriter(&m, d, nil); err == nil {
			t.Errorf("%v accepted", d)
		}
	}
}

// The files huggingface/safetensors' own tests serialize (tensor.rs, test_serialization and
// test_serialization_fp4): one tensor "attn.0", F32 [1, 2, 3] holding 0..5, and F4 [1, 2], whose
// header is padded with four spaces.
const (
	rustF32 = "\x40\x00\x00\x00\x00\x00\x00\x00" + `{"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}}` +
		"\x00\x00\x00\x00\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40\x00\x00\xa0\x40"
	rustF4 = "\x40\x00\x00\x00\x00\x00\x00\x00" + `{"attn.0":{"dtype":"F4","shape":[1,2],"data_offsets":[0,1]}}    ` + "\x00"
)

func TestRustSerializedBytes(t *testing.T) {
	for _, c := range []struct {
		file string
		decl Decl
	}{{rustF32, Decl{"attn.0", F32, []int64{1, 2, 3}}}, {rustF4, Decl{"attn.0", F4, []int64{1, 2}}}} {
		if _, err := parse([]byte(c.file)); err != nil {
			t.Fatal(err)
		}
		var m memFile
		w, err := NewWriter(&m, []Decl{c.decl}, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(c.file[72:]))
		if err := w.Commit(); err != nil || string(m.b) != c.file {
			t.Errorf("written\n%q\nwant\n%q (%v)", m.b, c.file, err)
		}
	}
	// serde_json writes <, > and & as they are; so does the writer.
	var m memFile
	w, _ := NewWriter(&m, nil, map[string]string{"z": "<&>"})
	w.Commit()
	if !bytes.Contains(m.b, []byte(`"z":"<&>"`)) {
		t.Errorf("%q", m.b)
	}
	// A field twice in an entry is refused, as serde refuses it.
	if _, err := parse(file(`{"a":{"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]}}`, []byte{1})); !errors.Is(err, ErrInvalidHeaderDeserialization) {
		t.Errorf("duplicate field: %v", err)
	}
}
