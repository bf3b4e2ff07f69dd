// Package tsgen writes TypeScript declarations of Go wire types by
// reflection, so a .d.ts that describes JSON the Go side reads or writes is
// generated from the Go types and cannot drift from them (internal/ops/gen
// writes the repository's; its test fails when a committed file is stale).
//
// A struct becomes an interface of its JSON fields (embedded structs
// flattened, "-" and unexported fields left out); a field is optional when
// it is omitempty, or, in an input type, unless it is named required.
// Named string types with registered values become unions of literals;
// json.RawMessage and interfaces are unknown; time.Time is string (RFC 3339).
package tsgen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Gen collects declarations in the order they are added.
type Gen struct {
	names  map[reflect.Type]string   // types declared (or given a name) by this file
	enums  map[reflect.Type][]string // named string types with their values
	fields map[fieldKey][]string     // plain string fields with their values
	b      strings.Builder
}

// New returns an empty generator.
func New() *Gen {
	return &Gen{names: map[reflect.Type]string{}, enums: map[reflect.Type][]string{}, fields: map[fieldKey][]string{}}
}

type fieldKey struct {
	t    reflect.Type
	name string
}

// FieldValues gives the JSON field name of struct type t (a plain string
// the Go type cannot enumerate, such as a language) its values: the field
// shows their union.
func (g *Gen) FieldValues(t reflect.Type, name string, values ...string) {
	g.fields[fieldKey{t, name}] = values
}

// fieldType is f's TypeScript type.
func (g *Gen) fieldType(f field, optional func(field) bool) string {
	if vs, ok := g.fields[fieldKey{f.owner, f.name}]; ok {
		return union(vs)
	}
	return g.ts(f.typ, optional)
}

func union(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, " | ")
}

// Enum declares `export type name = "a" | "b"` for t's values, and uses the
// name wherever a field has type t.
func (g *Gen) Enum(name, doc string, t reflect.Type, values ...string) {
	g.enums[t] = values
	g.names[t] = name
	g.doc(doc, "")
	fmt.Fprintf(&g.b, "export type %s =\n", name)
	for i, v := range values {
		end := ""
		if i == len(values)-1 {
			end = ";"
		}
		fmt.Fprintf(&g.b, "  | %q%s\n", v, end)
	}
	g.b.WriteString("\n")
}

// Values registers t's values for fields of type t without declaring a name
// (the fields show the union inline).
func (g *Gen) Values(t reflect.Type, values ...string) { g.enums[t] = values }

// Name makes fields of type t refer to name (declared by hand or by Raw).
func (g *Gen) Name(t reflect.Type, name string) { g.names[t] = name }

// Raw adds a declaration written out (a shape reflection cannot tell, such
// as a union a MarshalJSON method produces).
func (g *Gen) Raw(doc, decl string) {
	g.doc(doc, "")
	g.b.WriteString(decl + "\n\n")
}

// Output declares an interface for a type the Go side writes: omitempty
// fields are optional.
func (g *Gen) Output(name, doc string, t reflect.Type) {
	g.names[t] = name
	g.iface(name, doc, t, func(f field) bool { return f.omitempty })
}

// Input declares an interface for a type the Go side reads: every field the
// decoder lets a caller leave out is optional, that is every field but the
// required ones.
func (g *Gen) Input(name, doc string, t reflect.Type, required ...string) {
	g.names[t] = name
	g.iface(name, doc, t, func(f field) bool { return !slices.Contains(required, f.name) })
}

func (g *Gen) iface(name, doc string, t reflect.Type, optional func(field) bool) {
	g.doc(doc, "")
	fmt.Fprintf(&g.b, "export interface %s {\n", name)
	for _, f := range fields(t) {
		g.doc(f.doc, "  ")
		q := ""
		if optional(f) {
			q = "?"
		}
		fmt.Fprintf(&g.b, "  %s%s: %s;\n", f.name, q, g.fieldType(f, optional))
	}
	g.b.WriteString("}\n\n")
}

// Union declares a discriminated union of what t marshals to for each value
// of its tag field: each variant has the fields a marshalled sample with
// that tag carries (every field set in full), optional where opt says.
func (g *Gen) Union(name, doc string, t reflect.Type, full func(tag string) any, tag string, values []string, opt map[string]bool) {
	g.names[t] = name
	byName := map[string]field{}
	for _, f := range fields(t) {
		byName[f.name] = f
	}
	g.doc(doc, "")
	fmt.Fprintf(&g.b, "export type %s =\n", name)
	for i, v := range values {
		raw, err := json.Marshal(full(v))
		if err != nil {
			panic(err)
		}
		var m map[string]json.RawMessage
		json.Unmarshal(raw, &m)
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int { return byName[a].index - byName[b].index })
		var parts []string
		for _, k := range keys {
			f := byName[k]
			typ := g.fieldType(f, func(f field) bool { return f.omitempty })
			if k == tag {
				typ = fmt.Sprintf("%q", v)
			}
			q := ""
			if opt[k] {
				q = "?"
			}
			parts = append(parts, k+q+": "+typ)
		}
		end := ""
		if i == len(values)-1 {
			end = ";"
		}
		fmt.Fprintf(&g.b, "  | { %s }%s\n", strings.Join(parts, "; "), end)
	}
	g.b.WriteString("\n")
}

// String is the declarations so far.
func (g *Gen) String() string { return strings.TrimRight(g.b.String(), "\n") + "\n" }

func (g *Gen) doc(doc, indent string) {
	if doc == "" {
		return
	}
	fmt.Fprintf(&g.b, "%s/** %s */\n", indent, doc)
}

var (
	rawType  = reflect.TypeFor[json.RawMessage]()
	timeType = reflect.TypeFor[time.Time]()
)

// ts is the TypeScript type of t; inline object types use optional for
// their fields.
func (g *Gen) ts(t reflect.Type, optional func(field) bool) string {
	if n, ok := g.names[t]; ok {
		return n
	}
	if vs, ok := g.enums[t]; ok {
		return union(vs)
	}
	switch {
	case t == rawType:
		return "unknown"
	case t == timeType:
		return "string"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.ts(t.Elem(), optional)
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return g.ts(t.Elem(), optional) + "[]"
	case reflect.Map:
		return "Record<string, " + g.ts(t.Elem(), optional) + ">"
	case reflect.Struct:
		var parts []string
		for _, f := range fields(t) {
			q := ""
			if optional(f) {
				q = "?"
			}
			parts = append(parts, f.name+q+": "+g.fieldType(f, optional))
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	return "unknown"
}

// field is one JSON field of a struct.
type field struct {
	name      string
	typ       reflect.Type
	omitempty bool
	index     int          // order of appearance, for stable variants
	owner     reflect.Type // the struct that declares it (an embedded one's own type)
	doc       string
}

// fields are t's JSON fields in declaration order, embedded structs
// flattened.
func fields(t reflect.Type) []field {
	var out []field
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for _, e := range fields(f.Type) {
				e.index = len(out)
				out = append(out, e)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, field{name: name, typ: f.Type, omitempty: strings.Contains(opts, "omitempty"), index: len(out), owner: t})
	}
	return out
}
