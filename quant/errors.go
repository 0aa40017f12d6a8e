package quant

import "fmt"

// kindError is an error with its own message that errors.Is matches against kind, one of the
// sentinels of package kernels.
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
