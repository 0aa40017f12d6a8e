package kernels

import "github.com/convertpromote/convertpromote/element"

// Packed layouts (docs/SEMANTICS.md §1.5):
//
//	u1, u2            most significant bits first: u1 0xA0 = 1,0,1,0,0,0,0,0
//	u4, i4, nf4, f4e2m1  low nibble first: 0xBF = 15, 11
//	u3                8 values in 3 bytes b0 b1 b2: value k has its low 2 bits at bits 15−2k..14−2k
//	                  of b0<<8|b1 and its high bit at bit 7−k of b2
//	u6                4 values in 3 bytes: value k has its low 4 bits as nibble k from the top of
//	                  b0<<8|b1 and its high 2 bits at bits 7−2k..6−2k of b2
//
// Callers pass buffers that start on element 0 of a byte (or 3-byte group), as loopFunc promises.

// unpackCodes reads n packed codes of type t from src into codes[:n] (each in the low bits).
func unpackCodes(t element.Type, codes []uint8, src []byte, n int) {
	codes = codes[:n]
	switch t {
	case element.U1:
		for i := range codes {
			codes[i] = src[i>>3] >> (7 - uint(i&7)) & 1
		}
	case element.U2:
		for i := range codes {
			codes[i] = src[i>>2] >> (6 - 2*uint(i&3)) & 3
		}
	case element.U4, element.I4, element.NF4, element.F4E2M1:
		for i := range codes {
			codes[i] = src[i>>1] >> (4 * uint(i&1)) & 0xF
		}
	case element.U3:
		for i := range codes {
			g := src[3*(i>>3):]
			k := uint(i & 7)
			lo := (uint16(g[0])<<8 | uint16(g[1])) >> (14 - 2*k) & 3
			hi := g[2] >> (7 - k) & 1
			codes[i] = uint8(lo) | hi<<2
		}
	case element.U6:
		for i := range codes {
			g := src[3*(i>>2):]
			k := uint(i & 3)
			lo := (uint16(g[0])<<8 | uint16(g[1])) >> (12 - 4*k) & 0xF
			hi := g[2] >> (6 - 2*k) & 3
			codes[i] = uint8(lo) | hi<<4
		}
	default:
		panic("kernels: unpackCodes on unpacked type " + t.String())
	}
}

// packCodes writes n codes of type t (only their low bits are used) packed into dst, which must
// hold t.ByteSize(n) bytes. Every byte written is built from scratch, so the unused bits of a
// partial last byte or group are zero.
func packCodes(t element.Type, dst []byte, codes []uint8, n int) {
	codes = codes[:n]
	switch t {
	case element.U1:
		for i := 0; i < n; i += 8 {
			var b byte
			for j, c := range codes[i:min(i+8, n)] {
				b |= (c & 1) << (7 - uint(j))
			}
			dst[i>>3] = b
		}
	case element.U2:
		for i := 0; i < n; i += 4 {
			var b byte
			for j, c := range codes[i:min(i+4, n)] {
				b |= (c & 3) << (6 - 2*uint(j))
			}
			dst[i>>2] = b
		}
	case element.U4, element.I4, element.NF4, element.F4E2M1:
		i := 0
		for ; i+1 < n; i += 2 {
			dst[i>>1] = codes[i]&0xF | codes[i+1]<<4
		}
		if i < n {
			dst[i>>1] = codes[i] & 0xF
		}
	case element.U3:
		for i := 0; i < n; i += 8 {
			var lo uint16
			var hi byte
			for j, c := range codes[i:min(i+8, n)] {
				k := uint(j)
				lo |= uint16(c&3) << (14 - 2*k)
				hi |= (c >> 2 & 1) << (7 - k)
			}
			g := dst[3*(i>>3) : 3*(i>>3)+3]
			g[0], g[1], g[2] = byte(lo>>8), byte(lo), hi
		}
	case element.U6:
		for i := 0; i < n; i += 4 {
			var lo uint16
			var hi byte
			for j, c := range codes[i:min(i+4, n)] {
				k := uint(j)
				lo |= uint16(c&0xF) << (12 - 4*k)
				hi |= (c >> 4 & 3) << (6 - 2*k)
			}
			g := dst[3*(i>>2) : 3*(i>>2)+3]
			g[0], g[1], g[2] = byte(lo>>8), byte(lo), hi
		}
	default:
		panic("kernels: packCodes on unpacked type " + t.String())
	}
}

// nibblesTo decodes n packed 4-bit codes (low nibble first) through a 16-entry table.
func nibblesTo[T any](dst []T, src []byte, n int, tab *[16]T) {
	dst = dst[:n]
	src = src[:n>>1+n&1]
	i := 0
	for _, b := range src[:n>>1] {
		dst[i] = tab[b&0xF]
		dst[i+1] = tab[b>>4]
		i += 2
	}
	if n&1 != 0 {
		dst[n-1] = tab[src[n>>1]&0xF]
	}
}
