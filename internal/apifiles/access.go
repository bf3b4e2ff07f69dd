package apifiles

import (
	"encoding/json"
	"fmt"
	"strings"
)

const maxPathBytes = 512

// checkPath rejects anything that is not a plain relative path of named segments,
// so a guest cannot probe outside the table or smuggle path tricks to a later
// real file system.
func checkPath(p string, allowTrailingSlash bool) (string, error) {
	if len(p) > maxPathBytes {
		return "", fmt.Errorf("API: path is %d bytes, limit %d", len(p), maxPathBytes)
	}
	if strings.ContainsRune(p, '\\') {
		return "", fmt.Errorf("API: path %q: backslashes are not allowed", p)
	}
	if strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("API: path %q: absolute paths are not allowed", p)
	}
	if allowTrailingSlash {
		p = strings.TrimSuffix(p, "/")
	}
	if p == "" {
		return "", nil
	}
	for _, seg := range strings.Split(p, "/") {
		switch {
		case seg == "":
			return "", fmt.Errorf("API: path %q: empty segments are not allowed", p)
		case seg == "." || seg == "..":
			return "", fmt.Errorf("API: path %q: %q segments are not allowed", p, seg)
		}
		for _, r := range seg {
			if r < 0x20 || r == 0x7f {
				return "", fmt.Errorf("API: path %q: control characters are not allowed", p)
			}
		}
	}
	return p, nil
}

// List returns the files under prefix ("" or "mcp" or "mcp/"; a file path lists
// that file), sorted by path.
func (f *Files) List(prefix string) ([]FileInfo, error) {
	p, err := checkPath(prefix, true)
	if err != nil {
		return nil, err
	}
	out := []FileInfo{}
	for _, info := range f.infos {
		if p == "" || info.Path == p || strings.HasPrefix(info.Path, p+"/") {
			out = append(out, info)
		}
	}
	return out, nil
}

// Read returns one file's content.
func (f *Files) Read(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("API.read: empty path; see API.list(\"mcp\")")
	}
	p, err := checkPath(path, false)
	if err != nil {
		return "", err
	}
	text, ok := f.files[p]
	if !ok {
		return "", fmt.Errorf("API.read: unknown path %q; see API.list(\"mcp\")", path)
	}
	return text, nil
}

// APIHeader is what MCP.<server>.$api(toolName?, {schema?}) returns to the guest.
type APIHeader struct {
	Server      string          `json:"server"`
	Namespace   string          `json:"namespace"`
	Tool        string          `json:"tool,omitempty"`
	Declaration string          `json:"declaration"`
	Schema      json.RawMessage `json:"schema,omitempty"`
}

// APIHeader answers $api for the server with safe spelling safeServer. toolName
// may be the safe spelling or the original MCP name; empty means the whole server
// file. withSchema adds the tool's raw JSON input schema (only with a tool, and
// only when it is valid JSON within the size bound).
func (f *Files) APIHeader(safeServer, toolName string, withSchema bool) (APIHeader, error) {
	rs, ok := f.servers[safeServer]
	if !ok {
		return APIHeader{}, fmt.Errorf("$api: unknown MCP server %q", safeServer)
	}
	e := rs.entry
	h := APIHeader{Server: e.Name, Namespace: "MCP." + e.safe}
	if toolName == "" {
		h.Declaration = f.files[e.path]
		return h, nil
	}
	var found *toolEntry
	for i := range e.tools {
		if e.tools[i].safe == toolName {
			found = &e.tools[i]
			break
		}
	}
	if found == nil {
		for i := range e.tools {
			if e.tools[i].Name == toolName {
				found = &e.tools[i]
				break
			}
		}
	}
	if found == nil {
		return APIHeader{}, fmt.Errorf("$api: MCP server %q has no tool %q; call $api() for the list", e.Name, toolName)
	}
	h.Tool = found.Name
	h.Declaration = fmt.Sprintf("declare namespace MCP.%s {\n%s}\n", e.safe, rs.decls[found.safe])
	if withSchema && len(found.InputSchema) <= maxSchemaForTypes && json.Valid(found.InputSchema) {
		h.Schema = found.InputSchema
	}
	return h, nil
}
