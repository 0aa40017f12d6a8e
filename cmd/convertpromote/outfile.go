package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// pendingFile is an output file opened before the work that fills it: creating its temporary
// file in the target's directory proves the path can be written before any time is spent, and
// the rename in commit replaces the target whole or not at all (a symlink at the target is
// replaced, not followed).
type pendingFile struct {
	tmp  *os.File
	path string
	done bool // committed or aborted
}

// createPending checks that path can be written and opens its temporary file.
func createPending(path string) (*pendingFile, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return &pendingFile{tmp: tmp, path: path}, nil
}

// commit writes the output with write, then renames the temporary file onto the target. On any
// failure the target is left as it was and the temporary file is removed.
func (p *pendingFile) commit(write func(io.Writer) error) error {
	p.done = true
	err := write(p.tmp)
	if err == nil {
		err = p.tmp.Chmod(0o644) // CreateTemp makes it 0600; an output is readable like os.Create's
	}
	if err == nil {
		err = p.tmp.Sync()
	}
	if cerr := p.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p.tmp.Name(), p.path)
	}
	if err != nil {
		os.Remove(p.tmp.Name())
		return fmt.Errorf("writing %s: %w", p.path, err)
	}
	return nil
}

// abort removes the temporary file unless commit ran; the target is untouched. A nil p does
// nothing, so that an output that was not asked for needs no check.
func (p *pendingFile) abort() {
	if p == nil || p.done {
		return
	}
	p.done = true
	p.tmp.Close()
	os.Remove(p.tmp.Name())
}
