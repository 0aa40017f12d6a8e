package safetensors

import (
	"errors"
	"fmt"
)

// The kinds of error Parse, Open and the Writer return, for errors.Is. Each names one rule of
// the format; the reference Rust reader (huggingface/safetensors, tensor.rs) has an error of the
// same name for every rule but ErrDuplicateName.
var (
	// ErrHeaderTooSmall: the file is shorter than the 8 bytes of the header length.
	ErrHeaderTooSmall = errors.New("file too small for a safetensors header")
	// ErrHeaderTooLarge: the header length exceeds MaxHeaderSize.
	ErrHeaderTooLarge = errors.New("header length exceeds 100,000,000 bytes")
	// ErrInvalidHeaderLength: the header length runs past the end of the file.
	ErrInvalidHeaderLength = errors.New("header length runs past the end of the file")
	// ErrInvalidHeader: the header is not UTF-8.
	ErrInvalidHeader = errors.New("header is not valid UTF-8")
	// ErrInvalidHeaderStart: the header does not start with '{' (after any whitespace).
	ErrInvalidHeaderStart = errors.New("header does not start with '{'")
	// ErrInvalidHeaderDeserialization: the header is not a JSON object of tensor entries, or an
	// entry lacks a field or has one of the wrong kind.
	ErrInvalidHeaderDeserialization = errors.New("header is not a valid JSON description of tensors")
	// ErrInvalidMetadata: "__metadata__" is not an object mapping strings to strings.
	ErrInvalidMetadata = errors.New(`"__metadata__" is not a map of strings to strings`)
	// ErrUnknownDType: a dtype name that is not one of the format's 22.
	ErrUnknownDType = errors.New("unknown dtype")
	// ErrInvalidOffset: the tensors' data_offsets, sorted, do not start at 0 and tile the data
	// with no gap or overlap, or an end precedes its begin.
	ErrInvalidOffset = errors.New("data offsets leave a gap or overlap")
	// ErrValidationOverflow: the element count or bit count overflows 64 bits.
	ErrValidationOverflow = errors.New("tensor size overflows")
	// ErrMisalignedSlice: the tensor's bits do not make whole bytes (4- and 6-bit dtypes).
	ErrMisalignedSlice = errors.New("tensor bits are not whole bytes")
	// ErrTensorInvalidInfo: end − begin differs from the bytes the dtype and shape take.
	ErrTensorInvalidInfo = errors.New("data offsets do not match dtype and shape")
	// ErrMetadataIncompleteBuffer: the data does not end exactly at the end of the file.
	ErrMetadataIncompleteBuffer = errors.New("data does not end at the end of the file")
	// ErrDuplicateName: two tensors have the same name. The Rust reader keeps one of them
	// silently; this package refuses the file.
	ErrDuplicateName = errors.New("duplicate tensor name")
	// ErrIncomplete: a Writer committed before every data byte was written.
	ErrIncomplete = errors.New("not every tensor byte was written")
)

// Error is the error of a file, and of a tensor in it when Tensor is not empty. Err is one of
// the package's Err values, or an I/O error.
type Error struct {
	File   string
	Tensor string
	Err    error
	// Detail says what was found, for the message.
	Detail string
}

func (e *Error) Error() string {
	s := e.File
	if e.Tensor != "" {
		s += fmt.Sprintf(": tensor %q", e.Tensor)
	}
	s += ": " + e.Err.Error()
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

func fail(file, tensor string, err error, format string, args ...any) error {
	return &Error{File: file, Tensor: tensor, Err: err, Detail: fmt.Sprintf(format, args...)}
}
