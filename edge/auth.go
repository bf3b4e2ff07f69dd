package edge

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
)

// authenticator maps bearer tokens to principals. Tokens are kept only as
// SHA-256 digests and compared in constant time against every configured token
// (no early exit, no length leak), so timing says nothing about which token or
// how much of one matched.
type authenticator struct {
	digests    [][32]byte
	principals []string
}

func newAuthenticator(tokens []Token) (*authenticator, error) {
	a := &authenticator{}
	seen := map[[32]byte]bool{}
	for i, t := range tokens {
		if strings.TrimSpace(t.Principal) == "" {
			return nil, fmt.Errorf("edge: token %d has no principal", i+1)
		}
		if len(t.Token) < 16 {
			return nil, fmt.Errorf("edge: the token of principal %q is shorter than 16 characters", t.Principal)
		}
		if strings.ContainsAny(t.Token, " \t\r\n") {
			return nil, fmt.Errorf("edge: the token of principal %q contains whitespace", t.Principal)
		}
		d := sha256.Sum256([]byte(t.Token))
		if seen[d] {
			return nil, fmt.Errorf("edge: the token of principal %q is also another principal's token", t.Principal)
		}
		seen[d] = true
		a.digests = append(a.digests, d)
		a.principals = append(a.principals, t.Principal)
	}
	return a, nil
}

// Enabled reports whether any token is configured.
func (a *authenticator) enabled() bool { return len(a.digests) > 0 }

// principal authenticates r. Without configured tokens every caller is the
// anonymous principal "".
func (a *authenticator) principal(r *http.Request) (string, *apiError) {
	if !a.enabled() {
		return "", nil
	}
	vals := r.Header.Values("Authorization")
	h := ""
	if len(vals) > 0 {
		h = vals[0]
	}
	scheme, tok, ok := strings.Cut(h, " ")
	tok = strings.TrimSpace(tok)
	// Two credentials are refused, not tried in turn: hosts differ in which
	// one they keep (and workerd joins them with ", "), so the principal would
	// depend on the host. A token never holds whitespace, so a joined pair
	// shows as one.
	if len(vals) > 1 || strings.ContainsAny(tok, " \t") {
		return "", refuse(http.StatusUnauthorized, codeUnauthorized, `send exactly one "Authorization: Bearer <token>" header (this request carries more than one credential)`)
	}
	if h == "" || !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return "", refuse(http.StatusUnauthorized, codeUnauthorized, `this server needs "Authorization: Bearer <token>"`)
	}
	d := sha256.Sum256([]byte(tok))
	found := -1
	for i := range a.digests {
		if subtle.ConstantTimeCompare(d[:], a.digests[i][:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return "", refuse(http.StatusUnauthorized, codeUnauthorized, "the bearer token is not valid for this server")
	}
	return a.principals[found], nil
}
