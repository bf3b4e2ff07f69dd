package openapi

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/codemode-go/codemode/internal/catalog"
)

// tool is one operation behind the catalog interface.
type tool struct {
	spec    catalog.Spec
	op      operation
	base    string
	headers map[string]string
	client  *http.Client
	max     int64
	secrets [][]byte
}

func (t *tool) Spec() catalog.Spec { return t.spec }

// Execute sends the request. Every failure is an error a model can act on:
// the operation, the HTTP status and a short excerpt of the answer, or what
// kind of network failure it was; never the base URL, a header or a Go error.
func (t *tool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	req, err := t.request(ctx, call.Input)
	if err != nil {
		return catalog.Result{}, t.fail(err.Error())
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return catalog.Result{}, t.fail(networkError(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, t.max+1))
	if err != nil {
		return catalog.Result{}, t.fail("the answer broke off: " + networkError(err))
	}
	if int64(len(body)) > t.max {
		return catalog.Result{}, t.fail(fmt.Sprintf("answered HTTP %d with more than %d bytes, the limit for one answer", resp.StatusCode, t.max))
	}
	body = t.redact(body)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg := fmt.Sprintf("answered HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
		if ex := excerpt(body); ex != "" {
			msg += ": " + ex
		}
		return catalog.Result{}, t.fail(msg)
	}
	details, err := decodeAnswer(resp.Header.Get("Content-Type"), body)
	if err != nil {
		return catalog.Result{}, t.fail(fmt.Sprintf("answered HTTP %d, but %v", resp.StatusCode, err))
	}
	return catalog.Result{Details: details}, nil
}

func (t *tool) fail(msg string) error {
	return fmt.Errorf("%s (%s %s) %s", t.spec.Name, t.op.method, t.op.path, msg)
}

// request builds the HTTP request from the checked input: path parameters
// escaped into the template, query and header parameters serialized by
// their style, the body as JSON, the configured headers last.
func (t *tool) request(ctx context.Context, input json.RawMessage) (*http.Request, error) {
	in := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(input)) > 0 {
		if err := json.Unmarshal(input, &in); err != nil || in == nil {
			return nil, errors.New("needs a JSON object as input")
		}
	}
	path := t.op.path
	q := url.Values{}
	hdr := http.Header{}
	for _, p := range t.op.params {
		raw, ok := in[p.prop]
		if !ok || string(raw) == "null" {
			if p.required {
				return nil, fmt.Errorf("needs %q", p.prop)
			}
			continue
		}
		v, err := decodeValue(raw)
		if err != nil {
			return nil, fmt.Errorf("cannot send %q: %v", p.prop, err)
		}
		switch p.in {
		case "path":
			s, err := pathValue(p, v, raw)
			if err != nil {
				return nil, fmt.Errorf("cannot send %q: %v", p.prop, err)
			}
			path = strings.ReplaceAll(path, "{"+p.name+"}", s)
		case "query":
			if err := queryValue(q, p, v, raw); err != nil {
				return nil, fmt.Errorf("cannot send %q: %v", p.prop, err)
			}
		case "header":
			s, err := headerValue(p, v, raw)
			if err != nil {
				return nil, fmt.Errorf("cannot send %q: %v", p.prop, err)
			}
			hdr.Set(p.name, s)
		}
	}
	u := t.base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var body io.Reader
	if raw, ok := in[bodyProperty]; ok && t.op.body {
		body = bytes.NewReader(raw)
		hdr.Set("Content-Type", "application/json")
	} else if t.op.bodyRequired {
		return nil, fmt.Errorf("needs %q", bodyProperty)
	}
	req, err := http.NewRequestWithContext(ctx, t.op.method, u, body)
	if err != nil {
		return nil, errors.New("could not form a request URL from the input")
	}
	req.Header = hdr
	req.Header.Set("Accept", "application/json, */*;q=0.5")
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return req, nil
}

// decodeAnswer turns a 2xx body into the details the guest gets: JSON as
// JSON, text as a string, nothing as null.
func decodeAnswer(contentType string, body []byte) (json.RawMessage, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return json.RawMessage("null"), nil
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "application/json" || strings.HasSuffix(mt, "+json") {
		if !json.Valid(body) {
			return nil, errors.New("its JSON body does not parse")
		}
		return json.RawMessage(body), nil
	}
	if !utf8.Valid(body) {
		return nil, fmt.Errorf("its body is %d bytes of %s, which a tool cannot hand to the program", len(body), orUnknown(mt))
	}
	s, _ := json.Marshal(string(body))
	return s, nil
}

func orUnknown(mt string) string {
	if mt == "" {
		return "an unknown media type"
	}
	return mt
}

// excerpt is the start of an error answer, on one line.
func excerpt(body []byte) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body[:min(len(body), 2048)]), "?")), " ")
	return clip(s, 300)
}

// redact replaces every configured header value (and the token of a
// "Bearer x" or "Basic x" value) in an answer: an API that echoes a request
// must not hand the guest a credential.
func (t *tool) redact(body []byte) []byte {
	for _, s := range t.secrets {
		if bytes.Contains(body, s) {
			body = bytes.ReplaceAll(body, s, []byte("[redacted]"))
		}
	}
	return body
}

func secretsOf(headers map[string]string) [][]byte {
	var out [][]byte
	add := func(s string) {
		if len(s) >= 6 {
			out = append(out, []byte(s))
		}
	}
	for _, v := range headers {
		add(v)
		if _, tok, ok := strings.Cut(v, " "); ok {
			add(strings.TrimSpace(tok))
		}
	}
	return out
}

// networkError says what kind of failure kept the answer away, in words a
// model can act on; the Go error (addresses, ports, internals) stays here.
func networkError(err error) string {
	var re *redirectError
	var dns *net.DNSError
	var op *net.OpError
	var cert *x509.UnknownAuthorityError
	var certHost x509.HostnameError
	var rec tls.RecordHeaderError
	switch {
	case errors.As(err, &re):
		return re.Error()
	case errors.Is(err, context.Canceled):
		return "was canceled before the API answered"
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "timed out before the API answered"
	case errors.As(err, &dns):
		return "failed: the API's host name does not resolve"
	case errors.As(err, &cert) || errors.As(err, &certHost) || errors.As(err, &rec):
		return "failed: the TLS connection to the API could not be verified"
	case errors.As(err, &op) && op.Op == "dial":
		return "failed: could not connect to the API (refused or unreachable)"
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "failed: the API closed the connection without a complete answer"
	}
	return "failed before an answer arrived (network error)"
}

func isTimeout(err error) bool {
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}

// redirectError refuses a redirect that leaves the base URL's origin.
type redirectError struct{ n int }

func (e *redirectError) Error() string {
	if e.n > 0 {
		return "was redirected more than " + strconv.Itoa(e.n) + " times"
	}
	return "was redirected to another origin, which is not followed (the configured headers stay with the configured API)"
}

// redirectClient copies c (or the default client) with a redirect policy:
// at most 5 redirects, all within base's scheme and host.
func redirectClient(c *http.Client, base string) *http.Client {
	var out http.Client
	if c != nil {
		out = *c
	} else {
		out = *defaultClient()
	}
	bu, _ := url.Parse(base)
	out.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return &redirectError{n: 5}
		}
		if req.URL.Scheme != bu.Scheme || req.URL.Host != bu.Host {
			return &redirectError{}
		}
		return nil
	}
	return &out
}

// checkBaseURL requires an absolute http(s) URL without query or fragment and
// returns it without a trailing slash.
func checkBaseURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("baseUrl must be an absolute http:// or https:// URL (got %q)", clip(raw, 100))
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("baseUrl must not carry a query, fragment or user info (got %q); put credentials into headers", clip(u.Redacted(), 100))
	}
	return strings.TrimRight(raw, "/"), nil
}
