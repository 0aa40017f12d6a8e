package quant

import "github.com/convertpromote/convertpromote/element"

// RegistrySchemes returns the schemes of the registry's block rows, each once, in the rows'
// order: the external tests' list of schemes.
func RegistrySchemes() []Scheme {
	var ss []Scheme
	seen := map[Scheme]bool{}
	for _, r := range registry {
		if !r.grouped && !seen[r.scheme] {
			seen[r.scheme] = true
			ss = append(ss, r.scheme)
		}
	}
	return ss
}

// RegistryTypes returns the value types of the registry's rows, each once, in the rows' order:
// the external tests' list of value types.
func RegistryTypes() []element.Type {
	var ts []element.Type
	seen := map[element.Type]bool{}
	for _, r := range registry {
		if !seen[r.typ] {
			seen[r.typ] = true
			ts = append(ts, r.typ)
		}
	}
	return ts
}
