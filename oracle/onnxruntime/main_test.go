package onnxruntime

import (
	"fmt"
	"os"
	"testing"
)

// ortErr is why ONNX Runtime is unavailable to the tests; nil once Init has succeeded.
var ortErr error

func TestMain(m *testing.M) {
	path := os.Getenv(LibraryEnv)
	if path == "" {
		ortErr = fmt.Errorf("%s is not set", LibraryEnv)
	} else {
		ortErr = Init(path)
	}
	code := m.Run()
	if len(outcome.results) > 0 {
		summary(outcome.results)
	}
	if ortErr == nil {
		Shutdown()
	}
	os.Exit(code)
}

// needORT skips the test when ONNX Runtime could not be loaded, except under CI (CI=true), where
// the comparison must run and a missing library fails the test.
func needORT(t *testing.T) {
	t.Helper()
	if ortErr == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("ONNX Runtime is required under CI=true: %v", ortErr)
	}
	t.Skipf("ONNX Runtime unavailable (%v); set %s to libonnxruntime.so.1 to run the comparison", ortErr, LibraryEnv)
}
