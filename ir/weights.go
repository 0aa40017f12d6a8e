package ir

import (
	"errors"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"sync"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/internal/regfile"
	"github.com/convertpromote/convertpromote/promote"
)

// MaxConstBytes is the largest Const that ConstData loads into memory (1 GiB).
const MaxConstBytes = 1 << 30

// weightData is the constant data of a model (its .bin), read with ReadAt: only the bytes a Const
// needs are loaded, and only when asked.
type weightData struct {
	// Name is the .bin path (or a name for in-memory data), for messages.
	Name string

	once sync.Once
	r    io.ReaderAt
	size int64
	err  error
	open func() (io.ReaderAt, int64, error)
}

func fileWeights(path string) *weightData {
	return &weightData{Name: path, open: func() (io.ReaderAt, int64, error) {
		f, err := regfile.Open(path)
		if err != nil {
			return nil, 0, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		// The file stays open for the model's lifetime; ReadAt is safe for concurrent use.
		return f, fi.Size(), nil
	}}
}

// load opens the data on first use.
func (w *weightData) load() (io.ReaderAt, int64, error) {
	w.once.Do(func() {
		if w.open != nil {
			w.r, w.size, w.err = w.open()
		}
	})
	return w.r, w.size, w.err
}

// SetWeights attaches constant data to the model: size bytes readable from r; name is used in
// messages.
func (m *Model) SetWeights(r io.ReaderAt, size int64, name string) {
	w := &weightData{Name: name, r: r, size: size}
	w.once.Do(func() {})
	m.weights = w
}

// baseSize opens the model's .bin if needed and returns its size; ok is false when there is
// none (none attached, or the file does not exist).
func (m *Model) baseSize() (size int64, ok bool, err error) {
	if m.weights == nil {
		return 0, false, nil
	}
	_, size, err = m.weights.load()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, false, nil
		}
		return 0, false, err
	}
	return size, true, nil
}

// weightsSize returns the size of the model's constant data: its .bin (opened if needed) plus
// the data Fold added and Save has not yet written. ok is false when the model has no .bin (none
// attached, or the file does not exist) and no added data; err reports a .bin that exists but
// cannot be read.
func (m *Model) weightsSize() (size int64, ok bool, err error) {
	size, ok, err = m.baseSize()
	if err != nil {
		return 0, false, err
	}
	if len(m.appended) > 0 {
		return size + int64(len(m.appended)), true, nil
	}
	return size, ok, nil
}

// weightsName returns the .bin's path or name ("" when the model has none attached).
func (m *Model) weightsName() string {
	if m.weights == nil {
		if len(m.appended) > 0 {
			return "(constant data in memory)"
		}
		return ""
	}
	return m.weights.Name
}

// ConstInfo is the parsed <data> of a Const layer.
type ConstInfo struct {
	Type   element.Type
	Shape  []int64
	Offset int64
	Size   int64
	// Elements is the element count of Shape; Need is the bytes it takes (ByteSize), 0 for
	// string Consts, whose size is not fixed by their shape.
	Elements, Need int64
}

// ConstInfo parses a Const layer's element_type, shape, offset and size and checks them against
// each other: a static shape whose element count fits int64, and size ≥ the bytes the shape
// needs. It does not look at the .bin (see ConstData).
func (m *Model) ConstInfo(l *Layer) (ConstInfo, error) {
	var ci ConstInfo
	line := l.Line
	if l.Data != nil {
		line = l.Data.Line
	}
	get := func(name string) (string, error) {
		v, ok := l.DataAttr(name)
		if !ok {
			return "", m.errorf(line, l, "Const has no %s attribute", name)
		}
		return v, nil
	}
	et, err := get("element_type")
	if err != nil {
		return ci, err
	}
	if ci.Type, err = parseType(et); err != nil {
		return ci, m.errorf(line, l, "element_type: %v", err)
	}
	if ci.Type == element.Dynamic {
		return ci, m.errorf(line, l, "element_type %q: a Const needs a static element type", et)
	}
	sh, err := get("shape")
	if err != nil {
		return ci, err
	}
	ps, err := promote.ParseShape(sh)
	if err != nil {
		return ci, m.errorf(line, l, "shape: %v", err)
	}
	if ci.Shape, err = ps.Static(); err != nil {
		return ci, m.errorf(line, l, "Const %v", err)
	}
	if ci.Elements, err = promote.NumElements(ci.Shape); err != nil {
		return ci, m.errorf(line, l, "shape %q: %v", sh, err)
	}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"offset", &ci.Offset}, {"size", &ci.Size}} {
		v, err := get(f.name)
		if err != nil {
			return ci, err
		}
		n, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if perr != nil || n < 0 {
			return ci, m.errorf(line, l, "%s=%q is not a non-negative integer", f.name, v)
		}
		*f.dst = n
	}
	if ci.Type != element.String {
		if ci.Need, err = ci.Type.ByteSize(ci.Elements); err != nil {
			return ci, m.errorf(line, l, "shape %q: %v", sh, err)
		}
		if ci.Size < ci.Need {
			return ci, m.errorf(line, l, "size=%d but %d %s elements (shape %q) need %d bytes", ci.Size, ci.Elements, ci.Type, sh, ci.Need)
		}
	}
	if ci.Offset > (1<<63-1)-ci.Size {
		return ci, m.errorf(line, l, "offset %d + size %d overflows int64", ci.Offset, ci.Size)
	}
	return ci, nil
}

// ConstData returns a Const layer's bytes: the Need bytes (Size for string Consts) at Offset in
// the .bin, after checking that [Offset, Offset+Size) lies within it. A missing .bin, a range
// past its end or a Const larger than MaxConstBytes is an error naming the layer.
func (m *Model) ConstData(l *Layer) (ConstInfo, []byte, error) {
	ci, err := m.constRange(l)
	if err != nil {
		return ci, nil, err
	}
	buf := make([]byte, ci.loadSize())
	if err := m.readConst(l, ci, buf); err != nil {
		return ci, nil, err
	}
	return ci, buf, nil
}

// loadSize is the bytes ConstData loads: Need, or Size for a string Const.
func (ci ConstInfo) loadSize() int64 {
	if ci.Type == element.String {
		return ci.Size
	}
	return ci.Need
}

// constRange is ConstInfo plus the checks of ConstData that need no data: the .bin exists,
// [Offset, Offset+Size) lies within it, and the Const is at most MaxConstBytes.
func (m *Model) constRange(l *Layer) (ConstInfo, error) {
	ci, err := m.ConstInfo(l)
	if err != nil {
		return ci, err
	}
	base, haveBase, err := m.baseSize()
	if err != nil {
		return ci, m.errorf(l.Line, l, "Const data is not available: %v", err)
	}
	if !haveBase && len(m.appended) == 0 {
		if m.weights == nil {
			return ci, m.errorf(l.Line, l, "Const data is not available: the model has no .bin")
		}
		return ci, m.errorf(l.Line, l, "Const data is not available: %s does not exist", m.weights.Name)
	}
	size := base + int64(len(m.appended))
	if ci.Offset+ci.Size > size {
		return ci, m.errorf(l.Line, l, "Const data [%d, %d) runs past the end of %s (%d bytes)", ci.Offset, ci.Offset+ci.Size, m.weightsName(), size)
	}
	if n := ci.loadSize(); n > MaxConstBytes {
		return ci, m.errorf(l.Line, l, "Const holds %d bytes, more than the %d-byte limit for loading", n, MaxConstBytes)
	}
	return ci, nil
}

// readConst reads the loadSize() bytes of a Const checked by constRange into buf.
func (m *Model) readConst(l *Layer, ci ConstInfo, buf []byte) error {
	n := int64(len(buf))
	base, _, _ := m.baseSize()
	// The bytes before base come from the .bin, the rest from the data Fold added.
	fromBase := min(n, max(base-ci.Offset, 0))
	if fromBase > 0 {
		r, _, _ := m.weights.load()
		if k, err := r.ReadAt(buf[:fromBase], ci.Offset); int64(k) < fromBase {
			return m.errorf(l.Line, l, "reading Const data from %s: %v", m.weights.Name, err)
		}
	}
	if fromBase < n {
		copy(buf[fromBase:], m.appended[ci.Offset+fromBase-base:])
	}
	return nil
}
