package safetensors

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/bits"
	"sort"
	"unicode/utf8"

	"github.com/convertpromote/convertpromote/internal/regfile"
)

// MaxHeaderSize is the largest header length a file may declare (the Rust reader's limit).
const MaxHeaderSize = 100_000_000

// Tensor describes one tensor of a header.
type Tensor struct {
	Name  string
	DType DType
	// Shape is the logical shape: elements, not bytes (an F4 tensor of shape [2, 8] takes 8
	// bytes). A rank-0 tensor has an empty shape and one element.
	Shape []int64
	// Begin and End are the data_offsets: the tensor's bytes are [Begin, End) of the data,
	// which starts right after the header.
	Begin, End int64
}

// Elements returns the number of elements: the product of the shape (1 for rank 0).
func (t Tensor) Elements() int64 {
	n := int64(1)
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Bytes returns the size of the tensor's data.
func (t Tensor) Bytes() int64 { return t.End - t.Begin }

// File is an open safetensors file: its validated header, and its tensors' bytes read on
// demand through ReadTensorAt; the data is never read whole.
type File struct {
	name     string
	r        io.ReaderAt
	closer   io.Closer
	dataOff  int64
	tensors  []Tensor
	byName   map[string]int
	metadata map[string]string
}

// Open opens and validates the safetensors file at path (see Parse). A FIFO, socket, device or
// directory is refused before it is opened. Close the File when done.
func Open(path string) (*File, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &Error{File: path, Err: err}
	}
	sf, err := Parse(f, fi.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	sf.closer = f
	return sf, nil
}

// Parse reads and validates the header of a safetensors file of size bytes read through r;
// name names the file in errors. It reads the 8-byte header length and then the header, one
// read each, and nothing of the data. The rules, each an error of its own (see the Err
// values), are those of the reference Rust reader (huggingface/safetensors):
//
//   - the header length is a little-endian uint64 of at most MaxHeaderSize, and the header
//     fits in the file;
//   - the header is UTF-8 JSON: an object whose optional "__metadata__" entry maps strings to
//     strings and whose every other entry is a tensor {"dtype", "shape", "data_offsets"}, with
//     a dtype among the 22 of DTypes, a shape of non-negative integers and two non-negative
//     integer offsets; other fields of an entry are ignored; whitespace around the object is
//     accepted, as safetensors 0.8 accepts it;
//   - sorted by their offsets, the tensors start at 0 and follow each other with no gap or
//     overlap; each one's size is its element count × the dtype's bits / 8, in whole bytes,
//     with no overflow; the data ends exactly at the end of the file.
//
// Unlike the Rust reader, Parse also refuses a header that names a tensor twice
// (ErrDuplicateName): a JSON map keeps one of the two silently, so two readers could disagree
// on which bytes a name means.
func Parse(r io.ReaderAt, size int64, name string) (*File, error) {
	if size < 8 {
		return nil, fail(name, "", ErrHeaderTooSmall, "%d bytes", size)
	}
	var lenBuf [8]byte
	if _, err := r.ReadAt(lenBuf[:], 0); err != nil {
		return nil, &Error{File: name, Err: err}
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > MaxHeaderSize {
		return nil, fail(name, "", ErrHeaderTooLarge, "%d bytes", n)
	}
	if n > uint64(size-8) {
		return nil, fail(name, "", ErrInvalidHeaderLength, "%d header bytes, %d bytes after the length", n, size-8)
	}
	hdr := make([]byte, n)
	if _, err := r.ReadAt(hdr, 8); err != nil {
		return nil, &Error{File: name, Err: err}
	}
	f := &File{name: name, r: r, dataOff: 8 + int64(n)}
	if err := f.parseHeader(hdr); err != nil {
		return nil, err
	}
	if err := f.validate(size); err != nil {
		return nil, err
	}
	return f, nil
}

// entry is a tensor's description as the header holds it; pointers tell a missing field.
type entry struct {
	DType   *string   `json:"dtype"`
	Shape   *[]uint64 `json:"shape"`
	Offsets *[]uint64 `json:"data_offsets"`
}

func (f *File) parseHeader(hdr []byte) error {
	if !utf8.Valid(hdr) {
		return fail(f.name, "", ErrInvalidHeader, "")
	}
	body := bytes.TrimLeft(hdr, " \t\r\n")
	if len(body) == 0 || body[0] != '{' {
		return fail(f.name, "", ErrInvalidHeaderStart, "")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if _, err := dec.Token(); err != nil {
		return fail(f.name, "", ErrInvalidHeaderDeserialization, "%v", err)
	}
	f.byName = map[string]int{}
	seenMeta := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail(f.name, "", ErrInvalidHeaderDeserialization, "%v", err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fail(f.name, key, ErrInvalidHeaderDeserialization, "%v", err)
		}
		if key == "__metadata__" {
			if seenMeta {
				return fail(f.name, "", ErrInvalidMetadata, `"__metadata__" appears twice`)
			}
			seenMeta = true
			var m map[string]string
			if err := json.Unmarshal(raw, &m); err != nil {
				return fail(f.name, "", ErrInvalidMetadata, "%v", err)
			}
			f.metadata = m
			continue
		}
		if _, dup := f.byName[key]; dup {
			return fail(f.name, key, ErrDuplicateName, "")
		}
		t, err := f.tensor(key, raw)
		if err != nil {
			return err
		}
		f.byName[key] = len(f.tensors)
		f.tensors = append(f.tensors, t)
	}
	if _, err := dec.Token(); err != nil {
		return fail(f.name, "", ErrInvalidHeaderDeserialization, "%v", err)
	}
	// Only whitespace may follow the object.
	if len(bytes.TrimLeft(body[dec.InputOffset():], " \t\r\n")) != 0 {
		return fail(f.name, "", ErrInvalidHeaderDeserialization, "data after the JSON object")
	}
	return nil
}

func (f *File) tensor(name string, raw json.RawMessage) (Tensor, error) {
	if k, dup := duplicateKey(raw); dup {
		return Tensor{}, fail(f.name, name, ErrInvalidHeaderDeserialization, "field %q appears twice", k)
	}
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return Tensor{}, fail(f.name, name, ErrInvalidHeaderDeserialization, "%v", err)
	}
	switch {
	case e.DType == nil:
		return Tensor{}, fail(f.name, name, ErrInvalidHeaderDeserialization, `no "dtype"`)
	case e.Shape == nil:
		return Tensor{}, fail(f.name, name, ErrInvalidHeaderDeserialization, `no "shape"`)
	case e.Offsets == nil || len(*e.Offsets) != 2:
		return Tensor{}, fail(f.name, name, ErrInvalidHeaderDeserialization, `"data_offsets" is not two offsets`)
	}
	d := DType(*e.DType)
	if d.Bits() == 0 {
		return Tensor{}, fail(f.name, name, ErrUnknownDType, "%q", *e.DType)
	}
	t := Tensor{Name: name, DType: d, Shape: make([]int64, len(*e.Shape))}
	for i, v := range *e.Shape {
		if v > math.MaxInt64 {
			return Tensor{}, fail(f.name, name, ErrValidationOverflow, "dimension %d is %d", i, v)
		}
		t.Shape[i] = int64(v)
	}
	b, en := (*e.Offsets)[0], (*e.Offsets)[1]
	if b > math.MaxInt64 || en > math.MaxInt64 {
		return Tensor{}, fail(f.name, name, ErrValidationOverflow, "data_offsets [%d, %d]", b, en)
	}
	t.Begin, t.End = int64(b), int64(en)
	return t, nil
}

// duplicateKey reports a key that appears twice in the JSON object raw (a tensor entry):
// serde, which the Rust reader uses, refuses such an entry, where encoding/json keeps the last.
func duplicateKey(raw []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return "", false
		}
		k, _ := t.(string)
		if seen[k] {
			return k, true
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return "", false
		}
	}
	return "", false
}

// validate checks the offsets, sizes and the end of the data, as the Rust reader does.
func (f *File) validate(size int64) error {
	order := make([]int, len(f.tensors))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ta, tb := f.tensors[order[a]], f.tensors[order[b]]
		if ta.Begin != tb.Begin {
			return ta.Begin < tb.Begin
		}
		return ta.End < tb.End
	})
	sorted := make([]Tensor, len(order))
	var at int64
	for i, k := range order {
		t := f.tensors[k]
		if t.Begin != at || t.End < t.Begin {
			return fail(f.name, t.Name, ErrInvalidOffset, "data_offsets [%d, %d], previous tensor ends at %d", t.Begin, t.End, at)
		}
		nbytes, err := byteSize(t.DType, t.Shape)
		if err != nil {
			return &Error{File: f.name, Tensor: t.Name, Err: err, Detail: shapeString(t)}
		}
		if nbytes != uint64(t.End-t.Begin) {
			return fail(f.name, t.Name, ErrTensorInvalidInfo, "%s needs %d bytes, data_offsets [%d, %d] give %d", shapeString(t), nbytes, t.Begin, t.End, t.End-t.Begin)
		}
		at = t.End
		sorted[i] = t
	}
	if size-f.dataOff != at {
		return fail(f.name, "", ErrMetadataIncompleteBuffer, "tensors end at data byte %d, the file has %d data bytes", at, size-f.dataOff)
	}
	f.tensors = sorted
	for i, t := range sorted {
		f.byName[t.Name] = i
	}
	return nil
}

// byteSize returns the bytes a tensor of dtype d and shape takes, or ErrValidationOverflow or
// ErrMisalignedSlice.
func byteSize(d DType, shape []int64) (uint64, error) {
	n := uint64(1)
	for _, v := range shape {
		if v < 0 {
			return 0, ErrValidationOverflow
		}
		hi, lo := bits.Mul64(n, uint64(v))
		if hi != 0 {
			return 0, ErrValidationOverflow
		}
		n = lo
	}
	hi, nbits := bits.Mul64(n, uint64(d.Bits()))
	if hi != 0 || nbits/8 > math.MaxInt64 {
		return 0, ErrValidationOverflow
	}
	if nbits%8 != 0 {
		return 0, ErrMisalignedSlice
	}
	return nbits / 8, nil
}

func shapeString(t Tensor) string {
	b, _ := json.Marshal(t.Shape)
	return string(t.DType) + " " + string(b)
}

// Name returns the path the file was opened from, or the name given to Parse.
func (f *File) Name() string { return f.name }

// Tensors returns the tensors in the order of their data.
func (f *File) Tensors() []Tensor { return f.tensors }

// Lookup returns the tensor called name.
func (f *File) Lookup(name string) (Tensor, bool) {
	i, ok := f.byName[name]
	if !ok {
		return Tensor{}, false
	}
	return f.tensors[i], true
}

// Metadata returns the "__metadata__" map, nil when the header has none.
func (f *File) Metadata() map[string]string { return f.metadata }

// DataOffset returns the file offset of the data: 8 + the header length.
func (f *File) DataOffset() int64 { return f.dataOff }

// ReadTensorAt reads len(p) bytes of tensor t from byte off of its data. Reading past the
// tensor's end, or a file that ends early (it shrank after Parse), is an error naming the file
// and tensor. It is safe for concurrent use when the underlying reader is (an *os.File is).
func (f *File) ReadTensorAt(t Tensor, p []byte, off int64) error {
	if off < 0 || off > t.Bytes() || int64(len(p)) > t.Bytes()-off {
		return fail(f.name, t.Name, io.ErrUnexpectedEOF, "read of %d bytes at %d of a %d-byte tensor", len(p), off, t.Bytes())
	}
	n, err := f.r.ReadAt(p, f.dataOff+t.Begin+off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return &Error{File: f.name, Tensor: t.Name, Err: err}
}

// Close closes the file opened by Open; it does nothing for a File from Parse.
func (f *File) Close() error {
	if f.closer == nil {
		return nil
	}
	err := f.closer.Close()
	f.closer = nil
	return err
}
