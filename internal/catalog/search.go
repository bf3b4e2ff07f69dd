package catalog

import (
	"slices"
	"strings"
	"unicode"

	"github.com/codemode-go/codemode/internal/text"
)

// Spec bounds for search limits (tools.codeMode.searchDefaultLimit/maxSearchLimit).
const (
	DefaultSearchLimit = 8
	MaxSearchLimit     = 50
)

// SearchLimit turns the guest's optional limit into the one to use: a missing or
// non-positive request takes the configured default, and everything is capped by
// the configured maximum, itself capped by MaxSearchLimit. Zero config values mean
// the spec defaults.
func SearchLimit(requested, searchDefaultLimit, maxSearchLimit int) int {
	if maxSearchLimit <= 0 || maxSearchLimit > MaxSearchLimit {
		maxSearchLimit = MaxSearchLimit
	}
	if searchDefaultLimit <= 0 {
		searchDefaultLimit = DefaultSearchLimit
	}
	if requested <= 0 {
		requested = searchDefaultLimit
	}
	return min(requested, maxSearchLimit)
}

// Search ranks non-MCP entries for a query and returns at most limit of them
// (limit <= 0 means DefaultSearchLimit; pass it through SearchLimit first).
// Ranking is deterministic: an exact name or id match first, then by matches of
// query tokens in the name/label/id tokens, then in the description; ties keep
// catalog order. An empty query lists the catalog in order.
func (c *Catalog) Search(query string, limit int) []Entry {
	c.searches.Add(1)
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	q := strings.ToLower(strings.TrimSpace(boundText(query, 512)))
	if q == "" {
		return slices.Clone(c.guest[:min(limit, len(c.guest))])
	}
	qt := tokens(q)
	if len(qt) > 16 {
		qt = qt[:16]
	}
	type scored struct {
		i, score int
	}
	var hits []scored
	for i, e := range c.guest {
		if s := score(e, q, qt); s > 0 {
			hits = append(hits, scored{i, s})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int { return b.score - a.score })
	out := make([]Entry, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, c.guest[h.i])
	}
	return out
}

func score(e Entry, q string, qt []string) int {
	s := 0
	if strings.ToLower(e.Name) == q || strings.ToLower(e.ID) == q {
		s += 10000
	}
	name := tokens(strings.ToLower(e.Name + " " + e.Label + " " + e.ID))
	desc := tokens(strings.ToLower(text.Cut(e.Description, maxDescriptionBytes)))
	for _, t := range qt {
		switch tokenMatch(t, name) {
		case 2:
			s += 100
		case 1:
			s += 60
		}
		switch tokenMatch(t, desc) {
		case 2:
			s += 10
		case 1:
			s += 5
		}
	}
	return s
}

// tokenMatch is 2 for an equal token, 1 for a prefix match either way (so "ship"
// finds "shipments" and "shipments" finds "shipment"), 0 otherwise.
func tokenMatch(t string, in []string) int {
	best := 0
	for _, w := range in {
		if w == t {
			return 2
		}
		if len(t) >= 3 && len(w) >= 3 && (strings.HasPrefix(w, t) || strings.HasPrefix(t, w)) {
			best = 1
		}
	}
	return best
}

func tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
