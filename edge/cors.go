package edge

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// corsPolicy answers cross-origin requests for the configured origins. It is
// off (nil) by default. Credentials are never allowed: browser cores send
// bearer tokens in the Authorization header, which needs no cookies, and a
// wildcard origin with credentials would hand any page the caller's session.
type corsPolicy struct {
	any     bool
	origins []string
}

func newCORS(origins []string) (*corsPolicy, error) {
	if len(origins) == 0 {
		return nil, nil
	}
	c := &corsPolicy{}
	for _, o := range origins {
		if o == "*" {
			c.any = true
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return nil, fmt.Errorf("edge: cors origin %q must be \"*\" or scheme://host[:port] (no path, no trailing slash)", o)
		}
		c.origins = append(c.origins, strings.ToLower(o))
	}
	return c, nil
}

func (c *corsPolicy) allows(origin string) bool {
	return c.any || slices.Contains(c.origins, strings.ToLower(origin))
}

// handle adds CORS headers for an allowed origin and answers preflights; it
// reports whether the request has been answered.
func (c *corsPolicy) handle(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if c == nil || origin == "" {
		return false
	}
	h := w.Header()
	h.Add("Vary", "Origin")
	preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
	if !c.allows(origin) {
		if preflight {
			writeError(w, refuse(http.StatusForbidden, codeOriginNotAllowed, "origin "+quoteField(origin)+" is not in cors.allowedOrigins"))
			return true
		}
		return false // served without CORS headers: the browser withholds the answer
	}
	if c.any {
		h.Set("Access-Control-Allow-Origin", "*")
	} else {
		h.Set("Access-Control-Allow-Origin", origin)
	}
	if !preflight {
		// A browser MCP client reads the session id of /mcp's answers.
		h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id")
		return false
	}
	// DELETE and the Mcp-* headers are /mcp's (Streamable HTTP sessions).
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, DELETE")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}
