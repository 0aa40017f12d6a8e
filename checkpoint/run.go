package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
	"github.com/convertpromote/convertpromote/safetensors"
)

// Progress is told the input bytes converted so far and the total; calls come from one
// goroutine at a time.
type Progress func(done, total int64)

// ConvertOptions are Convert's settings.
type ConvertOptions struct {
	// To is the type float tensors are cast or dequantized to: element.F32, F16 or BF16.
	To element.Type
	// Skip are path.Match patterns of tensor names copied unchanged.
	Skip []string
	// Threads is the number of goroutines converting at once (0 means 1).
	Threads int
	// Progress, when not nil, is told the progress.
	Progress Progress
}

// QuantizeOptions are Quantize's settings.
type QuantizeOptions struct {
	// Scheme is the scheme to write: DeepSeekFP8 ("fp8-block") is the one supported.
	Scheme string
	// Skip are path.Match patterns of tensor names left as they are.
	Skip     []string
	Threads  int
	Progress Progress
}

// Report says what a conversion wrote.
type Report struct {
	Shards, Tensors   int
	InBytes, OutBytes int64 // tensor data read and written
	// Files are the paths written, in the order written (the index last).
	Files []string
}

// chunkBytes is the most a step reads or writes at a time: each worker holds its input, output,
// scratch and scale chunks; the workers' strips of transposed MXFP4 matrices share stripBytes.
const (
	chunkBytes = 4 << 20
	stripBytes = 64 << 20
)

// MaxMemory is the bound on the buffers a conversion holds with threads goroutines, beyond
// the headers and configuration (each worker: an input chunk, an output chunk, a scratch chunk
// and, for gpt-oss, its share of the strips).
func MaxMemory(threads int) int64 { return int64(max(threads, 1))*4*chunkBytes + stripBytes }

// buffers are one worker's.
type buffers struct{ in, out, tmp, aux, strip []byte }

func grow(b *[]byte, n int) []byte {
	if cap(*b) < n {
		*b = make([]byte, n)
	}
	return (*b)[:n]
}

// task is a piece of a step: elements, rows or a matrix strip [a, b) of it.
type task struct {
	s    *step
	a, b int
	m    int // opMXFP4: the matrix
}

// engine runs one output shard's steps.
type engine struct {
	w        *safetensors.Writer
	offs     []safetensors.Tensor
	progress func(int64)
	threads  int
	path     kernels.Path
}

// run converts every task of plan with e.threads workers and commits the shard.
func (e *engine) run(p *shardPlan) error {
	tasks := make(chan task, 2*e.threads)
	var firstErr error
	var mu sync.Mutex
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range e.threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b buffers
			for t := range tasks {
				if failed.Load() {
					continue
				}
				n, err := e.do(t, &b)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					failed.Store(true)
					continue
				}
				e.progress(n)
			}
		}()
	}
	for i := range p.steps {
		for _, t := range split(&p.steps[i], stripBytes/e.threads) {
			if failed.Load() {
				break
			}
			tasks <- t
		}
	}
	close(tasks)
	wg.Wait()
	if firstErr != nil {
		e.w.Abort()
		return firstErr
	}
	return e.w.Commit()
}

// split cuts a step into tasks of about chunkBytes each.
func split(s *step, strip int) []task {
	var out []task
	cut := func(n, per int) {
		per = max(per, 1)
		for a := 0; a < n; a += per {
			out = append(out, task{s: s, a: a, b: min(n, a+per)})
		}
		if n == 0 {
			out = append(out, task{s: s})
		}
	}
	switch s.kind {
	case opCopy:
		cut(int(s.src.Bytes()), chunkBytes)
	case opCast:
		cut(int(s.src.Elements()), chunkBytes/max(s.from.Bits(), s.to.Bits())*8)
	case opTiles, opGroups:
		cut(s.rows, chunkBytes/max(1, s.cols*4))
	case opQuantize:
		per := max(1, chunkBytes/max(1, s.tiles.TileRows*s.cols*4)) * s.tiles.TileRows
		cut(s.rows, per)
	case opMXFP4:
		w := stripCols(s, strip)
		for m := range s.mats {
			for a := 0; a < s.cols; a += w {
				out = append(out, task{s: s, m: m, a: a, b: min(s.cols, a+w)})
			}
		}
		if s.mats == 0 || s.cols == 0 {
			out = append(out, task{s: s})
		}
	}
	return out
}

// stripCols is the width of the column strips an MXFP4 matrix is transposed in: every column
// when the whole matrix fits strip bytes, else a multiple of 32 (at least 32).
func stripCols(s *step, strip int) int {
	ob := s.to.Bits() / 8
	w := strip / max(1, s.rows*ob) / 32 * 32
	return min(max(w, 32), max(s.cols, 32))
}

// do runs one task and returns the input bytes it consumed.
func (e *engine) do(t task, b *buffers) (int64, error) {
	s := t.s
	out := e.offs[s.out]
	switch s.kind {
	case opCopy:
		p := grow(&b.in, t.b-t.a)
		if err := s.src.Shard.ReadTensorAt(s.src.Tensor, p, int64(t.a)); err != nil {
			return 0, err
		}
		return int64(len(p)), e.write(p, out, int64(t.a))
	case opCast:
		fb, tb := s.from.Bits()/8, s.to.Bits()/8
		n := t.b - t.a
		in := grow(&b.in, n*fb)
		if err := s.src.Shard.ReadTensorAt(s.src.Tensor, in, int64(t.a*fb)); err != nil {
			return 0, err
		}
		o := grow(&b.out, n*tb)
		if err := kernels.WithPath(e.path, 1).Convert(o, s.to, in, s.from, n); err != nil {
			return 0, tensorError(s.src, "%v", err)
		}
		return int64(len(in)), e.write(o, out, int64(t.a*tb))
	case opTiles:
		return e.tiles(t, b)
	case opGroups:
		return e.groups(t, b)
	case opMXFP4:
		return e.mxfp4(t, b)
	case opQuantize:
		return e.quantize(t, b)
	}
	return 0, errors.New("checkpoint: unknown step")
}

// write writes p at byte off of output tensor out.
func (e *engine) write(p []byte, out safetensors.Tensor, off int64) error {
	_, err := e.w.WriteAt(p, out.Begin+off)
	return err
}

// cast converts n values computed in s.via (in src) to s.to in dst, or returns src when the two
// are the same type.
func (e *engine) cast(s *step, b *buffers, src []byte, n int) ([]byte, error) {
	if s.via == s.to {
		return src, nil
	}
	o := grow(&b.tmp, n*s.to.Bits()/8)
	if err := kernels.WithPath(e.path, 1).Convert(o, s.to, src, s.via, n); err != nil {
		return nil, tensorError(s.src, "%v", err)
	}
	return o, nil
}

// tiles dequantizes rows [t.a, t.b) of an FP8 tiled weight.
func (e *engine) tiles(t task, b *buffers) (int64, error) {
	s, tl := t.s, t.s.tiles
	n := (t.b - t.a) * tl.Cols
	codes := grow(&b.in, n)
	if err := s.src.Shard.ReadTensorAt(s.src.Tensor, codes, int64(t.a*tl.Cols)); err != nil {
		return 0, err
	}
	sb := tl.Scale.Bits() / 8
	r0, r1 := t.a/tl.TileRows, (t.b-1)/tl.TileRows
	if n == 0 {
		r1 = r0 - 1
	}
	scales := grow(&b.aux, (r1-r0+1)*tl.GridCols()*sb)
	if err := s.scale.Shard.ReadTensorAt(s.scale.Tensor, scales, int64(r0*tl.GridCols()*sb)); err != nil {
		return 0, err
	}
	o := grow(&b.out, n*s.via.Bits()/8)
	if err := (quant.Codec{Path: e.path}).DequantizeTiles(o, s.via, codes, scales, tl, t.a, t.b-t.a); err != nil {
		return 0, tensorError(s.src, "%v", err)
	}
	o, err := e.cast(s, b, o, n)
	if err != nil {
		return 0, err
	}
	return int64(n), e.write(o, e.offs[s.out], int64(t.a*tl.Cols*s.to.Bits()/8))
}

// groups dequantizes rows [t.a, t.b) of an NVFP4 weight, row by row (a row's groups start on
// its own scale row).
func (e *engine) groups(t task, b *buffers) (int64, error) {
	s := t.s
	rows, half, gpr := t.b-t.a, s.cols/2, ceilDiv(s.cols, s.scheme.Group)
	codes := grow(&b.in, rows*half)
	if err := s.src.Shard.ReadTensorAt(s.src.Tensor, codes, int64(t.a*half)); err != nil {
		return 0, err
	}
	scales := grow(&b.aux, rows*gpr)
	if err := s.scale.Shard.ReadTensorAt(s.scale.Tensor, scales, int64(t.a*gpr)); err != nil {
		return 0, err
	}
	var s2 [4]byte
	if err := s.scale2.Shard.ReadTensorAt(s.scale2.Tensor, s2[:], 0); err != nil {
		return 0, err
	}
	ob := s.to.Bits() / 8
	o := grow(&b.out, rows*s.cols*ob)
	c := quant.Codec{Path: e.path}
	for r := range rows {
		q := quant.Data{Codes: codes[r*half : (r+1)*half], Scales: scales[r*gpr : (r+1)*gpr], Scale2: s2[:]}
		if err := c.Dequantize(o[r*s.cols*ob:(r+1)*s.cols*ob], s.to, q, s.scheme, s.cols); err != nil {
			return 0, tensorError(s.src, "%v", err)
		}
	}
	return int64(len(codes)), e.write(o, e.offs[s.out], int64(t.a*s.cols*ob))
}

// mxfp4 dequantizes columns [t.a, t.b) of matrix t.m of gpt-oss blocks and writes them as rows
// [t.a, t.b) of the transposed output matrix.
func (e *engine) mxfp4(t task, b *buffers) (int64, error) {
	s := t.s
	rows, cols, ob := s.rows, s.cols, s.to.Bits()/8
	w := t.b - t.a
	if w == 0 || rows == 0 {
		return 0, nil
	}
	g0, gw := t.a/32, w/32 // strips start and end on groups of 32
	strip := grow(&b.strip, w*rows*ob)
	rowBytes, rowScales := cols/2, cols/32
	base := int64(t.m) * int64(rows)
	c := quant.Codec{Path: e.path}
	band := max(1, min(rows, chunkBytes/max(1, w*ob)))
	var consumed int64
	for r0 := 0; r0 < rows; r0 += band {
		nr := min(band, rows-r0)
		codes := grow(&b.in, nr*gw*16)
		scales := grow(&b.aux, nr*gw)
		if w == cols { // whole rows: one read each
			if err := s.src.Shard.ReadTensorAt(s.src.Tensor, codes, (base+int64(r0))*int64(rowBytes)); err != nil {
				return 0, err
			}
			if err := s.scale.Shard.ReadTensorAt(s.scale.Tensor, scales, (base+int64(r0))*int64(rowScales)); err != nil {
				return 0, err
			}
		} else {
			for r := range nr {
				row := base + int64(r0+r)
				if err := s.src.Shard.ReadTensorAt(s.src.Tensor, codes[r*gw*16:(r+1)*gw*16], row*int64(rowBytes)+int64(g0*16)); err != nil {
					return 0, err
				}
				if err := s.scale.Shard.ReadTensorAt(s.scale.Tensor, scales[r*gw:(r+1)*gw], row*int64(rowScales)+int64(g0)); err != nil {
					return 0, err
				}
			}
		}
		consumed += int64(len(codes) + len(scales))
		vals := grow(&b.out, nr*w*ob)
		scheme := s.scheme
		if bytes.IndexByte(scales, 0xFF) >= 0 {
			// transformers' 2^128 for the scale 0xFF, on the pure-Go path; the kernels of
			// quant.MXFP4 give the same for every other scale.
			scheme = quant.MXFP4Transformers
		}
		if err := c.Dequantize(vals, s.to, quant.Data{Codes: codes, Scales: scales}, scheme, nr*w); err != nil {
			return 0, tensorError(s.src, "%v", err)
		}
		transpose(strip, vals, ob, nr, w, rows, r0)
	}
	out := e.offs[s.out]
	return consumed, e.write(strip, out, (int64(t.m)*int64(cols)+int64(t.a))*int64(rows)*int64(ob))
}

// transpose writes the nr × w matrix vals (elements of ob bytes: 2 or 4) into the w × rows matrix
// strip as its columns r0..r0+nr, in 32 × 32 blocks so that both sides stay in the cache.
func transpose(strip, vals []byte, ob, nr, w, rows, r0 int) {
	const blk = 32
	for i0 := 0; i0 < nr; i0 += blk {
		for j0 := 0; j0 < w; j0 += blk {
			for i := i0; i < min(nr, i0+blk); i++ {
				for j := j0; j < min(w, j0+blk); j++ {
					s, d := (i*w+j)*ob, (j*rows+r0+i)*ob
					if ob == 2 {
						binary.LittleEndian.PutUint16(strip[d:], binary.LittleEndian.Uint16(vals[s:]))
					} else {
						binary.LittleEndian.PutUint32(strip[d:], binary.LittleEndian.Uint32(vals[s:]))
					}
				}
			}
		}
	}
}

// quantize encodes rows [t.a, t.b) (whole tile rows) of a 2-D weight into FP8 tiles.
func (e *engine) quantize(t task, b *buffers) (int64, error) {
	s, tl := t.s, t.s.tiles
	n := (t.b - t.a) * tl.Cols
	fb := s.from.Bits() / 8
	src := grow(&b.in, n*fb)
	if err := s.src.Shard.ReadTensorAt(s.src.Tensor, src, int64(t.a*tl.Cols*fb)); err != nil {
		return 0, err
	}
	codes := grow(&b.out, n)
	r0, r1 := t.a/tl.TileRows, ceilDiv(t.b, tl.TileRows)
	scales := grow(&b.aux, (r1-r0)*tl.GridCols()*4)
	if err := (quant.Codec{Path: e.path}).QuantizeTiles(codes, scales, tl, src, s.from, t.a, t.b-t.a); err != nil {
		return 0, tensorError(s.src, "%v", err)
	}
	if err := e.write(codes, e.offs[s.out], int64(t.a*tl.Cols)); err != nil {
		return 0, err
	}
	return int64(len(src)), e.write(scales, e.offs[s.out2], int64(r0*tl.GridCols()*4))
}

// runPlans writes the shards of plans into outDir.
func runPlans(plans []shardPlan, outDir string, threads int, progress Progress, path kernels.Path, rep *Report) error {
	var total int64
	for _, p := range plans {
		for _, s := range p.steps {
			total += s.src.Bytes()
		}
	}
	var done atomic.Int64
	var pmu sync.Mutex
	report := func(n int64) {
		d := done.Add(n)
		if progress != nil {
			pmu.Lock()
			progress(d, total)
			pmu.Unlock()
		}
	}
	for i := range plans {
		p := &plans[i]
		outPath := filepath.Join(outDir, p.name)
		w, err := safetensors.Create(outPath, p.decls, p.in.Metadata())
		if err != nil {
			return err
		}
		e := &engine{w: w, offs: w.Tensors(), progress: report, threads: max(threads, 1), path: path}
		if err := e.run(p); err != nil {
			return err
		}
		rep.Shards++
		rep.Tensors += len(p.decls)
		rep.OutBytes += w.DataSize()
		rep.Files = append(rep.Files, outPath)
	}
	rep.InBytes = done.Load()
	return nil
}

// checkOutput refuses an output directory that is the input's, or output files that are input
// files, and creates the directory.
func (c *Checkpoint) checkOutput(outDir string, names []string) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	if same(outDir, c.Dir) {
		return fmt.Errorf("%w: the output directory %s is the input directory %s", ErrSameDir, outDir, c.Dir)
	}
	inputs := []string{}
	for _, f := range c.Shards {
		inputs = append(inputs, f.Name())
	}
	if c.Index != "" {
		inputs = append(inputs, c.Index)
	}
	for _, n := range names {
		for _, in := range inputs {
			if same(filepath.Join(outDir, n), in) {
				return fmt.Errorf("%w: the output %s is the input %s", ErrSameDir, filepath.Join(outDir, n), in)
			}
		}
	}
	return nil
}

func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func baseName(f *safetensors.File) string { return filepath.Base(f.Name()) }
