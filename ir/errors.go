package ir

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/internal/regfile"
)

// ErrNotRegular is the error (inside a *fs.PathError) that Read returns, and that checking or
// running a model returns, when the model's .xml or .bin names a FIFO, socket, device or
// directory rather than a regular file.
var ErrNotRegular = regfile.ErrNotRegular

// Error is one problem found in a model, located in its file. Error() formats it as
// "FILE:LINE: layer ID (NAME): message", leaving out the parts that are unknown.
type Error struct {
	File  string
	Line  int    // 0 when unknown
	Layer *Layer // the layer the problem is about, or nil
	Msg   string
	Err   error // the underlying error, if any (see Unwrap)
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteByte(':')
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	if e.Layer != nil {
		b.WriteString(e.Layer.Label())
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Errors is a list of problems; Check returns it when a model has any.
type Errors []*Error

// Error joins the problems, one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the problems as a slice of errors, so errors.Is and errors.As look into each.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// errorf builds an Error about layer l (which may be nil) at line.
func (m *Model) errorf(line int, l *Layer, format string, a ...any) *Error {
	e := &Error{File: m.File, Line: line, Layer: l, Msg: fmt.Sprintf(format, a...)}
	for _, x := range a {
		if err, ok := x.(error); ok {
			e.Err = err
			break
		}
	}
	return e
}
