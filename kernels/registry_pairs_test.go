package kernels_test

import (
	"testing"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
)

// TestTestListsAreTheRegistry: the typed helpers' test list is the registry's pairs, so a row
// without a typed helper fails. (The equivalence tests' simdPairs is the registry itself.)
func TestTestListsAreTheRegistry(t *testing.T) {
	reg := map[[2]element.Type]bool{}
	for _, p := range kernels.RegistryPairs() {
		reg[p] = true
	}
	lists := map[string]map[[2]element.Type]bool{"typedHelpers": {}}
	for p := range typedHelpers {
		lists["typedHelpers"][p] = true
	}
	for name, l := range lists {
		for p := range reg {
			if !l[p] {
				t.Errorf("%s lacks the registry's pair %s→%s", name, p[0], p[1])
			}
		}
		for p := range l {
			if !reg[p] {
				t.Errorf("%s has %s→%s, which the registry does not", name, p[0], p[1])
			}
		}
	}
}
