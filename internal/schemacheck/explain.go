package schemacheck

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// explainer names the problems of an instance the library refused. It reads
// the common keywords of drafts 07 and 2020-12; anything else it leaves to the
// library's verdict (Validate then reports a problem without a location).
type explainer struct {
	root     any
	patterns map[string]*regexp.Regexp
	steps    int // schema nodes visited; anyOf over recursive schemas can branch exponentially
}

// maxSteps bounds explain's work; past it, the problems found so far stand.
const maxSteps = 100000

func newExplainer(root any) *explainer {
	return &explainer{root: root, patterns: map[string]*regexp.Regexp{}}
}

// maxShown bounds a schema value (an enum member, a pattern) quoted in a message:
// schemas of MCP servers are untrusted and may be long.
const maxShown = 120

// walk returns the problems of inst under schema s; at is inst's JSON pointer.
func (e *explainer) walk(s, inst any, at string, depth int) []Problem {
	if e.steps++; depth > maxDepth || e.steps > maxSteps {
		return nil
	}
	if b, ok := s.(bool); ok {
		if b {
			return nil
		}
		return []Problem{{At: at, Keyword: "false", Message: "no value is allowed here"}}
	}
	m, ok := s.(map[string]any)
	if !ok {
		return nil
	}
	var out []Problem
	add := func(kw, format string, args ...any) {
		out = append(out, Problem{At: at, Keyword: kw, Message: fmt.Sprintf(format, args...)})
	}
	if ref, ok := m["$ref"].(string); ok {
		if target, ok := e.resolve(ref); ok {
			out = append(out, e.walk(target, inst, at, depth+1)...)
		}
	}
	if want := typeNames(m["type"]); len(want) > 0 && !hasType(inst, want) {
		add("type", "got %s, want %s", typeOf(inst), strings.Join(want, " or "))
		return out // the other keywords of this schema speak of another type
	}
	if enum, ok := m["enum"].([]any); ok && !contains(enum, inst) {
		add("enum", "%s", enumMessage(enum))
	}
	if c, ok := m["const"]; ok && !reflect.DeepEqual(c, inst) {
		add("const", "value must be %s", display(c))
	}
	switch v := inst.(type) {
	case float64:
		e.number(m, v, add)
	case string:
		e.text(m, v, add)
	case []any:
		out = append(out, e.array(m, v, at, depth, add)...)
	case map[string]any:
		out = append(out, e.object(m, v, at, depth, add)...)
	}
	out = append(out, e.combinators(m, inst, at, depth, add)...)
	return out
}

func (e *explainer) number(m map[string]any, v float64, add func(string, string, ...any)) {
	if n, ok := num(m["minimum"]); ok && v < n {
		add("minimum", "minimum: must be >= %s", fmtNum(n))
	}
	if n, ok := num(m["maximum"]); ok && v > n {
		add("maximum", "maximum: must be <= %s", fmtNum(n))
	}
	if n, ok := num(m["exclusiveMinimum"]); ok && v <= n {
		add("exclusiveMinimum", "exclusiveMinimum: must be > %s", fmtNum(n))
	}
	if n, ok := num(m["exclusiveMaximum"]); ok && v >= n {
		add("exclusiveMaximum", "exclusiveMaximum: must be < %s", fmtNum(n))
	}
	if n, ok := num(m["multipleOf"]); ok && n > 0 {
		if q := v / n; math.Abs(q-math.Round(q)) > 1e-9 {
			add("multipleOf", "multipleOf: must be a multiple of %s", fmtNum(n))
		}
	}
}

func (e *explainer) text(m map[string]any, v string, add func(string, string, ...any)) {
	n := utf8.RuneCountInString(v)
	if k, ok := num(m["minLength"]); ok && float64(n) < k {
		add("minLength", "minLength: must be at least %s long", count(k, "character"))
	}
	if k, ok := num(m["maxLength"]); ok && float64(n) > k {
		add("maxLength", "maxLength: must be at most %s long", count(k, "character"))
	}
	if p, ok := m["pattern"].(string); ok {
		if re := e.pattern(p); re != nil && !re.MatchString(v) {
			add("pattern", "pattern: does not match %s", quote(cut(p)))
		}
	}
}

func (e *explainer) array(m map[string]any, v []any, at string, depth int, add func(string, string, ...any)) []Problem {
	var out []Problem
	if k, ok := num(m["minItems"]); ok && float64(len(v)) < k {
		add("minItems", "minItems: must have at least %s", count(k, "item"))
	}
	if k, ok := num(m["maxItems"]); ok && float64(len(v)) > k {
		add("maxItems", "maxItems: must have at most %s", count(k, "item"))
	}
	if u, _ := m["uniqueItems"].(bool); u {
	dup:
		for i := range v {
			for j := i + 1; j < len(v); j++ {
				if reflect.DeepEqual(v[i], v[j]) {
					add("uniqueItems", "items %d and %d are equal; items must be unique", i, j)
					break dup
				}
			}
		}
	}
	prefix, _ := m["prefixItems"].([]any)
	rest, restOK := m["items"], true
	if arr, ok := rest.([]any); ok { // draft-07 tuple form
		prefix, rest = arr, m["additionalItems"]
	}
	if rest == nil {
		restOK = false
	}
	for i, item := range v {
		p := at + "/" + strconv.Itoa(i)
		switch {
		case i < len(prefix):
			out = append(out, e.walk(prefix[i], item, p, depth+1)...)
		case restOK:
			out = append(out, e.walk(rest, item, p, depth+1)...)
		}
	}
	if c, ok := m["contains"]; ok {
		n := 0
		for _, item := range v {
			if len(e.walk(c, item, "", depth+1)) == 0 {
				n++
			}
		}
		lo, hasLo := num(m["minContains"])
		if !hasLo {
			lo = 1
		}
		if float64(n) < lo {
			add("contains", "must have at least %s items matching the contains schema, has %d", fmtNum(lo), n)
		}
		if hi, ok := num(m["maxContains"]); ok && float64(n) > hi {
			add("maxContains", "must have at most %s items matching the contains schema, has %d", fmtNum(hi), n)
		}
	}
	return out
}

func (e *explainer) object(m map[string]any, v map[string]any, at string, depth int, add func(string, string, ...any)) []Problem {
	var out []Problem
	if req, ok := m["required"].([]any); ok {
		var missing []string
		for _, r := range req {
			if name, ok := r.(string); ok {
				if _, has := v[name]; !has {
					missing = append(missing, name)
				}
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			add("required", "missing property %s", quote(missing[0]))
		default:
			add("required", "missing properties %s", joinQuoted(missing))
		}
	}
	if k, ok := num(m["minProperties"]); ok && float64(len(v)) < k {
		add("minProperties", "minProperties: must have at least %s", count(k, "property"))
	}
	if k, ok := num(m["maxProperties"]); ok && float64(len(v)) > k {
		add("maxProperties", "maxProperties: must have at most %s", count(k, "property"))
	}
	props, _ := m["properties"].(map[string]any)
	pats, _ := m["patternProperties"].(map[string]any)
	addl, hasAddl := m["additionalProperties"]
	var extra []string
	for _, name := range sortedKeys(v) {
		p := at + "/" + escape(name)
		matched := false
		if ps, ok := props[name]; ok {
			matched = true
			out = append(out, e.walk(ps, v[name], p, depth+1)...)
		}
		for _, pat := range sortedKeys(pats) {
			if re := e.pattern(pat); re != nil && re.MatchString(name) {
				matched = true
				out = append(out, e.walk(pats[pat], v[name], p, depth+1)...)
			}
		}
		if matched || !hasAddl {
			continue
		}
		if b, ok := addl.(bool); ok && !b {
			extra = append(extra, name)
			continue
		}
		out = append(out, e.walk(addl, v[name], p, depth+1)...)
	}
	if len(extra) > 0 {
		add("additionalProperties", "additional properties %s not allowed", joinQuoted(extra))
	}
	if pn, ok := m["propertyNames"]; ok {
		for _, name := range sortedKeys(v) {
			if len(e.walk(pn, name, "", depth+1)) > 0 {
				add("propertyNames", "property name %s does not match the propertyNames schema", quote(cut(name)))
				break
			}
		}
	}
	deps := map[string]any{}
	for _, kw := range []string{"dependencies", "dependentRequired", "dependentSchemas"} {
		if d, ok := m[kw].(map[string]any); ok {
			for k, x := range d {
				deps[k] = x
			}
		}
	}
	for _, prop := range sortedKeys(deps) {
		if _, has := v[prop]; !has {
			continue
		}
		if names, ok := deps[prop].([]any); ok {
			for _, n := range names {
				if s, _ := n.(string); s != "" {
					if _, has := v[s]; !has {
						add("dependentRequired", "property %s requires property %s", quote(prop), quote(s))
					}
				}
			}
			continue
		}
		out = append(out, e.walk(deps[prop], v, at, depth+1)...)
	}
	return out
}

func (e *explainer) combinators(m map[string]any, inst any, at string, depth int, add func(string, string, ...any)) []Problem {
	var out []Problem
	if all, ok := m["allOf"].([]any); ok {
		for _, s := range all {
			out = append(out, e.walk(s, inst, at, depth+1)...)
		}
	}
	if any_, ok := m["anyOf"].([]any); ok && e.matching(any_, inst, depth) == 0 {
		add("anyOf", "matches none of the %d alternatives of anyOf", len(any_))
	}
	if one, ok := m["oneOf"].([]any); ok {
		switch n := e.matching(one, inst, depth); {
		case n == 0:
			add("oneOf", "matches none of the %d alternatives of oneOf", len(one))
		case n > 1:
			add("oneOf", "matches %d alternatives of oneOf, must match exactly one", n)
		}
	}
	if not, ok := m["not"]; ok && len(e.walk(not, inst, at, depth+1)) == 0 {
		add("not", "must not match the schema under not")
	}
	if cond, ok := m["if"]; ok {
		branch := "else"
		if len(e.walk(cond, inst, at, depth+1)) == 0 {
			branch = "then"
		}
		if s, ok := m[branch]; ok {
			out = append(out, e.walk(s, inst, at, depth+1)...)
		}
	}
	return out
}

// matching counts the alternatives inst matches, as far as explain can tell.
func (e *explainer) matching(alts []any, inst any, depth int) int {
	n := 0
	for _, s := range alts {
		if len(e.walk(s, inst, "", depth+1)) == 0 {
			n++
		}
	}
	return n
}

// resolve follows a $ref inside the root document: "#", "#/json/pointer" or
// "#anchor". Others (an $id-based URI) are left to the library's verdict.
func (e *explainer) resolve(ref string) (any, bool) {
	if frag, ok := strings.CutPrefix(ref, "#"); ok && frag != "" && !strings.HasPrefix(frag, "/") {
		return findAnchor(e.root, frag, 0)
	}
	return ResolveLocal(e.root, ref)
}

func findAnchor(s any, name string, depth int) (any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	switch c := s.(type) {
	case map[string]any:
		if a, _ := c["$anchor"].(string); a == name {
			return c, true
		}
		for _, k := range sortedKeys(c) {
			if r, ok := findAnchor(c[k], name, depth+1); ok {
				return r, true
			}
		}
	case []any:
		for _, x := range c {
			if r, ok := findAnchor(x, name, depth+1); ok {
				return r, true
			}
		}
	}
	return nil, false
}

func (e *explainer) pattern(p string) *regexp.Regexp {
	re, ok := e.patterns[p]
	if !ok {
		re, _ = regexp.Compile(p)
		e.patterns[p] = re
	}
	return re
}

func typeNames(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func hasType(v any, want []string) bool {
	got := typeOf(v)
	for _, w := range want {
		if w == got || w == "integer" && got == "number" && v.(float64) == math.Trunc(v.(float64)) {
			return true
		}
	}
	return false
}

// typeOf is the JSON type of a decoded value; an integer is a number.
func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

func contains(list []any, v any) bool {
	for _, x := range list {
		if reflect.DeepEqual(x, v) {
			return true
		}
	}
	return false
}

func enumMessage(enum []any) string {
	for _, x := range enum {
		switch x.(type) {
		case []any, map[string]any:
			return "value must be one of the enum's values"
		}
	}
	if len(enum) == 1 {
		return "value must be " + display(enum[0])
	}
	parts := make([]string, len(enum))
	for i, x := range enum {
		parts[i] = display(x)
	}
	return "value must be one of " + cut(strings.Join(parts, ", "))
}

func num(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

// count writes "1 item", "3 items", "1 property", "2 properties".
func count(n float64, noun string) string {
	if n != 1 {
		if strings.HasSuffix(noun, "y") {
			noun = strings.TrimSuffix(noun, "y") + "ie"
		}
		noun += "s"
	}
	return fmtNum(n) + " " + noun
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// display shows a schema value (never an instance's): strings quoted, other
// primitives as JSON, composite values by kind.
func display(v any) string {
	switch v := v.(type) {
	case string:
		return quote(cut(v))
	case float64:
		return fmtNum(v)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	}
	return "the const value"
}

// quote writes a name in single quotes, as the validator's messages always did
// ("missing property 'n'"), escaping control characters and quotes.
func quote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(q, "'", `\'`) + "'"
}

func joinQuoted(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = quote(cut(n))
	}
	return cut(strings.Join(parts, ", "))
}

func cut(s string) string {
	if len(s) <= maxShown {
		return s
	}
	i := maxShown
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// escape writes one JSON pointer segment.
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
