package ir

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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
// offsets stay valid. When the model has no .bin and gained no data, no .bin is written. Both
// files are written to temporary files first and renamed into place, so saving over the model's
// own files is safe.
func (m *Model) Save(xmlPath string) error {
	binPath := BinPath(xmlPath)
	if fi, err := os.Stat(filepath.Dir(xmlPath)); err != nil || !fi.IsDir() {
		return fmt.Errorf("cannot write %s: directory %s does not exist", xmlPath, filepath.Dir(xmlPath))
	}
	size, haveBin, err := m.baseSize()
	if err != nil {
		return err
	}
	if haveBin || len(m.appended) > 0 {
		tmp, err := os.CreateTemp(filepath.Dir(binPath), ".ir-*.bin")
		if err != nil {
			return err
		}
		tmp.Chmod(0o644)
		err = func() error {
			if haveBin {
				r, _, _ := m.weights.load()
				if _, err := io.Copy(tmp, io.NewSectionReader(r, 0, size)); err != nil {
					return fmt.Errorf("copying %s: %w", m.weights.Name, err)
				}
			}
			if _, err := tmp.Write(m.appended); err != nil {
				return err
			}
			return tmp.Close()
		}()
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return err
		}
		defer func() {
			if tmp != nil {
				os.Remove(tmp.Name())
			}
		}()
		if err := writeRenamed(xmlPath, m.Write); err != nil {
			return err
		}
		if err := os.Rename(tmp.Name(), binPath); err != nil {
			return err
		}
		tmp = nil
	} else if err := writeRenamed(xmlPath, m.Write); err != nil {
		return err
	}
	// The saved model now reads its data from the new .bin.
	m.weights = fileWeights(binPath)
	m.appended = nil
	return nil
}

func writeRenamed(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ir-*.xml")
	if err != nil {
		return err
	}
	tmp.Chmod(0o644)
	if err := write(tmp); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
