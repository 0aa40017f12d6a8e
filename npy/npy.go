// Package npy reads and writes NumPy .npy files as op.Tensor values: Write stores a tensor of
// any element type with values (types NumPy lacks are widened exactly to one it has), Read and
// ReadFile load the little-endian boolean, integer, float and complex dtypes, C order, within a
// fixed size limit, refusing a malformed file with an error that names the problem.
package npy

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/regfile"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
	"github.com/convertpromote/convertpromote/promote"
)

// storedType returns the element type Write stores t as and its NumPy dtype descr, following
// the mapping in Write's documentation.
func storedType(t element.Type) (element.Type, string, error) {
	switch t {
	case element.Boolean:
		return t, "|b1", nil
	case element.I8:
		return t, "|i1", nil
	case element.I16:
		return t, "<i2", nil
	case element.I32:
		return t, "<i4", nil
	case element.I64:
		return t, "<i8", nil
	case element.U8:
		return t, "|u1", nil
	case element.U16:
		return t, "<u2", nil
	case element.U32:
		return t, "<u4", nil
	case element.U64:
		return t, "<u8", nil
	case element.F16:
		return t, "<f2", nil
	case element.F32:
		return t, "<f4", nil
	case element.F64:
		return t, "<f8", nil
	case element.C64:
		return t, "<c8", nil
	case element.C128:
		return t, "<c16", nil
	case element.BF16, element.F8E4M3, element.F8E5M2, element.F8E8M0, element.F4E2M1, element.NF4,
		element.F8E4M3FNUZ, element.F8E5M2FNUZ:
		return element.F32, "<f4", nil
	case element.U1, element.U2, element.U3, element.U4, element.U6:
		return element.U8, "|u1", nil
	case element.I4:
		return element.I8, "|i1", nil
	case element.C32:
		return element.C64, "<c8", nil
	}
	return t, "", fmt.Errorf("npy: %s tensors cannot be written", t)
}

// Write writes t as a NumPy .npy file (format version 1.0, C order). Types NumPy has are
// stored as they are ('|b1' boolean, '|i1' '<i2' '<i4' '<i8', '|u1' '<u2' '<u4' '<u8', '<f2' f16,
// '<f4' f32, '<f8' f64, '<c8' c64, '<c16' c128). The others are widened exactly to a type NumPy
// has: bf16, f8e4m3, f8e5m2, f8e4m3fnuz, f8e5m2fnuz, f8e8m0, f4e2m1 and nf4 to their decoded f32
// values ('<f4'), the sub-byte unsigned integers u1, u2, u3, u4, u6 to u8 ('|u1'), i4 to i8
// ('|i1'), and c32 to c64. String tensors cannot be written.
func Write(w io.Writer, t op.Tensor) error {
	if !t.Valid() {
		return fmt.Errorf("npy: the tensor is not valid (the zero op.Tensor)")
	}
	st, descr, err := storedType(t.Type())
	if err != nil {
		return err
	}
	if st != t.Type() && !kernels.Supported(t.Type(), st) {
		return fmt.Errorf("npy: %s values cannot be converted to %s", t.Type(), st)
	}
	shapeDims := t.Shape()
	dims := make([]string, len(shapeDims))
	for i, d := range shapeDims {
		dims[i] = strconv.FormatInt(d, 10)
	}
	shape := "(" + strings.Join(dims, ", ")
	if len(dims) == 1 {
		shape += ","
	}
	shape += ")"
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape)
	// Pad with spaces and end with a newline so that the data starts on a 64-byte boundary.
	total := 10 + len(header) + 1
	pad := (64 - total%64) % 64
	header += strings.Repeat(" ", pad) + "\n"
	if len(header) > 65535 {
		return fmt.Errorf("npy: header of %d bytes is too long for format 1.0", len(header))
	}
	var pre [10]byte
	copy(pre[:], "\x93NUMPY\x01\x00")
	binary.LittleEndian.PutUint16(pre[8:], uint16(len(header)))
	if _, err := w.Write(pre[:]); err != nil {
		return err
	}
	if _, err := io.WriteString(w, header); err != nil {
		return err
	}
	if st == t.Type() {
		_, err = w.Write(t.Bytes())
		return err
	}
	return writeConverted(w, t, st)
}

// chunk is how many elements writeConverted converts at a time: a multiple of 8, so that
// every chunk of a sub-byte type starts on a byte (u3 and u6 pack 8 and 4 values in 3 bytes).
const chunk = 64 << 10

// writeConverted writes t's values converted to type to, a chunk at a time, so that writing
// takes a fixed amount of memory however large t is.
func writeConverted(w io.Writer, t op.Tensor, to element.Type) error {
	from, src, n := t.Type(), t.Bytes(), int64(t.Len())
	// Sizes below are of at most n elements of a tensor that exists, so they cannot overflow.
	size := func(typ element.Type, k int64) int64 { b, _ := typ.ByteSize(k); return b }
	dst := make([]byte, size(to, min(n, chunk)))
	for i := int64(0); i < n; i += chunk {
		k := min(n-i, chunk)
		off := size(from, i)
		out := dst[:size(to, k)]
		if err := kernels.Convert(out, to, src[off:off+size(from, k)], from, int(k)); err != nil {
			return fmt.Errorf("npy: %w", err)
		}
		if _, err := w.Write(out); err != nil {
			return err
		}
	}
	return nil
}

// descrs maps the dtype descrs Read accepts to element types.
var descrs = map[string]element.Type{
	"|b1": element.Boolean, "|i1": element.I8, "<i2": element.I16, "<i4": element.I32, "<i8": element.I64,
	"|u1": element.U8, "<u2": element.U16, "<u4": element.U32, "<u8": element.U64,
	"<f2": element.F16, "<f4": element.F32, "<f8": element.F64, "<c8": element.C64, "<c16": element.C128,
	// One-byte types may also be written with '<' or '=' by some writers.
	"<b1": element.Boolean, "<i1": element.I8, "<u1": element.U8, "=b1": element.Boolean, "=i1": element.I8, "=u1": element.U8,
}

// MaxBytes is the most data (1 GiB) that Read accepts in one file.
const MaxBytes = 1 << 30

// Read reads a NumPy .npy file (format 1.0, 2.0 or 3.0) of a little-endian boolean, integer,
// float or complex dtype in C order, holding at most MaxBytes of data. Its header is parsed
// as the Python dict literal it is, with exactly the keys 'descr' (a string), 'fortran_order'
// (True or False) and 'shape' (a tuple of non-negative integers), each once, followed only by
// whitespace. Other dtypes (structured ones included), Fortran order, a malformed header and a
// short file are errors.
func Read(r io.Reader) (op.Tensor, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return op.Tensor{}, fmt.Errorf("npy: %w", err)
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return op.Tensor{}, fmt.Errorf("npy: not a .npy file (bad magic)")
	}
	var hlen int
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return op.Tensor{}, fmt.Errorf("npy: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return op.Tensor{}, fmt.Errorf("npy: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
		if hlen > 1<<20 {
			return op.Tensor{}, fmt.Errorf("npy: header of %d bytes is too long", hlen)
		}
	default:
		return op.Tensor{}, fmt.Errorf("npy: format version %d.%d is not supported", pre[6], pre[7])
	}
	hb := make([]byte, hlen)
	if _, err := io.ReadFull(r, hb); err != nil {
		return op.Tensor{}, fmt.Errorf("npy: header: %w", err)
	}
	h, err := parseHeader(string(hb))
	if err != nil {
		return op.Tensor{}, fmt.Errorf("npy: malformed header %q: %v", clip(string(hb)), err)
	}
	t, ok := descrs[h.descr]
	if !ok {
		return op.Tensor{}, fmt.Errorf("npy: dtype %q is not supported (little-endian bool, int, uint, float and complex are)", h.descr)
	}
	if h.fortranOrder {
		return op.Tensor{}, fmt.Errorf("npy: Fortran-order arrays are not supported")
	}
	shape := h.shape
	n, err := promote.NumElements(shape)
	if err != nil {
		return op.Tensor{}, fmt.Errorf("npy: %w", err)
	}
	size, err := t.ByteSize(n)
	if err != nil {
		return op.Tensor{}, fmt.Errorf("npy: %w", err)
	}
	if size > MaxBytes {
		return op.Tensor{}, fmt.Errorf("npy: %d bytes of data, more than the %d-byte limit", size, MaxBytes)
	}
	data, err := readData(r, size)
	if err != nil {
		return op.Tensor{}, fmt.Errorf("npy: data: %d bytes expected: %w", size, err)
	}
	return op.FromBytes(t, shape, data)
}

// readStep is how much more of a .npy file's data Read allocates at a time.
const readStep = 16 << 20

// readData reads exactly size bytes from r. It grows its buffer as data arrives, at most
// readStep ahead of what has been read, so that a header claiming more data than the file
// holds fails before allocating what it claims.
func readData(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, min(size, readStep))
	for int64(len(data)) < size {
		step := min(size-int64(len(data)), readStep)
		data = slices.Grow(data, int(step))
		got, err := io.ReadFull(r, data[len(data):len(data)+int(step)])
		data = data[:len(data)+got]
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	return data, nil
}

// ErrNotRegular is the error (inside a *fs.PathError) that ReadFile returns for a path that
// names a FIFO, socket, device or directory rather than a regular file. It is the same value as
// ir.ErrNotRegular.
var ErrNotRegular = regfile.ErrNotRegular

// ReadFile reads the .npy file at path (see Read), refusing what is not a regular file with an
// error wrapping ErrNotRegular before it is opened, so that the call never blocks on a FIFO.
func ReadFile(path string) (op.Tensor, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return op.Tensor{}, err
	}
	defer f.Close()
	return Read(f)
}
