// Package atomicfile writes output files so that a reader sees either the old file or the
// complete new one: each output is written to a temporary file in the target's directory,
// flushed to disk, and renamed onto the target only when every output of the operation is
// complete. A failure before the renames leaves every existing target as it was and removes
// the temporary files. A symlink at a target's name is replaced, not followed.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is an output being written: a temporary file beside Path.
type File struct {
	*os.File
	// Path is the target the file replaces on Commit.
	Path   string
	closed bool
	done   bool
}

// Create starts writing the output path: a new temporary file (mode 0644 before the umask) in
// path's directory, which must exist.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	// CreateTemp makes the file 0600; outputs get the mode os.Create would give them.
	if err := f.Chmod(0o644 &^ umask()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return &File{File: f, Path: path}, nil
}

// Abort closes and removes the temporary file, leaving the target as it was. It does nothing
// after Commit, so that it can be deferred.
func (f *File) Abort() {
	if f == nil || f.done {
		return
	}
	f.done = true
	if !f.closed {
		f.File.Close()
	}
	os.Remove(f.File.Name())
}

// finish flushes the file to disk and closes it.
func (f *File) finish() error {
	err := f.File.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	f.closed = true
	if err != nil {
		return fmt.Errorf("writing %s: %w", f.Path, err)
	}
	return nil
}

// Commit completes the outputs: it flushes each file to disk and closes it, and only when all of
// them are complete, and no target is a directory, renames each onto its target in the order
// given, then flushes the targets' directories. On an error every temporary file not yet
// renamed is removed; an error before the first rename leaves every target unchanged.
func Commit(files ...*File) error {
	defer func() {
		for _, f := range files {
			f.Abort()
		}
	}()
	for _, f := range files {
		if err := f.finish(); err != nil {
			return err
		}
	}
	for _, f := range files {
		// A rename onto a directory fails; find out before the first rename.
		if fi, err := os.Lstat(f.Path); err == nil && fi.IsDir() {
			return fmt.Errorf("cannot write %s: it is a directory", f.Path)
		}
	}
	dirs := map[string]bool{}
	for _, f := range files {
		if err := os.Rename(f.File.Name(), f.Path); err != nil {
			return fmt.Errorf("cannot write %s: %w", f.Path, err)
		}
		f.done = true
		dirs[filepath.Dir(f.Path)] = true
	}
	var errs []error
	for dir := range dirs {
		errs = append(errs, syncDir(dir))
	}
	return errors.Join(errs...)
}

// Write writes the output path with write, atomically (Create, then Commit).
func Write(path string, write func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return Commit(f)
}

// Remove removes the file path if it exists (a symlink itself, not its target) and flushes the
// directory, for an output that the operation's result no longer has.
func Remove(path string) error {
	if err := os.Remove(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	return syncDir(filepath.Dir(path))
}
