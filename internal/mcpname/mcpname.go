// Package mcpname checks the name a host gives an MCP server. It lives apart
// from core/mcp so the server config reader can refuse a bad name with its
// file position before anything connects, without the name check being part
// of the MCP client's public API.
package mcpname

import "fmt"

// MaxBytes bounds a server name.
const MaxBytes = 64

// Validate checks a host-chosen server name. It becomes the catalog owner and
// part of catalog ids, so it must not contain the id separator ':'.
func Validate(name string) error {
	if name == "" || len(name) > MaxBytes {
		return fmt.Errorf("mcp: server name must be 1..%d bytes, got %d", MaxBytes, len(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if i == 0 && !alnum {
			return fmt.Errorf("mcp: server name %q must start with a letter or digit", name)
		}
		if !alnum && c != '_' && c != '-' && c != '.' {
			return fmt.Errorf("mcp: server name %q may only contain letters, digits, '_', '-' and '.'", name)
		}
	}
	return nil
}
