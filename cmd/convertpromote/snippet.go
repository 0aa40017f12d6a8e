package main

import "bytes"

// isSnippet reports whether src is a pasted layer rather than an IR file: its first element
// (after an XML declaration, comments and whitespace) is <layer>.
func isSnippet(src []byte) bool {
	s := bytes.TrimSpace(src)
	for {
		switch {
		case bytes.HasPrefix(s, []byte("<?")):
			i := bytes.Index(s, []byte("?>"))
			if i < 0 {
				return false
			}
			s = bytes.TrimSpace(s[i+2:])
		case bytes.HasPrefix(s, []byte("<!--")), bytes.HasPrefix(s, []byte("< !--")):
			i := bytes.Index(s, []byte("-->"))
			if i < 0 {
				return false
			}
			s = bytes.TrimSpace(s[i+3:])
		default:
			return bytes.HasPrefix(s, []byte("<layer")) && len(s) > 6 && (s[6] == ' ' || s[6] == '>' || s[6] == '\t' || s[6] == '\n' || s[6] == '\r')
		}
	}
}
