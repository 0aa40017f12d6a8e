//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/convertpromote/convertpromote/ir"
)

// fsizeChild names the environment variable that makes the test binary run one command line,
// its arguments, with writes beyond that many bytes per file failing (EFBIG), as on a full disk,
// and exit with the command's code. A limit set in the test process itself would apply to the
// files the testing package writes too.
const fsizeChild = "CONVERTPROMOTE_TEST_FILE_SIZE_LIMIT"

// peakChild names the environment variable that makes the test binary run one command line,
// its arguments, write the process's peak resident set size (VmHWM, in bytes) to the file the
// variable names, and exit with the command's code. The peak is the process's own: the
// ru_maxrss that wait4 reports for a child also counts the parent's pages at the fork.
const peakChild = "CONVERTPROMOTE_TEST_PEAK_RSS"

func TestMain(m *testing.M) {
	if path := os.Getenv(peakChild); path != "" {
		code := runMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		peak, err := vmHWM()
		if err == nil {
			err = os.WriteFile(path, []byte(strconv.FormatInt(peak, 10)), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(code)
	}
	if v := os.Getenv(fsizeChild); v != "" {
		limit, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s=%q: %v\n", fsizeChild, v, err)
			os.Exit(3)
		}
		var old syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: old.Max}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(runMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// cliWithFileSizeLimit runs the command line args in a child process whose writes beyond limit
// bytes per file fail, and returns its exit code and stderr.
func cliWithFileSizeLimit(t *testing.T, limit uint64, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", fsizeChild, limit))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 3:
		t.Skipf("no file size limit: %s", errb.String())
	case errors.As(err, &ee):
		return ee.ExitCode(), errb.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, errb.String()
}

// TestIRWriteFailureKeepsFiles: when the disk fills while run writes an .npy, or fold writes the
// .bin, the files already there are unchanged and no partial file is left.
func TestIRWriteFailureKeepsFiles(t *testing.T) {
	// huge_const.xml with 64 KiB instead of 1 GiB.
	data, err := os.ReadFile(irTestdata(filepath.Join("large", "huge_const.xml")))
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	m := filepath.Join(src, "m.xml")
	os.WriteFile(m, []byte(strings.ReplaceAll(string(data), "1073741824", "65536")), 0o644)
	os.WriteFile(ir.BinPath(m), make([]byte, 65537), 0o644)

	dir := t.TempDir()
	for _, n := range []string{"p0_2.npy", "out.xml", "out.bin"} {
		os.WriteFile(filepath.Join(dir, n), []byte("old "+n), 0o644)
	}
	before := snapshot(t, dir)
	for _, args := range [][]string{
		{"ir", "run", m, "--out", dir},
		{"ir", "fold", m, "-o", filepath.Join(dir, "out.xml")},
	} {
		code, errs := cliWithFileSizeLimit(t, 16<<10, args...)
		if code != 1 || !strings.Contains(errs, "file too large") {
			t.Errorf("%q: exit %d: %s", args, code, errs)
		}
		sameSnapshot(t, strings.Join(args, " "), before, snapshot(t, dir))
	}
	// Without the limit both succeed.
	if code, _, errs := cli(t, "", "ir", "run", m, "--out", dir); code != 0 {
		t.Errorf("run: exit %d: %s", code, errs)
	}
	if fi, err := os.Stat(filepath.Join(dir, "p0_2.npy")); err != nil || fi.Size() < 65536 {
		t.Errorf("p0_2.npy: %v %v", fi, err)
	}
}
