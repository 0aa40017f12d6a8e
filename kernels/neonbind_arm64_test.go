//go:build gc && !purego

package kernels

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestNEONKernelsBindDocumented checks that arm64Kernels binds each pair to a kernel whose
// documentation (checked against the registry by TestNEONStubLoops) names that pair.
func TestNEONKernelsBindDocumented(t *testing.T) {
	docs := neonStubDocs(t)
	for _, s := range arm64Kernels() {
		full := strings.TrimSuffix(runtime.FuncForPC(reflect.ValueOf(s.f).Pointer()).Name(), ".abi0")
		name := full[strings.LastIndexByte(full, '.')+1:]
		d, ok := docs[name]
		switch {
		case !ok:
			t.Errorf("%s → %s: bound to %s, which documents no registry pair", s.from, s.to, full)
		case d.from != s.from || d.to != s.to:
			t.Errorf("%s → %s: bound to %s, documented as pair %s → %s", s.from, s.to, name, d.from, d.to)
		}
	}
}
