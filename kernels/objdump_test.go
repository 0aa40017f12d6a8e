package kernels

import (
	"testing"

	"github.com/convertpromote/convertpromote/internal/asmcheck"
)

// TestARM64WordEncodings disassembles every WORD directive of the *_arm64.s files with
// aarch64-linux-gnu-objdump and checks that it decodes to the instruction, operands included,
// that its comment names. It runs on any host that has the binutils-aarch64-linux-gnu objdump
// and is skipped elsewhere.
func TestARM64WordEncodings(t *testing.T) { asmcheck.ARM64Words(t, "*_arm64.s") }

// TestAMD64ByteEncodings disassembles every instruction that the *_amd64.s files spell as BYTE
// directives (the ones the generator, kernels/_asm, cannot spell) with binutils' objdump and
// checks that it decodes to the instruction, operands included, that the comment before the
// bytes names in Go syntax. It is skipped where objdump is not on PATH.
func TestAMD64ByteEncodings(t *testing.T) { asmcheck.AMD64Bytes(t, "*_amd64.s") }
