package core

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/jsonw"
	json "github.com/codemode-go/codemode/internal/jsonx"
)

// runData is what setup injects into the guest for one run. The API files
// do not travel in it: the guest asks for them (apiTable) on its first
// API.list or API.read, since rendering tools/index.d.ts was a fifth of a
// trivial exec that never reads it.
type runData struct {
	AllTools   []catalog.Entry          `json:"allTools"`
	SafeNames  map[string]string        `json:"safeNames"`
	MCP        map[string]mcpServerData `json:"mcp"`
	Namespaces json.RawMessage          `json:"namespaces"`
}

// marshal is json.Marshal(d), written without reflection (jsonw) unless the
// namespaces' descriptors are not valid JSON, when json.Marshal says why.
func (d runData) marshal() ([]byte, error) {
	b := append(make([]byte, 0, 256+len(d.Namespaces)), `{"allTools":[`...)
	for i, e := range d.AllTools {
		if i > 0 {
			b = append(b, ',')
		}
		b = e.AppendJSON(b)
	}
	if d.AllTools == nil {
		b = append(b[:len(b)-1], "null"...)
	} else {
		b = append(b, ']')
	}
	b = jsonw.StringMap(append(b, `,"safeNames":`...), d.SafeNames)
	if d.MCP == nil {
		b = append(b, `,"mcp":null`...)
	} else {
		b = append(b, `,"mcp":{`...)
		for i, k := range slices.Sorted(maps.Keys(d.MCP)) {
			srv := d.MCP[k]
			b = jsonw.String(append(jsonw.Key(b, k, i == 0), `{"server":`...), srv.Server)
			b = append(jsonw.StringMap(append(b, `,"tools":`...), srv.Tools), '}')
		}
		b = append(b, '}')
	}
	b, ok := jsonw.Raw(append(b, `,"namespaces":`...), d.Namespaces)
	if !ok {
		return json.Marshal(d)
	}
	return append(b, '}'), nil
}

// apiTable is the guest's "api.files" answer: the file table and the contents
// as one string (blob) that the guest slices when a file is read.
type apiTable struct {
	Files []apiFile `json:"files"`
	Blob  string    `json:"blob"`
}

type mcpServerData struct {
	Server string            `json:"server"` // the real server name
	Tools  map[string]string `json:"tools"`  // safe name -> tool name
}

// apiFile is one virtual file; Start and End index the blob in UTF-16 code
// units, as JavaScript's String.prototype.slice does.
type apiFile struct {
	Path        string `json:"path"`
	Size        int    `json:"size"`
	Description string `json:"description,omitempty"`
	Start       int    `json:"start"`
	End         int    `json:"end"`
}

// setup injects the run's catalog views into the fresh VM's globals.
func (r *run) setup() error {
	d := runData{
		AllTools:   r.cat.Entries(),
		SafeNames:  r.cat.SafeNames(),
		MCP:        map[string]mcpServerData{},
		Namespaces: r.ns.Descriptors(),
	}
	for safe, names := range r.mcpSafe {
		d.MCP[safe] = mcpServerData{Server: names.Server, Tools: names.Tools}
	}
	if len(d.Namespaces) == 0 {
		d.Namespaces = json.RawMessage("[]")
	}
	if d.AllTools == nil {
		d.AllTools = []catalog.Entry{}
	}
	b, err := d.marshal()
	if err != nil {
		return err
	}
	vm := r.vm
	fn, err := vm.GetProp(vm.Prelude(), "setup")
	if err != nil {
		return err
	}
	defer vm.Free(fn)
	s, err := vm.NewString(string(b))
	if err != nil {
		return err
	}
	defer vm.Free(s)
	v, err := vm.Call(fn, vm.Undefined(), s)
	vm.Free(v)
	return err
}

// apiFiles is the run's read-only API file table: the MCP declarations and the
// TypeScript declarations of the trusted catalog, rendered when the guest first
// lists or reads them, never stored.
func (r *run) apiFiles() apiTable {
	var blob strings.Builder
	var files []apiFile
	at := 0
	add := func(path, desc, content string) {
		n := utf16Len(content)
		files = append(files, apiFile{Path: path, Size: len(content), Description: desc, Start: at, End: at + n})
		blob.WriteString(content)
		at += n
	}
	add("tools/index.d.ts", "TypeScript declarations of this run's tools", r.cat.DeclarationFile())
	mcpFiles := r.files()
	infos, _ := mcpFiles.List("")
	for _, fi := range infos {
		content, err := mcpFiles.Read(fi.Path)
		if err != nil {
			continue
		}
		desc := "MCP declarations"
		if fi.Namespace != "" {
			desc = "declarations of " + fi.Namespace
		}
		add(fi.Path, desc, content)
	}
	return apiTable{Files: files, Blob: blob.String()}
}

// utf16Len is the length of s in UTF-16 code units (JavaScript string length).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
