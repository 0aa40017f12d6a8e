package kernels

import (
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
)

// Converter runs conversions on a chosen path with a chosen number of goroutines. The zero value
// uses the best path (Best) and the default thread count, like Convert.
type Converter struct {
	// Path selects the implementation; Best, the zero value, is the best path of this CPU. A path
	// the CPU lacks is an error (ErrUnsupported); a pair the path has no kernel for runs the
	// pure-Go loop.
	Path Path
	// Threads is the number of goroutines; 0 means the package default (SetThreads).
	Threads int
	// Rules selects whose conversion rules apply; the zero value is OpenVINO's. Pairs that a
	// rule set converts like OpenVINO run OpenVINO's kernels on Path; the others run the rule
	// set's kernel on Path where it has one (Rules.HasRuleKernel), else its pure-Go loop.
	Rules Rules
}

// WithPath returns a Converter that uses path p and t goroutines (0: the package default).
func WithPath(p Path, t int) Converter { return Converter{Path: p, Threads: t} }

// Convert converts n elements of type from in src to type to in dst with the best path for this
// CPU. src must hold at least from.ByteSize(n) bytes and dst at least to.ByteSize(n) bytes;
// bytes of dst past to.ByteSize(n) are not touched, and unused bits of a packed last byte are
// written as zero. Converting a type to itself copies. dst and src must not overlap: kernels
// read a block of elements after they have stored the one before, and some read their source
// twice. An unsupported pair, a negative n, a short buffer or buffers that overlap is an error,
// and nothing is written; errors.Is tells them apart with ErrUnsupported, ErrShortBuffer and
// ErrOverlap.
func Convert(dst []byte, to element.Type, src []byte, from element.Type, n int) error {
	// Not through Converter.Convert: without the receiver, the nine words of arguments fit in
	// registers (twelve do not), which shortens every call. The fast path is written out
	// in both, since a shared function is too large to inline and costs its call.
	if uint(from)|uint(to) < numTypes && uint(n) < 1<<40 {
		k := &dispatch[best][from][to]
		sb, db := n*int(k.sw), n*int(k.dw)
		if k.f != nil && sb <= len(src) && db <= len(dst) && sb+db < 2*ParallelMinBytes && !overlap(dst, db, src, sb) {
			k.f(dst[:db], src[:sb], n)
			return nil
		}
	}
	return Converter{}.convertSlow(dst, to, src, from, n, best, nil)
}

// Convert is the package-level Convert on c's path and thread count, with c's rules. Rules with
// a field out of range are an error.
func (c Converter) Convert(dst []byte, to element.Type, src []byte, from element.Type, n int) error {
	// The common call, a pair of whole-byte types small enough for one goroutine, is decided here
	// from one table entry; everything else (errors included) is convertSlow's.
	p := c.Path.resolve()
	if c.Rules != (Rules{}) {
		if err := c.Rules.check(); err != nil {
			return err
		}
		if c.Rules.Set != OpenVINO && uint(from)|uint(to) < numTypes {
			if f := ruleKernel(p, c.Rules.variant(), from, to); f != nil {
				return c.convertSlow(dst, to, src, from, n, p, f)
			}
		}
	}
	if uint(p) < uint(numPaths) && uint(from)|uint(to) < numTypes && uint(n) < 1<<40 {
		k := &dispatch[p][from][to]
		sb, db := n*int(k.sw), n*int(k.dw)
		if k.f != nil && sb <= len(src) && db <= len(dst) && sb+db < 2*ParallelMinBytes && !overlap(dst, db, src, sb) {
			k.f(dst[:db], src[:sb], n)
			return nil
		}
	}
	return c.convertSlow(dst, to, src, from, n, p, nil)
}

// convertSlow is Convert for the calls its table lookup does not decide: errors, packed types,
// conversions large enough to split across goroutines, and rule sets' own loops (a non-nil
// loop, which replaces the path's kernel).
func (c Converter) convertSlow(dst []byte, to element.Type, src []byte, from element.Type, n int, p Path, loop loopFunc) error {
	if !pathAvailable(p) {
		return errorf(ErrUnsupported, "kernels: path %s is not available on this CPU", p)
	}
	f := loop
	if f == nil {
		f = kernel(p, from, to)
	}
	if f == nil {
		return errorf(ErrUnsupported, "kernels: conversion from %s to %s is not supported", from, to)
	}
	if n < 0 {
		return errorf(ErrInvalid, "kernels: negative element count %d", n)
	}
	sb, db := fastByteSize(from, n), fastByteSize(to, n)
	if sb < 0 || db < 0 {
		var err error
		if sb, err = from.ByteSize(int64(n)); err != nil {
			return errorf(ErrInvalid, "kernels: %d %s source elements: %v", n, from, err)
		}
		if db, err = to.ByteSize(int64(n)); err != nil {
			return errorf(ErrInvalid, "kernels: %d %s destination elements: %v", n, to, err)
		}
	}
	if int64(len(src)) < sb {
		return errorf(ErrShortBuffer, "kernels: %s source holds %d bytes, %d elements need %d", from, len(src), n, sb)
	}
	if int64(len(dst)) < db {
		return errorf(ErrShortBuffer, "kernels: %s destination holds %d bytes, %d elements need %d", to, len(dst), n, db)
	}
	src, dst = src[:sb], dst[:db]
	if overlap(dst, int(db), src, int(sb)) {
		return errorf(ErrOverlap, "kernels: the %s destination (%d bytes) and the %s source (%d bytes) overlap; Convert needs separate buffers", to, db, from, sb)
	}
	if sb+db < 2*ParallelMinBytes {
		f(dst, src, n)
		return nil
	}
	if largeKernel != nil && streams(sb, db) {
		v := -1 // OpenVINO's kernels; a rule set's loop is its variant's
		if loop != nil {
			v = c.Rules.variant()
		}
		if g := largeKernel(p, v, from, to); g != nil {
			f = g
		}
	}
	t, policy := c.threads(sb+db, true)
	if !policy {
		run(f, dst, to, src, from, n, t)
		return nil
	}
	// The default policy's split: measured, and given up for the next calls when it did not pay.
	if st := run(f, dst, to, src, from, n, t); st.chunks > 1 && !st.paid() {
		splitBackoff.Store(backoffCalls)
	}
	return nil
}

// numTypes bounds the element types the dispatch tables cover (every type of package element).
const numTypes = 32

// overlap reports whether the first db bytes of dst and the first sb bytes of src share memory.
func overlap(dst []byte, db int, src []byte, sb int) bool {
	d := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	s := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	return d < s+uintptr(sb) && s < d+uintptr(db)
}

// fastKernel is a dispatch table entry: the loop of a pair of whole-byte types on one path and
// the element sizes of its source and destination in bytes.
type fastKernel struct {
	f      loopFunc
	sw, dw uint8
}

// dispatch holds kernel(p, from, to) for every available path and every pair of types stored in
// whole bytes; other entries are zero, which sends Convert to convertSlow.
var dispatch [numPaths][numTypes][numTypes]fastKernel

func init() {
	archInit()
	for _, p := range Paths() {
		for from := range element.Type(numTypes) {
			for to := range element.Type(numTypes) {
				sw, dw := wholeBytes[from], wholeBytes[to]
				if f := kernel(p, from, to); f != nil && sw != 0 && dw != 0 {
					dispatch[p][from][to] = fastKernel{f, sw, dw}
				}
			}
		}
	}
}

// fastByteSize is t.ByteSize(n) without its overflow division for the common case, a type of
// whole bytes and a count far from overflowing, and small enough to be inlined into Convert; it
// returns -1 for the other cases.
func fastByteSize(t element.Type, n int) int64 {
	if int(t) < len(wholeBytes) && uint(n) < 1<<40 && wholeBytes[t] != 0 {
		return int64(n) * int64(wholeBytes[t])
	}
	return -1
}

// wholeBytes is the element size of each type stored in whole bytes (0 for the packed types,
// dynamic and string).
var wholeBytes = func() (w [numTypes]uint8) {
	for _, t := range element.All() {
		if b := t.Bits(); int(t) < len(w) && t != element.String && b > 0 && b%8 == 0 {
			w[t] = uint8(b / 8)
		}
	}
	return w
}()
