// Package regfile opens files that must be regular files: the model, weight and .npy files the
// library and the command read. A FIFO, socket, device or directory is refused before it is
// opened, so that reading never blocks waiting for a writer or reads without end.
package regfile

import (
	"errors"
	"io/fs"
	"os"
)

// ErrNotRegular is the error (inside a *fs.PathError) that Open returns for a path that names a
// FIFO, socket, device or directory rather than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// Open opens the regular file at path for reading. A FIFO, socket, device or directory is
// refused with ErrNotRegular before it is opened, so that the call never blocks waiting for a
// writer; the file is checked again once open, in case the path was replaced in between, and
// the open itself does not wait on a FIFO that appears there meanwhile.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	f, err := openNoWait(path)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
		}
		return nil, err
	}
	return f, nil
}
