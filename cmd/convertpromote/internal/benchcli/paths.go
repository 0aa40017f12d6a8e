package benchcli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// PathX448 names the peer path of package bench (see bench.PathX448).
const PathX448 = "x448"

// HasX448 reports whether the x448 peer path exists for the pair: f32:f16 and f16:f32.
func HasX448(from, to element.Type) bool {
	return from == element.F32 && to == element.F16 || from == element.F16 && to == element.F32
}

// PathNames lists every path name a spec may use, in report order.
var PathNames = []string{"avx512", "avx2", "neon", "generic", PathX448}

// SelectPaths resolves a path spec for one pair into the paths to measure, in report order
// (SIMD paths best first, then generic, then x448). The spec is "auto" (the best SIMD path that
// has its own kernel for the pair, generic, and x448 where it exists), "all" (every SIMD path of
// this CPU that has a kernel for the pair, generic, and x448 where it exists) or a comma-separated
// list of path names. A name that is not a path, or a SIMD path this CPU lacks, is an error.
// A listed path that has no kernel of its own for the pair (a SIMD path that would fall back to
// the pure-Go loop, or x448 for a pair without f16) is left out and named in skipped.
func SelectPaths(spec string, from, to element.Type) (paths, skipped []string, err error) {
	return SelectPathsRules(spec, kernels.Rules{}, from, to)
}

// SelectPathsRules is SelectPaths for conversions under rules r: a pair that r converts with a
// loop of its own (kernels.Rules.OwnLoop) has the SIMD paths of r's kernels for it
// (kernels.Rules.HasRuleKernel), not OpenVINO's.
func SelectPathsRules(spec string, r kernels.Rules, from, to element.Type) (paths, skipped []string, err error) {
	return SelectPairPaths(spec, r, Pair{From: from, To: to})
}

// SelectPairPaths is SelectPathsRules for a pair that may be block-scaled; the rules do not
// apply to block-scaled pairs, which have no x448 path.
func SelectPairPaths(spec string, r kernels.Rules, pr Pair) (paths, skipped []string, err error) {
	from, to := pr.From, pr.To
	cpu := kernels.Paths()
	var simd []string // SIMD paths of this CPU with a kernel for the pair, best first
	for _, p := range cpu {
		has := kernels.HasKernel(p, from, to) && !r.OwnLoop(from, to) || r.HasRuleKernel(p, from, to)
		if pr.Block.Group > 0 {
			has = hasBlockKernel(p, pr)
		}
		if p != kernels.Generic && has {
			simd = append(simd, p.String())
		}
	}
	peers := []string{"generic"}
	if HasX448(from, to) && pr.Block.Group == 0 {
		peers = append(peers, PathX448)
	}
	switch spec {
	case "auto":
		if len(simd) > 0 {
			paths = append(paths, simd[0])
		}
		return append(paths, peers...), nil, nil
	case "all":
		return append(simd, peers...), nil, nil
	}
	want := map[string]bool{}
	for _, name := range strings.Split(spec, ",") {
		name = strings.TrimSpace(name)
		if name == "auto" || name == "all" {
			return nil, nil, fmt.Errorf("path %q cannot be combined with other paths", name)
		}
		if !slices.Contains(PathNames, name) {
			return nil, nil, fmt.Errorf("unknown path %q (valid: auto, all, %s)", name, strings.Join(PathNames, ", "))
		}
		if name != PathX448 {
			p, err := kernels.ParsePath(name)
			if err != nil {
				return nil, nil, err
			}
			if !slices.Contains(cpu, p) {
				return nil, nil, fmt.Errorf("path %s is not available on this CPU (available: %s)", name, availableNames())
			}
		}
		want[name] = true
	}
	for _, name := range PathNames {
		if !want[name] {
			continue
		}
		if slices.Contains(simd, name) || slices.Contains(peers, name) {
			paths = append(paths, name)
		} else {
			skipped = append(skipped, name)
		}
	}
	return paths, skipped, nil
}

// availableNames lists the paths this CPU can run, plus x448.
func availableNames() string {
	var ns []string
	for _, p := range kernels.Paths() {
		ns = append(ns, p.String())
	}
	return strings.Join(append(ns, PathX448), ", ")
}
