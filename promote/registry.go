package promote

import (
	"fmt"
	"sort"
	"strings"

	"github.com/convertpromote/convertpromote/element"
)

// Config carries the settings a policy may read when it is built by name. Each policy reads only
// the fields that apply to it and ignores the others.
type Config struct {
	// OpenVINO's three attributes.
	PromoteUnsafe          bool
	PyTorchScalarPromotion bool
	U64Target              element.Type // Dynamic means the default, f32
	// X64 enables 64-bit types in JAX (jax_enable_x64).
	X64 bool
	// Op selects an operation kind for the policies that have them: "" (or "add") for ordinary
	// arithmetic, "div" for true division, "compare" for comparisons and logic.
	Op string
}

var registry = map[string]func(Config) (Policy, error){
	"openvino": func(c Config) (Policy, error) {
		if c.Op != "" && c.Op != "add" {
			return nil, fmt.Errorf("policy openvino has no operation kind %q", c.Op)
		}
		p := OpenVINO{PromoteUnsafe: c.PromoteUnsafe, PyTorchScalarPromotion: c.PyTorchScalarPromotion,
			U64IntegerPromotionTarget: c.U64Target}
		if p.U64IntegerPromotionTarget == element.Dynamic {
			p.U64IntegerPromotionTarget = element.F32
		}
		return p, nil
	},
}

// register adds a policy constructor under name; policies call it from init.
func register(name string, build func(Config) (Policy, error)) {
	if _, dup := registry[name]; dup {
		panic("promote: policy " + name + " registered twice")
	}
	registry[name] = build
}

// PolicyNames returns the names New accepts, sorted.
func PolicyNames() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New builds the policy called name with the settings in c. An unknown name is an error that
// lists the known ones.
func New(name string, c Config) (Policy, error) {
	build, ok := registry[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (valid: %s)", name, strings.Join(PolicyNames(), ", "))
	}
	return build(c)
}
