package schemacheck

import (
	"strconv"
	"strings"
)

// ResolveLocal follows a reference inside a decoded JSON document: "#" or
// "#/json/pointer" (percent-encoding and ~0/~1 escapes undone). A plain-name
// fragment ("#Pet") or a reference to another document answers false. The
// OpenAPI loader resolves its documents' $refs with it too.
func ResolveLocal(root any, ref string) (any, bool) {
	p, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	if p == "" {
		return root, true
	}
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	cur := root
	for _, seg := range strings.Split(p[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(unescapeURI(seg), "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// unescapeURI undoes the percent-encoding a fragment may carry
// ("#/paths/~1pets~1%7Bid%7D").
func unescapeURI(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
