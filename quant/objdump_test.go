package quant

import (
	"os"
	"strings"
	"testing"

	"github.com/convertpromote/convertpromote/internal/asmcheck"
)

// TestARM64WordEncodings disassembles every WORD directive of quant_arm64.s with
// aarch64-linux-gnu-objdump and checks that it decodes to the instruction, operands included,
// that its comment names. It runs on any host that has the binutils-aarch64-linux-gnu objdump
// and is skipped elsewhere. (The amd64 kernels spell every instruction with avo: quant_amd64.s
// has no BYTE directives.)
func TestARM64WordEncodings(t *testing.T) { asmcheck.ARM64Words(t, "*_arm64.s") }

// TestAMD64HasNoBytes: quant_amd64.s spells no instruction as BYTE directives, so that
// package kernels' TestAMD64ByteEncodings is the only one needed; a kernel that needs one would
// add the check here.
func TestAMD64HasNoBytes(t *testing.T) {
	src, err := os.ReadFile("quant_amd64.s")
	if err != nil {
		t.Skip(err)
	}
	if strings.Contains(string(src), "\tBYTE ") || strings.Contains(string(src), "\tBYTE\t") {
		t.Error("quant_amd64.s has BYTE directives: check them with asmcheck.AMD64Bytes")
	}
}
