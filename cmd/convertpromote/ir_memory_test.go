//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/ir"
)

// vmHWM returns the peak resident set size of this process, in bytes, from /proc/self/status.
func vmHWM() (int64, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}

// childPeakRSS runs the command line args in a child process (see peakChild) under GOGC=100 and
// returns its exit code, stdout, stderr and peak resident set size in bytes.
func childPeakRSS(t *testing.T, args ...string) (int, string, string, int64) {
	t.Helper()
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), peakChild+"="+peakFile, "GOGC=100")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 3:
		t.Skipf("no peak RSS from the child: %s", errb.String())
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	data, err := os.ReadFile(peakFile)
	if err != nil {
		t.Fatal(err)
	}
	peak, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String(), peak
}

// TestIRMarkupRunsPeakRSS runs ir check on 50 MB files whose bulk is tiny comments or processing
// instructions in each place the reader keeps them, and ir run and ir fold on one of them, each
// in a process of its own: the peak RSS stays within 4·B + 128 MiB, B the file's size.
func TestIRMarkupRunsPeakRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 50 MB files and reads each in a child process")
	}
	if raceEnabled {
		t.Skip("-race inflates memory use")
	}
	const total = 50_000_000
	spec, err := os.ReadFile(filepath.Join("..", "..", "ir", "embedded", "spec_examples.xml"))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(filepath.Join("..", "..", "ir", "embedded", "spec_examples.bin"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(spec)
	const netTag, rtInfo = "<net name=\"spec_examples\" version=\"11\">\n", "\t<rt_info />\n"
	if !strings.Contains(src, netTag) || !strings.Contains(src, rtInfo) {
		t.Fatal("spec_examples.xml has changed; update the places of this test")
	}
	places := []struct {
		name string
		put  func(fill string) string
	}{
		{"before <net>", func(f string) string { return strings.Replace(src, netTag, f+netTag, 1) }},
		{"in <net>", func(f string) string { return strings.Replace(src, netTag, netTag+f, 1) }},
		{"in <rt_info>", func(f string) string { return strings.Replace(src, rtInfo, "\t<rt_info>\n"+f+"\t</rt_info>\n", 1) }},
		{"in <meta_data>", func(f string) string {
			return strings.Replace(src, rtInfo, rtInfo+"\t<meta_data>\n"+f+"\t</meta_data>\n", 1)
		}},
		{"after <net>", func(f string) string { return src + f }},
	}
	units := []struct{ name, unit string }{
		{"13-byte comments", "<!--12345-->\n"},
		{"16-byte instructions", "<?p 123456789?>\n"},
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "m.xml")
	if err := os.WriteFile(ir.BinPath(model), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, u := range units {
		fill := strings.Repeat(u.unit, total/len(u.unit))
		for _, p := range places {
			data := p.put(fill)
			if err := os.WriteFile(model, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			b := int64(len(data))
			limit := 4*b + 128<<20
			runs := [][]string{{"ir", "check", model}}
			if p.name == "in <net>" {
				runs = append(runs, []string{"ir", "run", model}, []string{"ir", "fold", model, "-o", filepath.Join(dir, "out.xml")})
			}
			for _, args := range runs {
				code, out, errs, rss := childPeakRSS(t, args...)
				t.Logf("%s %s: %s: peak RSS %d MiB for %d bytes (limit %d MiB)", u.name, p.name, args[1], rss>>20, b, limit>>20)
				if code != 0 {
					t.Errorf("%s %s: %s: exit %d\n%s%s", u.name, p.name, args[1], code, out, errs)
				}
				if rss > limit {
					t.Errorf("%s %s: %s: peak RSS %d bytes, more than 4·B + 128 MiB = %d", u.name, p.name, args[1], rss, limit)
				}
			}
			if p.name == "in <net>" {
				fi, err := os.Stat(filepath.Join(dir, "out.xml"))
				if err != nil || fi.Size() < int64(len(fill)) {
					t.Errorf("%s: the folded model lost the run: %v %v", u.name, fi, err)
				}
			}
		}
	}
}
