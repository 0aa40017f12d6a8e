//go:build gc && !purego

package membound

import "github.com/convertpromote/convertpromote/internal/cpu"

var hasAVX2 = cpu.X86.HasAVX2

// Available reports whether Move runs on this CPU.
func Available() bool { return hasAVX2 }

// The loops of Move (membound_amd64.s), one per ratio; len(src) is a multiple of Block and dst
// is 32-byte aligned, with the length Move's cases give.

//go:noescape
func move21(dst, src []byte)

//go:noescape
func move11(dst, src []byte)

//go:noescape
func move12(dst, src []byte)

//go:noescape
func move14(dst, src []byte)

//go:noescape
func move14c(dst, src []byte)
