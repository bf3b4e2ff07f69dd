// Package openapi turns an OpenAPI 3.0 or 3.1 document into catalog tools:
// one tool per operation, reached through tools.* like any openclaw tool and
// run by the host as an HTTP request to the configured base URL.
//
// The document is read with github.com/getkin/kin-openapi (parsing, $ref
// resolution, structural validation); this package checks every $ref first so
// a broken one is named by the JSON pointer where it is written, and converts
// each operation's parameters, request body and responses into JSON Schema
// 2020-12 (nullable, boolean exclusive bounds, readOnly/writeOnly and
// components become $defs).
//
// Trust: an operator loads the document, but its text was written by whoever
// publishes the API. Unless Options.Trusted is set, the tools are
// catalog.Spec.Untrusted: their schemas stay deferred until tools.describe and
// never become quick-index hints; with Trusted the input and response schemas
// become hints and the response schema is enforced as the output contract.
// Credentials never reach the guest: Options.Headers are added by the host to
// each request, and their values (6 bytes or longer) are redacted from every
// answer.
package openapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/text"
)

// Options configure one document's tools.
type Options struct {
	// Name owns the tools: catalog ids are openclaw:<Name>:<operation>.
	// Letters, digits, _, - and ., at most 64 bytes, starting with a letter or
	// digit (the rule for MCP server names, the other owners of catalog ids).
	Name string
	// BaseURL is where requests go (http or https); the operation's path is
	// appended to it. The document's own servers are never used, so an
	// untrusted document cannot send the configured headers elsewhere.
	BaseURL string
	// Headers are added by the host to every request (e.g. Authorization);
	// the guest never sees them, and their values are redacted from answers.
	Headers map[string]string
	// Trusted makes the document's schemas hints and its response schemas
	// output contracts (see the package doc).
	Trusted bool
	// Client sends the requests; nil is a client with a 60 s timeout. Either
	// way redirects are followed only within BaseURL's origin.
	Client *http.Client
	// MaxResponseBytes bounds one answer's body; 0 is 8 MiB.
	MaxResponseBytes int64
}

// defaultMaxResponseBytes bounds an answer unless Options say otherwise.
const defaultMaxResponseBytes = 8 << 20

// maxDocumentBytes bounds the document read by Load and Parse.
const maxDocumentBytes = 16 << 20

// API is a loaded document: its tools and the operations left out.
type API struct {
	tools   []catalog.Tool
	skipped []Skipped
}

// Tools are the document's operations as catalog tools, in document order
// (paths sorted, methods in a fixed order). The slice is a copy.
func (a *API) Tools() []catalog.Tool { return append([]catalog.Tool(nil), a.tools...) }

// Skipped lists the operations that could not become tools, for the host's log.
func (a *API) Skipped() []Skipped { return append([]Skipped(nil), a.skipped...) }

// Skipped is one operation left out and why.
type Skipped struct {
	// Pointer is the operation's JSON pointer, e.g. /paths/~1pets/post.
	Pointer string
	// Reason says what the tools cannot handle.
	Reason string
}

// Error is a document that cannot be loaded: the file, the JSON pointer of
// the offending part ("" for the whole document) and what is wrong.
type Error struct {
	// File is the document's path as given.
	File string
	// Pointer is the JSON pointer (RFC 6901) of the offending node.
	Pointer string
	// Msg says what is wrong.
	Msg string
}

// Error renders "file: pointer: message".
func (e *Error) Error() string {
	if e.Pointer == "" {
		return e.File + ": " + e.Msg
	}
	return e.File + ": " + e.Pointer + ": " + e.Msg
}

// Load reads the document at file and builds its tools.
func Load(file string, opts Options) (*API, error) {
	f, err := os.Open(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{File: file, Msg: "cannot be read: " + err.Error()}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxDocumentBytes+1))
	if err != nil {
		return nil, &Error{File: file, Msg: "cannot be read: " + err.Error()}
	}
	return Parse(file, data, opts)
}

// Parse builds the tools of a document read from file (the name is used in
// errors only: external $refs are never followed).
func Parse(file string, data []byte, opts Options) (*API, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	if len(data) > maxDocumentBytes {
		return nil, &Error{File: file, Msg: "is larger than " + strconv.Itoa(maxDocumentBytes) + " bytes"}
	}
	raw, err := decodeTree(data)
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	root, ok := raw.(map[string]any)
	if !ok {
		return nil, &Error{File: file, Msg: "is not an OpenAPI document (the top level must be an object)"}
	}
	if err := checkVersion(root); err != nil {
		err.File = file
		return nil, err
	}
	if err := checkRefs(root); err != nil {
		err.File = file
		return nil, err
	}
	return load(file, data, root, opts)
}

// load hands the document to kin-openapi. A panic in the library on a
// hostile document is a refusal of the document, not a crash of the host.
func load(file string, data []byte, root map[string]any, opts Options) (api *API, err error) {
	defer func() {
		if p := recover(); p != nil {
			api, err = nil, &Error{File: file, Msg: "cannot be read by the OpenAPI library (it failed on this document)"}
		}
	}()
	loader := openapi3.NewLoader() // IsExternalRefsAllowed is false: nothing but this document is read
	doc, lerr := loader.LoadFromData(data)
	if lerr != nil {
		return nil, &Error{File: file, Msg: "cannot be loaded: " + clip(lerr.Error(), 400)}
	}
	if verr := validate(doc); verr != nil {
		verr.File = file
		return nil, verr
	}
	return build(doc, root, opts)
}

func (o *Options) check() error {
	if !validName(o.Name) {
		return fmt.Errorf("openapi: name %q must be letters, digits, _, - and . (starting with a letter or digit), at most 64 bytes", o.Name)
	}
	base, err := checkBaseURL(o.BaseURL)
	if err != nil {
		return fmt.Errorf("openapi: %s: %v", o.Name, err)
	}
	o.BaseURL = base
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = defaultMaxResponseBytes
	}
	for k := range o.Headers {
		if !validHeaderName(k) {
			return fmt.Errorf("openapi: %s: header name %q is not a valid HTTP header name", o.Name, k)
		}
	}
	return nil
}

func checkVersion(root map[string]any) *Error {
	v, _ := root["openapi"].(string)
	if _, isSwagger := root["swagger"]; isSwagger {
		return &Error{Pointer: "/swagger", Msg: "is a Swagger 2.0 document; convert it to OpenAPI 3.0 or 3.1 first"}
	}
	if v == "" {
		return &Error{Pointer: "/openapi", Msg: `is missing: an OpenAPI document starts with openapi: "3.0.x" or "3.1.x"`}
	}
	if !strings.HasPrefix(v, "3.0") && !strings.HasPrefix(v, "3.1") {
		return &Error{Pointer: "/openapi", Msg: fmt.Sprintf("is %q; only OpenAPI 3.0 and 3.1 documents are read", clip(v, 40))}
	}
	return nil
}

// validate runs kin-openapi's validation and turns the context its errors
// carry (section, path, operation, component) into the JSON pointer of the
// offending part. Examples and defaults are not validated: they never change
// a request.
func validate(doc *openapi3.T) *Error {
	err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation(), openapi3.DisableSchemaDefaultsValidation())
	if err == nil {
		return nil
	}
	ptr, cause := pointerOf(err)
	return &Error{Pointer: ptr, Msg: "is not valid OpenAPI: " + clip(cause.Error(), 400)}
}

// sectionKeys and componentKeys map kin-openapi's section names to the
// document's keys.
var (
	sectionKeys   = map[string]string{"external docs": "externalDocs"}
	componentKeys = map[string]string{"schema": "schemas", "parameter": "parameters", "header": "headers",
		"request body": "requestBodies", "response": "responses", "security scheme": "securitySchemes",
		"example": "examples", "link": "links", "callback": "callbacks"}
)

// pointerOf follows the error chain through kin-openapi's context wrappers
// and returns the pointer they name and the innermost error.
func pointerOf(err error) (string, error) {
	ptr := ""
	for {
		switch e := err.(type) {
		case *openapi3.SectionValidationError:
			key := e.Section
			if k, ok := sectionKeys[key]; ok {
				key = k
			}
			ptr += "/" + escapePointer(key)
			err = e.Cause
		case *openapi3.PathValidationError:
			ptr += "/" + escapePointer(e.Path)
			err = e.Cause
		case *openapi3.OperationValidationError:
			ptr += "/" + strings.ToLower(e.Method)
			err = e.Cause
		case *openapi3.ComponentValidationError:
			key := e.Section
			if k, ok := componentKeys[key]; ok {
				key = k
			}
			ptr += "/" + escapePointer(key) + "/" + escapePointer(e.Name)
			err = e.Cause
		default:
			return ptr, err
		}
	}
}

// methods are the operations of a path item in the order tools are made.
var methods = []string{http.MethodGet, http.MethodPut, http.MethodPost, http.MethodDelete, http.MethodOptions,
	http.MethodHead, http.MethodPatch, http.MethodTrace}

// eachOperation calls fn for every operation, paths sorted and methods in
// the order above, until fn returns false.
func eachOperation(doc *openapi3.T, fn func(path, method string, item *openapi3.PathItem, op *openapi3.Operation) bool) {
	if doc.Paths == nil {
		return
	}
	paths := doc.Paths.InMatchingOrder()
	sort.Strings(paths)
	for _, p := range paths {
		item := doc.Paths.Value(p)
		if item == nil {
			continue
		}
		for _, m := range methods {
			if op := item.GetOperation(m); op != nil && !fn(p, m, item, op) {
				return
			}
		}
	}
}

// clip is text.Clip: every bounded message is cut on a character boundary.
var clip = text.Clip

func opPointer(path, method string) string {
	return "/paths/" + escapePointer(path) + "/" + strings.ToLower(method)
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i, r := range s {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && (i == 0 || r != '_' && r != '-' && r != '.') {
			return false
		}
	}
	return true
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// defaultClient is used without Options.Client.
func defaultClient() *http.Client { return &http.Client{Timeout: 60 * time.Second} }
