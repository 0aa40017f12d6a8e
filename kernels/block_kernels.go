package kernels

import "github.com/convertpromote/convertpromote/element"

// blockKernelSpec is one assembly block kernel: its path, format and value type, and the
// function (decode or encode) that converts steps of 32 elements (one block of 32, or two of
// 16) whole.
type blockKernelSpec struct {
	path   Path
	format BlockFormat
	typ    element.Type
	decode func(dst, codes, scales []byte, steps int)
	encode func(codes, scales, src []byte, steps int)
}

// blockStep is the number of elements a block kernel converts a step.
const blockStep = 32

// blockSet holds the block kernels of the paths this CPU has, each wrapped as a function of
// whole blocks: the steps go to the kernel, a last block that does not fill a step to the pure-Go
// loop. The wrappers are made once, so that a call allocates nothing.
type blockSet struct {
	decoders []blockDecoderEntry
	encoders []blockEncoderEntry
}

type blockDecoderEntry struct {
	path Path
	f    BlockFormat
	typ  element.Type
	fn   blockDecodeFunc
}

type blockEncoderEntry struct {
	path Path
	f    BlockFormat
	typ  element.Type
	fn   blockEncodeFunc
}

func newBlockSet(specs []blockKernelSpec) *blockSet {
	s := &blockSet{}
	for _, k := range specs {
		if !pathAvailable(k.path) || blockStep%k.format.Block != 0 {
			continue
		}
		per := blockStep / k.format.Block // blocks a step
		f, typ := k.format, k.typ
		eb, vb := blockStep*f.Elem.Bits()/8, blockStep*typ.Bits()/8 // code and value bytes a step
		if dec := k.decode; dec != nil {
			s.decoders = append(s.decoders, blockDecoderEntry{k.path, f, typ, func(dst, codes, scales []byte, nb int) {
				steps := nb / per
				dec(dst[:steps*vb], codes[:steps*eb], scales[:steps*per], steps)
				if done := steps * per; done < nb {
					decodeBlocksGeneric(dst[steps*vb:], typ, codes[steps*eb:], scales[done:], f, (nb-done)*f.Block)
				}
			}})
		}
		if enc := k.encode; enc != nil {
			s.encoders = append(s.encoders, blockEncoderEntry{k.path, f, typ, func(codes, scales, src []byte, nb int) {
				steps := nb / per
				enc(codes[:steps*eb], scales[:steps*per], src[:steps*vb], steps)
				if done := steps * per; done < nb {
					encodeBlocksGeneric(codes[steps*eb:], scales[done:], f, src[steps*vb:], typ, (nb-done)*f.Block)
				}
			}})
		}
	}
	return s
}

func (s *blockSet) decoder(p Path, f BlockFormat, to element.Type) blockDecodeFunc {
	for _, e := range s.decoders {
		if e.path == p && e.f == f && e.typ == to {
			return e.fn
		}
	}
	return nil
}

func (s *blockSet) encoder(p Path, f BlockFormat, from element.Type) blockEncodeFunc {
	for _, e := range s.encoders {
		if e.path == p && e.f == f && e.typ == from {
			return e.fn
		}
	}
	return nil
}
