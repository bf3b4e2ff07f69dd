package catalog

import "strings"

// Policy is the allow/deny filter applied to the effective tool list. Patterns
// match a tool's name or its catalog id; `*` matches any run of characters and
// nothing else is special. Deny always wins.
//
// A nil Allow allows everything; a non-nil empty Allow allows nothing (the spec's
// "empty tools.allow list": a run that intentionally has no tools).
type Policy struct {
	// Allow, when non-nil, lists the only tool names or ids a run may see (empty: none).
	Allow []string `json:"allow,omitempty"`
	// Deny lists tool names or ids no run may see; it wins over Allow.
	Deny []string `json:"deny,omitempty"`
}

// Allows reports whether a tool with this name and id passes the policy.
func (p Policy) Allows(name, id string) bool {
	for _, pat := range p.Deny {
		if globMatch(pat, name) || globMatch(pat, id) {
			return false
		}
	}
	if p.Allow == nil {
		return true
	}
	for _, pat := range p.Allow {
		if globMatch(pat, name) || globMatch(pat, id) {
			return true
		}
	}
	return false
}

// globMatch matches s against a pattern where `*` is the only wildcard. It uses the
// classic linear backtracking over the last star, so hostile patterns stay cheap.
func globMatch(pat, s string) bool {
	if !strings.Contains(pat, "*") {
		return pat == s
	}
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pat) && pat[p] == '*':
			star, mark = p, i
			p++
		case p < len(pat) && pat[p] == s[i]:
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pat) && pat[p] == '*' {
		p++
	}
	return p == len(pat)
}

// matches reports whether a tool restricted to scope `want` may appear in a run
// with scope `have`: every non-empty field of want must be equal.
func (want Scope) matches(have Scope) bool {
	eq := func(w, h string) bool { return w == "" || w == h }
	return eq(want.AgentID, have.AgentID) && eq(want.SessionID, have.SessionID) &&
		eq(want.SessionKey, have.SessionKey) && eq(want.AgentRunID, have.AgentRunID) &&
		eq(want.SenderID, have.SenderID) && eq(want.ChannelID, have.ChannelID)
}
