package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"sort"
	"strings"
)

// Parameter serialization (OpenAPI "style" and "explode"): path parameters
// simple, label or matrix; query parameters form, spaceDelimited,
// pipeDelimited or deepObject; header parameters simple. A content parameter
// is sent as its JSON text.

// decodeValue reads one input value, keeping numbers as written.
func decodeValue(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, errors.New("not JSON")
	}
	return v, nil
}

// scalar renders a primitive; objects and arrays nested in a parameter are
// not expressible by the styles and are refused.
func scalar(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	case bool:
		if x {
			return "true", nil
		}
		return "false", nil
	case nil:
		return "", nil
	}
	return "", errors.New("a nested object or array cannot be serialized in this parameter; pass a string, number or boolean")
}

// pairs lists an object's members in key order.
func pairs(m map[string]any) ([][2]string, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][2]string, 0, len(keys))
	for _, k := range keys {
		s, err := scalar(m[k])
		if err != nil {
			return nil, err
		}
		out = append(out, [2]string{k, s})
	}
	return out, nil
}

func items(l []any) ([]string, error) {
	out := make([]string, len(l))
	for i, e := range l {
		s, err := scalar(e)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// simple is the simple style, already escaped by esc: "a,b" for arrays,
// "k,v,k2,v2" (or "k=v,k2=v2" exploded) for objects.
func simple(v any, explode bool, esc func(string) string) (string, error) {
	switch x := v.(type) {
	case []any:
		l, err := items(x)
		if err != nil {
			return "", err
		}
		for i := range l {
			l[i] = esc(l[i])
		}
		return strings.Join(l, ","), nil
	case map[string]any:
		ps, err := pairs(x)
		if err != nil {
			return "", err
		}
		var parts []string
		for _, p := range ps {
			if explode {
				parts = append(parts, esc(p[0])+"="+esc(p[1]))
			} else {
				parts = append(parts, esc(p[0]), esc(p[1]))
			}
		}
		return strings.Join(parts, ","), nil
	}
	s, err := scalar(v)
	return esc(s), err
}

func pathValue(p param, v any, raw json.RawMessage) (string, error) {
	if p.json {
		return url.PathEscape(string(raw)), nil
	}
	switch p.style {
	case "label":
		s, err := simple(v, p.explode, url.PathEscape)
		if p.explode {
			s = strings.ReplaceAll(s, ",", ".")
		}
		return "." + s, err
	case "matrix":
		if l, ok := v.([]any); ok && p.explode {
			parts, err := items(l)
			if err != nil {
				return "", err
			}
			var b strings.Builder
			for _, s := range parts {
				b.WriteString(";" + url.PathEscape(p.name) + "=" + url.PathEscape(s))
			}
			return b.String(), nil
		}
		s, err := simple(v, p.explode, url.PathEscape)
		return ";" + url.PathEscape(p.name) + "=" + s, err
	}
	return simple(v, p.explode, url.PathEscape)
}

func headerValue(p param, v any, raw json.RawMessage) (string, error) {
	if p.json {
		return string(raw), nil
	}
	s, err := simple(v, p.explode, func(s string) string { return s })
	if strings.ContainsAny(s, "\r\n\x00") {
		return "", errors.New("a header value cannot hold a line break or NUL")
	}
	return s, err
}

func queryValue(q url.Values, p param, v any, raw json.RawMessage) error {
	if p.json {
		q.Add(p.name, string(raw))
		return nil
	}
	switch x := v.(type) {
	case []any:
		l, err := items(x)
		if err != nil {
			return err
		}
		switch {
		case p.style == "spaceDelimited" && !p.explode:
			q.Add(p.name, strings.Join(l, " "))
		case p.style == "pipeDelimited" && !p.explode:
			q.Add(p.name, strings.Join(l, "|"))
		case p.explode:
			for _, s := range l {
				q.Add(p.name, s)
			}
		default:
			q.Add(p.name, strings.Join(l, ","))
		}
	case map[string]any:
		ps, err := pairs(x)
		if err != nil {
			return err
		}
		switch {
		case p.style == "deepObject":
			for _, kv := range ps {
				q.Add(p.name+"["+kv[0]+"]", kv[1])
			}
		case p.explode:
			for _, kv := range ps {
				q.Add(kv[0], kv[1])
			}
		default:
			var parts []string
			for _, kv := range ps {
				parts = append(parts, kv[0], kv[1])
			}
			q.Add(p.name, strings.Join(parts, ","))
		}
	default:
		s, err := scalar(v)
		if err != nil {
			return err
		}
		q.Add(p.name, s)
	}
	return nil
}
