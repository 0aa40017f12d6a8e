package ir

import (
	"errors"
	"io/fs"
	"os"

	"github.com/convertpromote/convertpromote/op"
)

// ErrNotRegular is the error (inside a *fs.PathError) that OpenFile returns for a path that
// names a FIFO, socket, device or directory rather than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// OpenFile opens the regular file at path for reading. A FIFO, socket, device or directory is
// refused with ErrNotRegular before it is opened, so that the call never blocks waiting for a
// writer; the file is checked again once open, in case the path was replaced in between, and
// the open itself does not wait on a FIFO that appears there meanwhile. Read, the lazy .bin
// and ReadNPYFile open their files with it.
func OpenFile(path string) (*os.File, error) {
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

// ReadNPYFile reads the .npy file at path (see ReadNPY), refusing what is not a regular file
// (see OpenFile).
func ReadNPYFile(path string) (op.Tensor, error) {
	f, err := OpenFile(path)
	if err != nil {
		return op.Tensor{}, err
	}
	defer f.Close()
	return ReadNPY(f)
}
