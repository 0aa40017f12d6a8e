package onnxruntime

import (
	"fmt"

	"github.com/convertpromote/convertpromote/element"
	ort "github.com/yalue/onnxruntime_go"
)

// LibraryEnv names the environment variable that holds the path of the ONNX Runtime shared
// library (libonnxruntime.so.1).
const LibraryEnv = "ONNXRUNTIME_SHARED_LIBRARY_PATH"

// Init loads the ONNX Runtime shared library at path and creates its environment. Call it once
// per process, before NewCast; Shutdown releases the environment.
func Init(path string) error {
	if path == "" {
		return fmt.Errorf("onnxruntime: no library path (set %s)", LibraryEnv)
	}
	ort.SetSharedLibraryPath(path)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("onnxruntime: loading %s: %w", path, err)
	}
	return nil
}

// Version returns the version string of the loaded ONNX Runtime library.
func Version() string { return ort.GetVersion() }

// Shutdown releases the environment Init created.
func Shutdown() error { return ort.DestroyEnvironment() }

// Cast is an ONNX Runtime session that runs one Cast node on the CPU with one thread.
type Cast struct {
	from, to       element.Type
	onnxFrom, onnx DataType
	sess           *ort.DynamicAdvancedSession
}

// NewCast builds the Cast model from from to to with attributes a and opens a session on it.
func NewCast(from, to element.Type, a CastAttrs) (*Cast, error) {
	f, ok := ONNXType(from)
	if !ok {
		return nil, fmt.Errorf("onnxruntime: %v has no ONNX data type", from)
	}
	t, ok := ONNXType(to)
	if !ok {
		return nil, fmt.Errorf("onnxruntime: %v has no ONNX data type", to)
	}
	model, err := CastModel(f, t, a)
	if err != nil {
		return nil, err
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("onnxruntime: session options: %w", err)
	}
	defer opts.Destroy()
	// One thread: the comparison runs beside other work, and a cast is memory-bound anyway.
	if err := opts.SetIntraOpNumThreads(1); err != nil {
		return nil, fmt.Errorf("onnxruntime: session options: %w", err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return nil, fmt.Errorf("onnxruntime: session options: %w", err)
	}
	sess, err := ort.NewDynamicAdvancedSessionWithONNXData(model, []string{"x"}, []string{"y"}, opts)
	if err != nil {
		return nil, fmt.Errorf("onnxruntime: Cast %v → %v (%+v): %w", from, to, a, err)
	}
	return &Cast{from: from, to: to, onnxFrom: f, onnx: t, sess: sess}, nil
}

// Run casts n elements of src into dst. src must hold exactly the from type's ByteSize(n) bytes and
// dst the to type's ByteSize(n) bytes (packed 4-bit types: two elements per byte, low nibble first).
func (c *Cast) Run(dst, src []byte, n int) error {
	if n <= 0 {
		return fmt.Errorf("onnxruntime: Cast of %d elements", n)
	}
	sb, err := c.from.ByteSize(int64(n))
	if err != nil || int64(len(src)) != sb {
		return fmt.Errorf("onnxruntime: Cast %v → %v: source holds %d bytes, %d elements need %d", c.from, c.to, len(src), n, sb)
	}
	db, err := c.to.ByteSize(int64(n))
	if err != nil || int64(len(dst)) != db {
		return fmt.Errorf("onnxruntime: Cast %v → %v: destination holds %d bytes, %d elements need %d", c.from, c.to, len(dst), n, db)
	}
	shape := ort.NewShape(int64(n))
	in, err := ort.NewCustomDataTensor(shape, src, ort.TensorElementDataType(c.onnxFrom))
	if err != nil {
		return fmt.Errorf("onnxruntime: input tensor: %w", err)
	}
	defer in.Destroy()
	out, err := ort.NewCustomDataTensor(shape, dst, ort.TensorElementDataType(c.onnx))
	if err != nil {
		return fmt.Errorf("onnxruntime: output tensor: %w", err)
	}
	defer out.Destroy()
	if err := c.sess.Run([]ort.Value{in}, []ort.Value{out}); err != nil {
		return fmt.Errorf("onnxruntime: Cast %v → %v: %w", c.from, c.to, err)
	}
	return nil
}

// Close ends the session.
func (c *Cast) Close() error { return c.sess.Destroy() }
