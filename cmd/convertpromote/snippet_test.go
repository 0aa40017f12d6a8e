package main

import "testing"

func TestIsSnippet(t *testing.T) {
	for s, want := range map[string]bool{
		`<layer id="1">`: true,
		"<?xml version=\"1.0\"?>\n<!-- c -->\n<layer>": true,
		`<net version="11">`:                           false,
		`<layers>`:                                     false,
		``:                                             false,
		`<!-- unterminated`:                            false,
		"< !-- pasted from a specification -->\n<layer id=\"1\" type=\"ConvertPromoteTypes\", version=\"opset14\">": true,
	} {
		if got := isSnippet([]byte(s)); got != want {
			t.Errorf("isSnippet(%q) = %v", s, got)
		}
	}
}
