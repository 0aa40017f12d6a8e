package kernels

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// wordLine matches a WORD-encoded instruction in the arm64 assembly: the encoding and the
// instruction its comment names.
var wordLine = regexp.MustCompile(`^\s*WORD\s+\$0x([0-9a-fA-F]{8})\s*(?://\s*(.*))?$`)

// TestARM64WordEncodings disassembles every WORD directive of the *_arm64.s files with
// aarch64-linux-gnu-objdump and checks that it decodes to the instruction, operands included,
// that its comment names. It runs on any host that has the binutils-aarch64-linux-gnu objdump
// and is skipped elsewhere.
func TestARM64WordEncodings(t *testing.T) {
	objdump, err := exec.LookPath("aarch64-linux-gnu-objdump")
	if err != nil {
		t.Skip("aarch64-linux-gnu-objdump not on PATH (package binutils-aarch64-linux-gnu)")
	}
	// The package directory is the working directory under go test; a test binary run elsewhere
	// (qemu-aarch64 from the repository root in CI) finds it from this file's compile-time path.
	files, _ := filepath.Glob("*_arm64.s")
	if len(files) == 0 {
		if _, self, _, ok := runtime.Caller(0); ok {
			files, _ = filepath.Glob(filepath.Join(filepath.Dir(self), "*_arm64.s"))
		}
	}
	if len(files) == 0 {
		t.Fatal("no *_arm64.s files found in the working directory or beside this test's source")
	}
	type word struct {
		where string
		enc   uint32
		want  string
	}
	var words []word
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "WORD") {
				continue
			}
			m := wordLine.FindStringSubmatch(line)
			if m == nil || strings.TrimSpace(m[2]) == "" {
				t.Errorf("%s:%d: WORD without a comment naming its instruction: %q", f, i+1, line)
				continue
			}
			enc, _ := strconv.ParseUint(m[1], 16, 32)
			words = append(words, word{f + ":" + strconv.Itoa(i+1), uint32(enc), normInsn(m[2])})
		}
	}
	if len(words) == 0 {
		t.Fatal("no WORD directives found")
	}
	bin := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(bin[4*i:], w.enc)
	}
	path := filepath.Join(t.TempDir(), "words.bin")
	if err := os.WriteFile(path, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	// Lines look like "   4:\t0e216804 \tfcvtn\tv4.4h, v0.4s".
	got := disassemble(t, objdump, "aarch64", path, normInsn)
	for i, w := range words {
		if got[4*i] != w.want {
			t.Errorf("%s: WORD $0x%08x decodes to %q, the comment says %q", w.where, w.enc, got[i], w.want)
		}
	}
	t.Logf("%d WORD directives checked", len(words))
}

// disassemble runs objdump on the raw machine code in file and returns each instruction,
// normalised by norm, by its byte offset.
func disassemble(t *testing.T, objdump, machine, file string, norm func(string) string) map[int]string {
	t.Helper()
	out, err := exec.Command(objdump, "-D", "-b", "binary", "-m", machine, file).CombinedOutput()
	if err != nil {
		t.Fatalf("objdump: %v\n%s", err, out)
	}
	got := map[int]string{}
	for _, line := range strings.Split(string(out), "\n") {
		p := strings.Split(line, "\t")
		if len(p) < 3 || !strings.HasSuffix(strings.TrimSpace(p[0]), ":") {
			continue
		}
		off, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(p[0]), ":"), 16, 32)
		if err != nil {
			continue
		}
		got[int(off)] = norm(strings.Join(p[2:], " "))
	}
	return got
}

// normInsn upper-cases an instruction, drops objdump's trailing comment and collapses blanks.
func normInsn(s string) string {
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	return strings.ToUpper(strings.Join(strings.Fields(s), " "))
}

// byteLine matches a BYTE directive of the generated amd64 assembly.
var byteLine = regexp.MustCompile(`^\s*BYTE\s+\$0x([0-9a-fA-F]{2})\s*$`)

// TestAMD64ByteEncodings disassembles every instruction that the generated *_amd64.s files spell
// as BYTE directives (the ones the generator, kernels/_asm, cannot spell) with binutils' objdump
// and checks that it decodes to the instruction, operands included, that the comment before the
// bytes names in Go syntax. It is skipped where objdump is not on PATH.
func TestAMD64ByteEncodings(t *testing.T) {
	objdump, err := exec.LookPath("x86_64-linux-gnu-objdump")
	if err != nil {
		if objdump, err = exec.LookPath("objdump"); err != nil {
			t.Skip("objdump not on PATH (package binutils)")
		}
	}
	files, _ := filepath.Glob("*_amd64.s")
	if len(files) == 0 {
		if _, self, _, ok := runtime.Caller(0); ok {
			files, _ = filepath.Glob(filepath.Join(filepath.Dir(self), "*_amd64.s"))
		}
	}
	if len(files) == 0 {
		t.Fatal("no *_amd64.s files found in the working directory or beside this test's source")
	}
	type insn struct {
		where string
		start int
		want  string
	}
	var (
		insns []insn
		bin   []byte
	)
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var (
			name    string // the comment on the line before, "" if none
			inBytes bool   // whether the line before was a BYTE directive
		)
		for i, line := range strings.Split(string(src), "\n") {
			if m := byteLine.FindStringSubmatch(line); m != nil {
				if name == "" {
					t.Errorf("%s:%d: BYTE without a comment naming its instruction", path, i+1)
					continue
				}
				if !inBytes {
					insns = append(insns, insn{path + ":" + strconv.Itoa(i+1), len(bin), normInsn(name)})
				}
				inBytes = true
				b, _ := strconv.ParseUint(m[1], 16, 8)
				bin = append(bin, byte(b))
				continue
			}
			inBytes, name = false, ""
			if trimmed := strings.TrimSpace(line); strings.HasPrefix(trimmed, "//") {
				name = strings.TrimSpace(strings.TrimPrefix(trimmed, "//"))
			}
		}
	}
	if len(insns) == 0 {
		t.Fatal("no BYTE-encoded instructions found in the *_amd64.s files")
	}
	file := filepath.Join(t.TempDir(), "bytes.bin")
	if err := os.WriteFile(file, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	// Lines look like "   0:\t62 f2 77 48 72 c0 \tvcvtne2ps2bf16 %zmm0,%zmm1,%zmm0".
	got := disassemble(t, objdump, "i386:x86-64", file, goSyntax)
	for _, in := range insns {
		if got[in.start] != in.want {
			t.Errorf("%s: the bytes decode to %q, the comment says %q", in.where, got[in.start], in.want)
		}
	}
	t.Logf("%d BYTE-encoded instructions checked", len(insns))
}

// goSyntax turns objdump's AT&T operands into the Go assembler's register names (%zmm1 → Z1),
// whose operand order AT&T shares, and normalises the result as normInsn does.
func goSyntax(s string) string {
	s = regexp.MustCompile(`%([xyz])mm(\d+)`).ReplaceAllStringFunc(s, func(r string) string {
		return strings.ToUpper(r[1:2]) + r[4:]
	})
	return normInsn(strings.ReplaceAll(s, ",", ", "))
}
