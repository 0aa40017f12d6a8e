package ir

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/convertpromote/convertpromote/internal/atomicfile"
)

// appendWeights adds data to the model's constant data and returns its offset: the new bytes
// follow the existing .bin (whose size must be known) and earlier appended data. Save writes
// them out.
func (m *Model) appendWeights(data []byte) (int64, error) {
	base, ok, err := m.baseSize()
	if err != nil {
		return 0, err
	}
	if !ok {
		base = 0
	}
	off := base + int64(len(m.appended))
	m.appended = append(m.appended, data...)
	return off, nil
}

// Save writes the model to xmlPath and its constant data to the .bin beside it (BinPath): the
// original .bin's bytes followed by the data of Consts the model gained (Fold), so existing
// offsets stay valid.
//
// The pair is written atomically: both files go to temporary files in the target directory,
// flushed to disk, and are renamed onto xmlPath and its .bin only when both are complete (the
// .bin first), so that a failure leaves any existing files unchanged and saving over the
// model's own files is safe. A symlink at either name is replaced, not followed. When the model
// has no .bin and gained no data, no .bin is written and an existing file at the .bin's name
// is removed once the .xml is in place, so that the new model is never read with unrelated
// data; an error says when it could not be removed.
func (m *Model) Save(xmlPath string) error {
	binPath := BinPath(xmlPath)
	if fi, err := os.Stat(filepath.Dir(xmlPath)); err != nil || !fi.IsDir() {
		return fmt.Errorf("cannot write %s: directory %s does not exist", xmlPath, filepath.Dir(xmlPath))
	}
	size, haveBin, err := m.baseSize()
	if err != nil {
		return err
	}
	var files []*atomicfile.File
	defer func() {
		for _, f := range files {
			f.Abort()
		}
	}()
	if haveBin || len(m.appended) > 0 {
		bin, err := atomicfile.Create(binPath)
		if err != nil {
			return err
		}
		files = append(files, bin)
		if haveBin {
			r, _, _ := m.weights.load()
			if _, err := io.Copy(bin, io.NewSectionReader(r, 0, size)); err != nil {
				return fmt.Errorf("copying %s to %s: %w", m.weights.Name, binPath, err)
			}
		}
		if _, err := bin.Write(m.appended); err != nil {
			return fmt.Errorf("writing %s: %w", binPath, err)
		}
	}
	xml, err := atomicfile.Create(xmlPath)
	if err != nil {
		return err
	}
	files = append(files, xml)
	if err := m.Write(xml); err != nil {
		return fmt.Errorf("writing %s: %w", xmlPath, err)
	}
	if err := atomicfile.Commit(files...); err != nil {
		return err
	}
	if !haveBin && len(m.appended) == 0 {
		if err := atomicfile.Remove(binPath); err != nil {
			return fmt.Errorf("%s has no constant data, but the older %s beside it could not be removed: %w", xmlPath, binPath, err)
		}
	}
	// The saved model now reads its data from the new .bin.
	m.weights = fileWeights(binPath)
	m.appended = nil
	return nil
}
