// Package tsschema is the one JSON Schema to TypeScript renderer: the compact
// input/output hints of catalog entries, tools/index.d.ts and the MCP API files
// all render through Render, so they agree on every construct ($ref included).
package tsschema

import (
	"sort"
	"strconv"
	"strings"

	"github.com/codemode-go/codemode/internal/jsident"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/text"
	"github.com/codemode-go/codemode/internal/textmemo"
)

// Limits bound the TypeScript-like rendering of a JSON Schema. Every schema a
// tool brings is treated as hostile input (cycles, $ref loops, 100k-item enums,
// 10k-deep nesting): the renderer stops at whichever bound it reaches first, so the
// work is bounded by maxNodes and the text by maxBytes, whatever the schema size.
type Limits struct {
	maxBytes int // rendered text, before the final "…"
	maxDepth int // nesting of types and $ref hops
	maxUnion int // members shown of an enum/anyOf/oneOf/type list
	maxProps int // properties shown of one object
	maxKey   int // bytes of one property name or string literal
	maxNodes int // schema nodes visited in total
}

// Hint is for the compact `input`/`output` strings of catalog entries (and so
// the quick index); Decl are for the full types of tools/index.d.ts.
var (
	// Hint: entry hints, one line of at most 320 bytes.
	Hint = Limits{maxBytes: 320, maxDepth: 6, maxUnion: 12, maxProps: 24, maxKey: 64, maxNodes: 400}
	// Decl: declaration files, up to 16 KiB per type.
	Decl = Limits{maxBytes: 16 << 10, maxDepth: 16, maxUnion: 64, maxProps: 256, maxKey: 128, maxNodes: 8192}
)

// ellipsis marks every elision in rendered text.
const ellipsis = text.Ellipsis

// Rendering is the outcome of rendering one schema.
type Rendering struct {
	Text string
	// Complete is true when nothing was elided or left as an unsupported construct
	// and every object level is closed with additionalProperties: false. Only a
	// complete Rendering of a trusted schema may become an output hint.
	Complete bool
}

// parseSchema decodes a JSON Schema document; empty input is the empty schema.
func parseSchema(raw []byte) (any, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return map[string]any{}, nil
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// Render renders raw schema JSON as a TypeScript type within lim; undecodable
// schemas render as unknown.
func Render(raw []byte, lim Limits) Rendering {
	doc, err := parseSchema(raw)
	if err != nil {
		return Rendering{Text: "unknown"}
	}
	return renderSchema(doc, lim)
}

// Memo remembers renderings by schema content: every exec builds a fresh
// catalog, usually over the same tools, and parsing and rendering their
// schemas again was most of the cost of a trivial exec. Content-keyed, so a
// changed schema is simply a new entry; bounded by clearing when full. It
// belongs to whoever shares it (a Runtime has one), never to the process.
// The zero value is ready; a nil *Memo renders without remembering.
type Memo struct {
	m textmemo.Memo[renderKey, Rendering]
}

// Render is the package's Render, remembered.
func (mm *Memo) Render(raw []byte, lim Limits) Rendering {
	if mm == nil {
		return Render(raw, lim)
	}
	key := renderKey{string(raw), lim}
	if r, ok := mm.m.Get(key); ok {
		return r
	}
	r := Render(raw, lim)
	mm.m.Put(key, len(raw), r, renderMemoBound)
	return r
}

// renderMemoBound bounds a Memo: 8192 renderings (a host's tools, each in a
// few Limits) and 32 MiB of schema text.
var renderMemoBound = textmemo.Bound{Entries: 8192, Bytes: 32 << 20}

// renderKey is the schema's text itself (textmemo says why) and the bounds.
type renderKey struct {
	schema string
	lim    Limits
}

func renderSchema(doc any, lim Limits) Rendering {
	r := &renderer{lim: lim, w: boundedWriter{max: lim.maxBytes}}
	r.root, _ = doc.(map[string]any)
	r.node(doc, 0)
	text := r.w.String()
	if text == "" {
		text = "unknown"
	}
	return Rendering{Text: text, Complete: !r.elided && !r.open && !r.w.over}
}

type renderer struct {
	lim    Limits
	root   map[string]any
	w      boundedWriter
	nodes  int
	elided bool     // something was left out or not understood
	open   bool     // some object level is not closed
	refs   []string // $refs being expanded, for cycle detection
}

func (r *renderer) elide() {
	r.elided = true
	r.w.WriteString(ellipsis)
}

func (r *renderer) node(s any, depth int) {
	if r.w.over {
		return
	}
	r.nodes++
	if r.nodes > r.lim.maxNodes || depth > r.lim.maxDepth {
		r.elide()
		return
	}
	switch v := s.(type) {
	case bool:
		if v {
			r.w.WriteString("unknown")
		} else {
			r.w.WriteString("never")
		}
	case map[string]any:
		r.object(v, depth)
	default:
		r.elided = true
		r.w.WriteString("unknown")
	}
}

func (r *renderer) object(m map[string]any, depth int) {
	if ref, ok := m["$ref"].(string); ok {
		r.ref(ref, depth)
		return
	}
	if m["nullable"] == true {
		// OpenAPI-style nullable: render the schema without it, then "| null".
		c := make(map[string]any, len(m))
		for k, v := range m {
			if k != "nullable" {
				c[k] = v
			}
		}
		r.object(c, depth)
		r.w.WriteString(" | null")
		return
	}
	if c, ok := m["const"]; ok {
		r.literal(c)
		return
	}
	if e, ok := m["enum"].([]any); ok {
		r.union(len(e), func(i int) { r.literal(e[i]) })
		return
	}
	for _, kw := range [...]string{"anyOf", "oneOf"} {
		if u, ok := m[kw].([]any); ok && len(u) > 0 {
			r.union(len(u), func(i int) { r.node(u[i], depth+1) })
			return
		}
	}
	if a, ok := m["allOf"].([]any); ok && len(a) > 0 {
		for i, s := range a {
			if i > 0 {
				r.w.WriteString(" & ")
			}
			r.node(s, depth+1)
		}
		return
	}
	switch t := m["type"].(type) {
	case string:
		r.typed(m, t, depth)
	case []any:
		r.union(len(t), func(i int) {
			name, _ := t[i].(string)
			r.typed(m, name, depth)
		})
	default:
		switch {
		case m["properties"] != nil || m["additionalProperties"] != nil:
			r.typed(m, "object", depth)
		case m["items"] != nil || m["prefixItems"] != nil:
			r.typed(m, "array", depth)
		default:
			if hasAssertions(m) {
				r.elided = true // e.g. not/if/patternProperties: shape not expressible
			}
			r.w.WriteString("unknown")
		}
	}
}

// hasAssertions reports whether a schema without a type still constrains values in
// ways the compact Rendering cannot show.
func hasAssertions(m map[string]any) bool {
	for _, k := range [...]string{"not", "if", "patternProperties", "dependentSchemas", "contains"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func (r *renderer) union(n int, member func(i int)) {
	if n == 0 {
		r.w.WriteString("never")
		return
	}
	for i := 0; i < n; i++ {
		if r.w.over {
			return
		}
		if i > 0 {
			r.w.WriteString(" | ")
		}
		if i >= r.lim.maxUnion {
			r.elide()
			return
		}
		member(i)
	}
}

func (r *renderer) typed(m map[string]any, t string, depth int) {
	switch t {
	case "string", "number", "boolean", "null":
		r.w.WriteString(t)
	case "integer":
		r.w.WriteString("number")
	case "array":
		r.array(m, depth)
	case "object":
		r.props(m, depth)
	default:
		r.elided = true
		r.w.WriteString("unknown")
	}
}

func (r *renderer) array(m map[string]any, depth int) {
	if p, ok := m["prefixItems"].([]any); ok && len(p) > 0 {
		r.w.WriteString("[")
		for i, s := range p {
			if i > 0 {
				r.w.WriteString(", ")
			}
			if i >= r.lim.maxProps {
				r.elide()
				break
			}
			r.node(s, depth+1)
		}
		if m["items"] != false {
			r.w.WriteString(", ...unknown[]")
		}
		r.w.WriteString("]")
		return
	}
	r.w.WriteString("Array<")
	if it, ok := m["items"]; ok {
		r.node(it, depth+1)
	} else {
		r.w.WriteString("unknown")
	}
	r.w.WriteString(">")
}

func (r *renderer) props(m map[string]any, depth int) {
	props, _ := m["properties"].(map[string]any)
	ap, hasAP := m["additionalProperties"]
	closed := hasAP && ap == false
	if !closed {
		r.open = true
	}
	apSchema, apIsSchema := ap.(map[string]any)
	if len(props) == 0 {
		switch {
		case apIsSchema:
			r.w.WriteString("Record<string, ")
			r.node(apSchema, depth+1)
			r.w.WriteString(">")
		case closed:
			r.w.WriteString("{}")
		default:
			r.w.WriteString("Record<string, unknown>")
		}
		return
	}
	required := map[string]bool{}
	if req, ok := m["required"].([]any); ok {
		for i, k := range req {
			if i >= 4*r.lim.maxProps {
				break // hostile required lists: the rest cannot matter to shown keys
			}
			if s, ok := k.(string); ok {
				required[s] = true
			}
		}
	}
	keys := make([]string, 0, min(len(props), r.lim.maxProps+1))
	for k := range props {
		keys = append(keys, k)
	}
	// Map order is random; sorting keeps the Rendering deterministic.
	sort.Strings(keys)
	r.w.WriteString("{ ")
	for i, k := range keys {
		if r.w.over {
			return
		}
		if i > 0 {
			r.w.WriteString("; ")
		}
		if i >= r.lim.maxProps {
			r.elide()
			break
		}
		r.w.WriteString(r.key(k))
		if !required[k] {
			r.w.WriteString("?")
		}
		r.w.WriteString(": ")
		r.node(props[k], depth+1)
	}
	if apIsSchema {
		r.w.WriteString("; [key: string]: ")
		r.node(apSchema, depth+1)
	}
	r.w.WriteString(" }")
}

func (r *renderer) ref(ref string, depth int) {
	target, ok := resolvePointer(r.root, ref)
	if !ok || len(r.refs) >= r.lim.maxDepth {
		r.elided = true
		r.w.WriteString("unknown")
		return
	}
	for _, active := range r.refs {
		if active == ref {
			// A recursive type cannot be written inline; name the cut.
			r.elided = true
			r.w.WriteString("unknown")
			return
		}
	}
	r.refs = append(r.refs, ref)
	r.node(target, depth+1)
	r.refs = r.refs[:len(r.refs)-1]
}

// resolvePointer resolves a local reference such as "#/$defs/Item". Remote
// references are never fetched.
func resolvePointer(root map[string]any, ref string) (any, bool) {
	if root == nil || !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	p := ref[1:]
	if p == "" {
		return root, true
	}
	if !strings.HasPrefix(p, "/") {
		return nil, false // anchors are not supported
	}
	var cur any = root
	for _, seg := range strings.Split(p[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func (r *renderer) literal(v any) {
	switch x := v.(type) {
	case string:
		if len(x) > r.lim.maxKey {
			r.elided = true
		}
		r.w.WriteString(Quote(x, r.lim.maxKey))
	case float64:
		r.w.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case json.Number:
		r.w.WriteString(x.String())
	case bool:
		r.w.WriteString(strconv.FormatBool(x))
	case nil:
		r.w.WriteString("null")
	default:
		r.elided = true
		r.w.WriteString("unknown")
	}
}

// key renders a property name, quoting anything that is not a plain identifier.
func (r *renderer) key(k string) string {
	if len(k) > r.lim.maxKey {
		r.elided = true
	} else if jsident.IsIdentifier(k) {
		return k
	}
	return Quote(k, r.lim.maxKey)
}

// Quote JSON-quotes s (so it cannot break out of the surrounding text),
// cutting it at max bytes with an ellipsis.
func Quote(s string, max int) string {
	if len(s) > max {
		s = text.Cut(s, max) + ellipsis
	}
	b, err := json.Marshal(s)
	if err != nil {
		return `""`
	}
	return string(b)
}

// boundedWriter accumulates at most max bytes; past that it records the overflow
// and String appends the ellipsis.
type boundedWriter struct {
	b    strings.Builder
	max  int
	over bool
}

func (w *boundedWriter) WriteString(s string) {
	if w.over {
		return
	}
	if room := w.max - w.b.Len(); len(s) > room {
		w.b.WriteString(text.Cut(s, room))
		w.over = true
		return
	}
	w.b.WriteString(s)
}

func (w *boundedWriter) String() string {
	if w.over {
		return w.b.String() + ellipsis
	}
	return w.b.String()
}

// MaxBytes is the longest text a rendering within l has, before its ellipsis.
func (l Limits) MaxBytes() int { return l.maxBytes }
