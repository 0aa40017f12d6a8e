package bench

import (
	"fmt"

	"github.com/convertpromote/convertpromote/kernels"
)

// PathX448 names the peer path: github.com/x448/float16's per-element loop over typed slices
// (float16.Fromfloat32 for f32→f16, Float16.Float32 for f16→f32), the way most Go code converts
// today. It exists for the pairs f32:f16 and f16:f32 only: the package converts between float32
// and float16 and nothing else, and chaining it through f32 for other pairs would measure our
// glue code rather than the library. KernelResolver returns an error for a case of another pair
// on this path.
const PathX448 = "x448"

// ConvertFunc converts n elements from src to dst; the types are fixed by the case it was made
// for.
type ConvertFunc func(dst, src []byte, n int) error

// Resolver returns the ConvertFunc that performs a case's conversion. KernelResolver is the real
// one; tests inject fakes.
type Resolver func(c Case) (ConvertFunc, error)

// KernelResolver resolves the paths of package kernels (kernels.WithPath(p, c.Threads)) and the
// x448 peer path.
func KernelResolver(c Case) (ConvertFunc, error) { return resolve(c, kernels.Rules{}) }

// RulesResolver returns KernelResolver for conversions under rules r: the kernels paths convert
// with r (kernels.Converter.Rules); the x448 peer path, IEEE rounding, is unchanged.
func RulesResolver(r kernels.Rules) Resolver {
	return func(c Case) (ConvertFunc, error) { return resolve(c, r) }
}

func resolve(c Case, r kernels.Rules) (ConvertFunc, error) {
	if c.Path == PathX448 {
		f := x448Func(c.From, c.To, c.Goroutines())
		if f == nil {
			return nil, fmt.Errorf("path x448 has no conversion for %s", c.Pair())
		}
		return f, nil
	}
	p, err := kernels.ParsePath(c.Path)
	if err != nil {
		return nil, err
	}
	if c.Block.Group > 0 {
		return blockFunc(c, p), nil
	}
	if !kernels.Supported(c.From, c.To) {
		return nil, fmt.Errorf("conversion %s is not supported", c.Pair())
	}
	conv := kernels.WithPath(p, c.Threads)
	conv.Rules = r
	from, to := c.From, c.To
	return func(dst, src []byte, n int) error {
		return conv.Convert(dst, to, src, from, n)
	}, nil
}
