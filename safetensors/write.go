package safetensors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"sync"

	"github.com/convertpromote/convertpromote/internal/atomicfile"
)

// Decl declares a tensor a Writer will write.
type Decl struct {
	Name  string
	DType DType
	Shape []int64
}

// Writer writes one safetensors file. Every tensor is declared when the Writer is made, so the
// header, with each tensor's offsets, is written first and the data after it, in pieces:
// sequentially with Write, or at data offsets with WriteAt from several goroutines at once.
// No tensor needs to be held whole.
//
// The layout is the one the reference writer produces: the tensors packed back to back in the
// order declared; the header a JSON object starting with '{', "__metadata__" first when there
// is metadata (keys sorted), then the tensors in data order, padded with spaces so that its
// length is a multiple of 8.
type Writer struct {
	name    string
	w       io.WriterAt
	af      *atomicfile.File
	dataOff int64
	size    int64
	tensors []Tensor
	mu      sync.Mutex
	pos     int64      // the next byte of a sequential Write
	written [][2]int64 // merged, sorted ranges of data bytes written
	// wb takes ranges (file offset, length) to start writing to disk; a goroutine of its own
	// does it, so that a converting goroutine never waits on the disk queue. Nil once stopped.
	wb     chan [2]int64
	wbDone chan struct{}
}

// Create starts writing the file path: a temporary file beside it that Commit renames onto
// path once every data byte has been written, so that path never holds a partial file. path's
// directory must exist.
func Create(path string, tensors []Decl, metadata map[string]string) (*Writer, error) {
	hdr, tt, size, err := header(path, tensors, metadata)
	if err != nil {
		return nil, err
	}
	af, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	w := &Writer{name: path, w: af.File, af: af, dataOff: int64(len(hdr)), size: size, tensors: tt}
	if writebackSupported {
		w.wb, w.wbDone = make(chan [2]int64, 64), make(chan struct{})
		go func(f *os.File, ranges <-chan [2]int64, done chan<- struct{}) {
			for r := range ranges {
				startWriteback(f, r[0], r[1])
			}
			close(done)
		}(af.File, w.wb, w.wbDone)
	}
	if _, err := af.WriteAt(hdr, 0); err != nil {
		af.Abort()
		return nil, &Error{File: path, Err: err}
	}
	return w, nil
}

// NewWriter writes a safetensors file into w, header first (see Writer), with no temporary
// file: Commit only checks that every data byte was written.
func NewWriter(w io.WriterAt, tensors []Decl, metadata map[string]string) (*Writer, error) {
	hdr, tt, size, err := header("safetensors writer", tensors, metadata)
	if err != nil {
		return nil, err
	}
	if _, err := w.WriteAt(hdr, 0); err != nil {
		return nil, &Error{File: "safetensors writer", Err: err}
	}
	return &Writer{name: "safetensors writer", w: w, dataOff: int64(len(hdr)), size: size, tensors: tt}, nil
}

// header returns the header bytes (length included) and the tensors with their offsets.
func header(file string, decls []Decl, metadata map[string]string) ([]byte, []Tensor, int64, error) {
	var b bytes.Buffer
	b.WriteString("{")
	first := true
	if len(metadata) > 0 {
		keys := make([]string, 0, len(metadata))
		for k := range metadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString(`"__metadata__":{`)
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(&b, k)
			b.WriteByte(':')
			writeJSONString(&b, metadata[k])
		}
		b.WriteString("}")
		first = false
	}
	seen := map[string]bool{}
	tt := make([]Tensor, len(decls))
	var at int64
	for i, d := range decls {
		if d.Name == "__metadata__" {
			return nil, nil, 0, fail(file, d.Name, ErrInvalidHeaderDeserialization, "reserved name")
		}
		if seen[d.Name] {
			return nil, nil, 0, fail(file, d.Name, ErrDuplicateName, "")
		}
		seen[d.Name] = true
		if d.DType.Bits() == 0 {
			return nil, nil, 0, fail(file, d.Name, ErrUnknownDType, "%q", d.DType)
		}
		n, err := byteSize(d.DType, d.Shape)
		if err != nil {
			return nil, nil, 0, &Error{File: file, Tensor: d.Name, Err: err, Detail: shapeString(Tensor{DType: d.DType, Shape: d.Shape})}
		}
		if n > uint64(1<<62-at) {
			return nil, nil, 0, fail(file, d.Name, ErrValidationOverflow, "data exceeds 2^62 bytes")
		}
		tt[i] = Tensor{Name: d.Name, DType: d.DType, Shape: append([]int64{}, d.Shape...), Begin: at, End: at + int64(n)}
		at += int64(n)
		if !first {
			b.WriteByte(',')
		}
		first = false
		writeJSONString(&b, d.Name)
		b.WriteString(`:{"dtype":"` + string(d.DType) + `","shape":[`)
		for j, v := range d.Shape {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatInt(v, 10))
		}
		fmt.Fprintf(&b, `],"data_offsets":[%d,%d]}`, tt[i].Begin, tt[i].End)
	}
	b.WriteString("}")
	for b.Len()%8 != 0 {
		b.WriteByte(' ')
	}
	if b.Len() > MaxHeaderSize {
		return nil, nil, 0, fail(file, "", ErrHeaderTooLarge, "%d bytes", b.Len())
	}
	out := make([]byte, 8+b.Len())
	n := uint64(b.Len())
	for i := 0; i < 8; i++ {
		out[i] = byte(n >> (8 * i))
	}
	copy(out[8:], b.Bytes())
	return out, tt, at, nil
}

// writeJSONString writes s as a JSON string, without escaping <, > and & (as serde_json writes
// it, so that files match the Rust writer's bytes).
func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}

// Tensors returns the declared tensors with their offsets.
func (w *Writer) Tensors() []Tensor { return w.tensors }

// DataOffset returns the file offset of the data: 8 + the header length.
func (w *Writer) DataOffset() int64 { return w.dataOff }

// DataSize returns the number of data bytes the declared tensors take.
func (w *Writer) DataSize() int64 { return w.size }

// Write writes p at the next data byte of a sequential write (the first call at data byte 0).
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	off := w.pos
	w.pos += int64(len(p))
	w.mu.Unlock()
	return w.WriteAt(p, off)
}

// WriteAt writes p at data byte off (0 is the first byte of the first tensor). Writes past the
// data are refused. It is safe for concurrent use.
func (w *Writer) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 || off > w.size || int64(len(p)) > w.size-off {
		return 0, fail(w.name, "", io.ErrShortWrite, "write of %d bytes at data byte %d of %d", len(p), off, w.size)
	}
	n, err := w.w.WriteAt(p, w.dataOff+off)
	if n > 0 {
		w.mark(off, off+int64(n))
		if n >= writebackMin {
			w.mu.Lock()
			if w.wb != nil {
				select {
				case w.wb <- [2]int64{w.dataOff + off, int64(n)}:
				default: // the disk is behind: Commit's flush writes these
				}
			}
			w.mu.Unlock()
		}
	}
	if err != nil {
		return n, &Error{File: w.name, Err: err}
	}
	return n, nil
}

// writebackMin is the smallest write whose writeback starts at once (see startWriteback): the
// chunks of a conversion, not a header's worth of small tensors.
const writebackMin = 1 << 20

// mark records [a, b) as written, merging it into the sorted list of written ranges.
func (w *Writer) mark(a, b int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := w.written
	i := sort.Search(len(r), func(i int) bool { return r[i][1] >= a })
	j := i
	for j < len(r) && r[j][0] <= b {
		a, b = min(a, r[j][0]), max(b, r[j][1])
		j++
	}
	w.written = append(r[:i], append([][2]int64{{a, b}}, r[j:]...)...)
}

// Commit finishes the file: an error wrapping ErrIncomplete unless every data byte was
// written; then, for a Writer from Create, the file is flushed to disk and renamed onto its
// path. After an error the temporary file is removed.
func (w *Writer) Commit() error {
	w.mu.Lock()
	complete := w.size == 0 || len(w.written) == 1 && w.written[0] == [2]int64{0, w.size}
	var covered int64
	for _, r := range w.written {
		covered += r[1] - r[0]
	}
	w.mu.Unlock()
	if !complete {
		w.Abort()
		return fail(w.name, "", ErrIncomplete, "%d of %d data bytes written", covered, w.size)
	}
	if w.af == nil {
		return nil
	}
	w.stopWriteback()
	err := atomicfile.Commit(w.af)
	w.af = nil
	return err
}

// stopWriteback ends the writeback goroutine and waits for it, before the file is closed.
func (w *Writer) stopWriteback() {
	w.mu.Lock()
	wb := w.wb
	w.wb = nil
	w.mu.Unlock()
	if wb != nil {
		close(wb)
		<-w.wbDone
	}
}

// Abort discards the file: the temporary file of a Writer from Create is removed and its path
// left as it was. It does nothing after Commit, so that it can be deferred.
func (w *Writer) Abort() {
	if w.af != nil {
		w.stopWriteback()
		w.af.Abort()
		w.af = nil
	}
}
