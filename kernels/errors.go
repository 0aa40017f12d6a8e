package kernels

import (
	"errors"
	"fmt"
)

// The kinds of error Convert, Converter.Convert and the typed helpers return, for errors.Is
// (package quant's calls return them too). Each returned error wraps one of them and carries its
// own message naming the types and sizes involved.
var (
	// ErrUnsupported: the pair has no conversion (a type such as string or dynamic), or the
	// Converter's path is not available on this CPU.
	ErrUnsupported = errors.New("kernels: unsupported conversion")
	// ErrShortBuffer: the source or destination holds fewer bytes than the element count needs.
	ErrShortBuffer = errors.New("kernels: buffer too short")
	// ErrOverlap: the destination and source share memory.
	ErrOverlap = errors.New("kernels: destination and source overlap")
	// ErrLengthMismatch: a typed helper's destination and source hold different numbers of
	// elements (for a packed source, not the number of bytes its destination's count needs).
	ErrLengthMismatch = errors.New("kernels: destination and source lengths differ")
	// ErrInvalid: an argument out of range: a negative element count or one whose byte size
	// overflows int, or Rules with a field out of range.
	ErrInvalid = errors.New("kernels: invalid argument")
)

// kindError is an error with its own message that errors.Is matches against kind.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

// errorf formats a message and marks it as an error of the given kind.
func errorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}
