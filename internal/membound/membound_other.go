//go:build !gc || purego || !amd64

package membound

// Available reports whether Move runs on this CPU: never without the amd64 assembly.
func Available() bool { return false }

func move21(dst, src []byte)  {}
func move11(dst, src []byte)  {}
func move12(dst, src []byte)  {}
func move14(dst, src []byte)  {}
func move14c(dst, src []byte) {}
