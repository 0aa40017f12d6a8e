package kernels

import "github.com/convertpromote/convertpromote/element"

// RegistryPairs returns the registry's pairs, for the external tests' pair lists.
func RegistryPairs() [][2]element.Type {
	ps := make([][2]element.Type, len(registry))
	for i, r := range registry {
		ps[i] = [2]element.Type{r.from, r.to}
	}
	return ps
}
