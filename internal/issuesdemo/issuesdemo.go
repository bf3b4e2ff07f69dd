// Package issuesdemo is the spec's example namespace, made real: an in-memory issue
// tracker exposed as two plugin tools owned by plugin "github" (github_list_issues,
// github_update_issue) and the Issues namespace (Issues.list(params),
// Issues.update(number, patch)) that maps onto them. It exists to exercise the
// namespace boundary end to end and as a template for plugin authors.
package issuesdemo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/namespace"
)

// PluginID owns the tools and the namespace.
const PluginID = "github"

// Tool names.
const (
	ListTool   = "github_list_issues"
	UpdateTool = "github_update_issue"
)

// Issue is one tracked issue.
type Issue struct {
	// Number identifies the issue.
	Number int `json:"number"`
	// Title is the issue's title.
	Title string `json:"title"`
	State string `json:"state"` // "open" or "closed"
	// Labels are the issue's labels.
	Labels []string `json:"labels"`
}

// Store holds issues in memory; safe for concurrent use.
type Store struct {
	mu     sync.Mutex
	issues map[int]Issue
}

// NewStore seeds a store. Issues with a non-positive or duplicate number, an empty
// title or an unknown state are rejected.
func NewStore(seed ...Issue) (*Store, error) {
	s := &Store{issues: map[int]Issue{}}
	for _, is := range seed {
		if is.Number <= 0 || s.issues[is.Number].Number != 0 {
			return nil, fmt.Errorf("issuesdemo: bad or duplicate issue number %d", is.Number)
		}
		if is.Title == "" || (is.State != "open" && is.State != "closed") {
			return nil, fmt.Errorf("issuesdemo: issue %d needs a title and state open|closed", is.Number)
		}
		if is.Labels == nil {
			is.Labels = []string{}
		}
		s.issues[is.Number] = is
	}
	return s, nil
}

// Tools returns the plugin's catalog tools.
func (s *Store) Tools() []catalog.Tool {
	return []catalog.Tool{&listTool{s}, &updateTool{s}}
}

const issueSchema = `{"type":"object","properties":{
  "number":{"type":"integer"},"title":{"type":"string"},
  "state":{"type":"string","enum":["open","closed"]},
  "labels":{"type":"array","items":{"type":"string"}}},
 "required":["number","title","state","labels"],"additionalProperties":false}`

type listTool struct{ s *Store }

func (t *listTool) Spec() catalog.Spec {
	return catalog.Spec{
		Name:        ListTool,
		Description: "List issues of the current repository, filtered by state (default open) and label.",
		Parameters: json.RawMessage(`{"type":"object","properties":{
  "state":{"type":"string","enum":["open","closed","all"],"description":"Issue state; default open"},
  "label":{"type":"string","description":"Only issues carrying this label"}},"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"array","items":` + issueSchema + `}`),
		Source:       catalog.SourceOpenClaw,
		Owner:        PluginID,
		Origin:       catalog.OriginBundledPlugin,
	}
}

// decodeStrict rejects unknown fields and trailing data, so typos in model-written
// input fail loudly instead of being ignored.
func decodeStrict(in json.RawMessage, v any) error {
	if len(bytes.TrimSpace(in)) == 0 {
		in = json.RawMessage(`{}`)
	}
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return inputError(err)
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the input object")
	}
	return nil
}

// inputError words a decoding error for the model: the field and what it
// must be, never the Go type the input was decoded into.
func inputError(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Errorf("field %q must not be a JSON %s", te.Field, te.Value)
	case errors.As(err, &te):
		return fmt.Errorf("the input must be an object, not a JSON %s", te.Value)
	case errors.As(err, &se):
		return fmt.Errorf("the input is not valid JSON")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return fmt.Errorf("the input does not match the tool's parameters")
}

func (t *listTool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	var in struct {
		State *string `json:"state"`
		Label *string `json:"label"`
	}
	if err := decodeStrict(call.Input, &in); err != nil {
		return catalog.Result{}, fmt.Errorf("%s: %v", ListTool, err)
	}
	state := "open"
	if in.State != nil {
		state = *in.State
	}
	if state != "open" && state != "closed" && state != "all" {
		return catalog.Result{}, fmt.Errorf("%s: state must be open, closed or all, got %q", ListTool, state)
	}
	t.s.mu.Lock()
	out := []Issue{}
	for _, is := range t.s.issues {
		if (state == "all" || is.State == state) && (in.Label == nil || slices.Contains(is.Labels, *in.Label)) {
			is.Labels = slices.Clone(is.Labels)
			out = append(out, is)
		}
	}
	t.s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return result(out, fmt.Sprintf("%d issues", len(out)))
}

type updateTool struct{ s *Store }

func (t *updateTool) Spec() catalog.Spec {
	return catalog.Spec{
		Name:        UpdateTool,
		Description: "Update an issue's title, state or labels.",
		Parameters: json.RawMessage(`{"type":"object","properties":{
  "number":{"type":"integer","minimum":1,"description":"Issue number"},
  "patch":{"type":"object","properties":{
    "title":{"type":"string","minLength":1,"maxLength":256},
    "state":{"type":"string","enum":["open","closed"]},
    "labels":{"type":"array","items":{"type":"string"},"maxItems":20}},
   "additionalProperties":false,"minProperties":1}},
 "required":["number","patch"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(issueSchema),
		Source:       catalog.SourceOpenClaw,
		Owner:        PluginID,
		Origin:       catalog.OriginBundledPlugin,
		SideEffects:  true,
	}
}

func (t *updateTool) Execute(ctx context.Context, call catalog.Call) (catalog.Result, error) {
	var in struct {
		Number *int `json:"number"`
		Patch  *struct {
			Title  *string   `json:"title"`
			State  *string   `json:"state"`
			Labels *[]string `json:"labels"`
		} `json:"patch"`
	}
	if err := decodeStrict(call.Input, &in); err != nil {
		return catalog.Result{}, fmt.Errorf("%s: %v", UpdateTool, err)
	}
	if in.Number == nil || in.Patch == nil {
		return catalog.Result{}, fmt.Errorf("%s: number and patch are required", UpdateTool)
	}
	p := in.Patch
	switch {
	case p.Title == nil && p.State == nil && p.Labels == nil:
		return catalog.Result{}, fmt.Errorf("%s: patch is empty; set title, state or labels", UpdateTool)
	case p.Title != nil && (*p.Title == "" || len(*p.Title) > 256):
		return catalog.Result{}, fmt.Errorf("%s: title must be 1..256 bytes", UpdateTool)
	case p.State != nil && *p.State != "open" && *p.State != "closed":
		return catalog.Result{}, fmt.Errorf("%s: state must be open or closed, got %q", UpdateTool, *p.State)
	case p.Labels != nil && len(*p.Labels) > 20:
		return catalog.Result{}, fmt.Errorf("%s: at most 20 labels", UpdateTool)
	}
	if err := ctx.Err(); err != nil {
		return catalog.Result{}, err
	}
	t.s.mu.Lock()
	is, ok := t.s.issues[*in.Number]
	if ok {
		if p.Title != nil {
			is.Title = *p.Title
		}
		if p.State != nil {
			is.State = *p.State
		}
		if p.Labels != nil {
			is.Labels = append([]string{}, *p.Labels...)
		}
		t.s.issues[is.Number] = is
		is.Labels = slices.Clone(is.Labels)
	}
	t.s.mu.Unlock()
	if !ok {
		return catalog.Result{}, fmt.Errorf("%s: no issue #%d", UpdateTool, *in.Number)
	}
	return result(is, fmt.Sprintf("updated issue #%d", is.Number))
}

func result(details any, summary string) (catalog.Result, error) {
	raw, err := json.Marshal(details)
	if err != nil {
		return catalog.Result{}, err
	}
	text, _ := json.Marshal(map[string]string{"type": "text", "text": summary})
	return catalog.Result{Content: []json.RawMessage{text}, Details: raw}, nil
}

// Registration is the Issues namespace exactly as in the spec example: the scope
// carries the repository config and two callables mapped onto the plugin's tools.
func Registration() namespace.Registration {
	return namespace.Registration{
		ID:                "github-issues",
		GlobalName:        "Issues",
		Description:       "GitHub issue helpers for the current repository.",
		RequiredToolNames: []string{ListTool, UpdateTool},
		Prompt:            "Use Issues.list(params) and Issues.update(number, patch).",
		CreateScope: func(ctx namespace.ScopeContext) (any, error) {
			return map[string]any{
				"repository": ctx.Config,
				"list":       namespace.Tool(ListTool, nil),
				"update": namespace.Tool(UpdateTool, func(args []json.RawMessage) (json.RawMessage, error) {
					var number, patch json.RawMessage = json.RawMessage("null"), json.RawMessage("null")
					if len(args) > 0 {
						number = args[0]
					}
					if len(args) > 1 {
						patch = args[1]
					}
					return json.Marshal(map[string]json.RawMessage{"number": number, "patch": patch})
				}),
			}, nil
		},
	}
}

// Register registers the Issues namespace for the github plugin in the default
// registry.
func Register() error { return RegisterIn(namespace.Default()) }

// RegisterIn registers the Issues namespace for the github plugin in reg.
func RegisterIn(reg *namespace.Registry) error {
	return reg.RegisterForPlugin(PluginID, Registration())
}
