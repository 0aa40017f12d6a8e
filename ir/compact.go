package ir

import (
	"io"
	"slices"
	"sort"
	"strconv"
)

// CompactWeights lays the model's constant data out anew so that Save writes only what its
// Consts use: the bytes [offset, offset+size) of each Const of the model's graph, in file
// order, each distinct range once (Consts that share a range keep sharing it), with no gaps.
// Each Const's offset attribute is updated. Nothing is read or copied until Save (or ConstData)
// asks for the bytes, so the cost is a table of ranges, whatever the size of the data.
//
// The model is left as it is when it has Loop, TensorIterator or other layers with a <body> (the
// Consts of a body index the same data, and keeping every byte keeps their offsets valid), and
// when the Consts' ranges overlap so that the compacted data would be larger than the data as
// it stands: the result is never larger. A Const whose range runs past the end of the data is an
// error naming it, and the model is then unchanged.
func (m *Model) CompactWeights() error {
	for _, l := range m.Layers {
		for _, n := range append(slices.Clip(l.Head), l.Tail...) {
			if n.Kind == ElementNode && n.Name == "body" {
				return nil
			}
		}
	}
	total, _, err := m.weightsSize()
	if err != nil {
		return err
	}
	type rng struct{ off, size int64 }
	newOff := map[rng]int64{}
	var segs []segment
	var size int64
	type update struct {
		l   *Layer
		off int64
	}
	var updates []update
	for _, l := range m.Layers {
		if l.Type != "Const" {
			continue
		}
		ci, err := m.ConstInfo(l)
		if err != nil {
			return err
		}
		if ci.Offset+ci.Size > total {
			return m.errorf(l.Line, l, "Const data [%d, %d) runs past the end of %s (%d bytes)", ci.Offset, ci.Offset+ci.Size, m.weightsName(), total)
		}
		r := rng{ci.Offset, ci.Size}
		off, ok := newOff[r]
		if !ok {
			off = size
			newOff[r] = off
			if ci.Size > 0 {
				segs = append(segs, segment{at: off, from: ci.Offset, size: ci.Size})
			}
			size += ci.Size
		}
		updates = append(updates, update{l, off})
	}
	if size > total {
		// Overlapping ranges, each written on its own, would take more than the data does.
		return nil
	}
	src := m.dataReader()
	for _, u := range updates {
		u.l.SetDataAttr("offset", strconv.FormatInt(u.off, 10))
	}
	w := &weightData{Name: m.weightsName(), r: &segmentReader{segs: segs, src: src, size: size}, size: size}
	w.once.Do(func() {})
	m.weights = w
	m.appended = nil
	return nil
}

// dataReader reads the model's constant data as it stands: the .bin followed by the data Fold
// and CompressToF16 added.
func (m *Model) dataReader() io.ReaderAt {
	base, haveBase, _ := m.baseSize()
	var bin io.ReaderAt
	if haveBase {
		bin, _, _ = m.weights.load()
	} else {
		base = 0
	}
	return concatReader{bin: bin, base: base, tail: m.appended}
}

// concatReader reads base bytes from bin followed by tail.
type concatReader struct {
	bin  io.ReaderAt
	base int64
	tail []byte
}

func (c concatReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := readBelow(c.bin, c.base, p, off)
	if err != nil {
		return n, err
	}
	off += int64(n)
	if n < len(p) {
		t := off - c.base
		if t >= int64(len(c.tail)) {
			return n, io.EOF
		}
		got := copy(p[n:], c.tail[t:])
		n += got
		if n < len(p) {
			return n, io.EOF
		}
	}
	return n, nil
}

// segment maps [at, at+size) of the compacted data to [from, from+size) of the source.
type segment struct{ at, from, size int64 }

// segmentReader reads the compacted data: segments sorted by at, back to back from 0 to size.
type segmentReader struct {
	segs []segment
	src  io.ReaderAt
	size int64
}

func (s *segmentReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := 0
	i := sort.Search(len(s.segs), func(i int) bool { return s.segs[i].at+s.segs[i].size > off })
	for n < len(p) && i < len(s.segs) {
		sg := s.segs[i]
		in := off - sg.at
		k := min(int64(len(p)-n), sg.size-in)
		got, err := readAtFull(s.src, p[n:n+int(k)], sg.from+in)
		n += got
		if err != nil {
			return n, err
		}
		off += k
		i++
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// readAtFull reads len(p) bytes at off: a short read is an error, io.ErrUnexpectedEOF when r
// reports none or only io.EOF, since the data was expected to be there.
func readAtFull(r io.ReaderAt, p []byte, off int64) (int, error) {
	n, err := r.ReadAt(p, off)
	if n < len(p) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return n, err
	}
	return n, nil
}

// readBelow reads from r the part of p at off that lies below limit (none when off ≥ limit) and
// returns how many bytes that is.
func readBelow(r io.ReaderAt, limit int64, p []byte, off int64) (int, error) {
	if off >= limit {
		return 0, nil
	}
	return readAtFull(r, p[:min(int64(len(p)), limit-off)], off)
}
