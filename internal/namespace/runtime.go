package namespace

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/codemode-go/codemode/internal/catalog"
	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/text"
)

// Bounds on guest calls into a namespace.
const (
	MaxCallArgs     = 32
	MaxCallArgBytes = 1 << 20
	maxPathSegments = MaxDepth + 1
)

// Info is what the exec tool description shows for a visible namespace.
type Info struct {
	// ID is the namespace id.
	ID string `json:"id"`
	// GlobalName is the guest global it is injected as.
	GlobalName string `json:"globalName"`
	// Description is shown in the exec tool description.
	Description string `json:"description,omitempty"`
	// Prompt is the usage hint shown in the exec tool description.
	Prompt string `json:"prompt,omitempty"`
}

type descriptor struct {
	ID         string          `json:"id"`
	GlobalName string          `json:"globalName"`
	Value      json.RawMessage `json:"value"`
	Callables  [][]string      `json:"callables"`
}

type resolved struct {
	pluginID string
	reg      Registration
	allowed  map[string]bool
	byPath   map[string]Callable
}

// Runtime is the namespace state of one run: the visible namespaces, their
// descriptors and the callable table guest calls are checked against.
type Runtime struct {
	byID        map[string]*resolved
	infos       []Info
	descriptors json.RawMessage
}

// Resolve resolves against the default registry; see Registry.Resolve.
func Resolve(ctx ScopeContext, visible []catalog.Spec) (*Runtime, error) {
	return defaultRegistry.Resolve(ctx, visible)
}

// SkippedError is one registration Resolve left out of a run: a broken plugin
// namespace must not break the other namespaces or plain cells, so it is
// skipped and reported instead. Err is the reason (a *SerializeError, a
// createScope failure, a bad or duplicate globalName, or the size bound).
type SkippedError struct {
	// ID is the registration's namespace id.
	ID string
	// Err is why it was left out.
	Err error
}

// Error is Err's message.
func (e *SkippedError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *SkippedError) Unwrap() error { return e.Err }

// Resolve builds the run's namespaces from the registry and the run catalog. A
// namespace is visible only when every required tool is in visible with Source
// openclaw and Owner equal to the registering plugin; a same-named tool from an MCP
// server, a client or another plugin does not count. A visible namespace whose
// CreateScope fails or whose scope breaks a serialization rule is skipped
// before guest code runs: the Runtime holds the others, and the error joins one
// *SkippedError per skipped namespace for the host to report. The only error
// with a nil Runtime is an aborted run.
func (g *Registry) Resolve(ctx ScopeContext, visible []catalog.Spec) (*Runtime, error) {
	entries := g.snapshot()
	if len(entries) == 0 {
		// Every run of a host without namespaces (a page's): resolve, a large
		// function V8 would compile on its first call, is not called.
		return &Runtime{byID: map[string]*resolved{}, descriptors: json.RawMessage("[]")}, nil
	}
	return resolve(ctx, visible, entries)
}

// resolve is Resolve over the registry's entries.
func resolve(ctx ScopeContext, visible []catalog.Spec, entries []entry) (*Runtime, error) {
	owned := map[string]map[string]bool{} // plugin -> tool names
	for _, s := range visible {
		if s.Source != catalog.SourceOpenClaw || s.DirectOnly {
			continue
		}
		if owned[s.Owner] == nil {
			owned[s.Owner] = map[string]bool{}
		}
		owned[s.Owner][s.Name] = true
	}
	rt := &Runtime{byID: map[string]*resolved{}}
	descs := []descriptor{}
	size := 2 // the array's brackets
	globals := map[string]string{}
	var skipped []error
	skip := func(id string, err error) { skipped = append(skipped, &SkippedError{ID: id, Err: err}) }
	for _, e := range entries {
		if !allVisible(e.reg.RequiredToolNames, owned[e.pluginID]) {
			continue
		}
		if ctx.Aborted != nil && ctx.Aborted() {
			return nil, fmt.Errorf("namespace: run %q was aborted", ctx.RunID)
		}
		if err := ValidateGlobalName(e.reg.GlobalName); err != nil {
			skip(e.reg.ID, fmt.Errorf("namespace %q: %v", e.reg.ID, err))
			continue
		}
		if other, dup := globals[e.reg.GlobalName]; dup {
			skip(e.reg.ID, fmt.Errorf("namespace %q: globalName %q is also used by namespace %q", e.reg.ID, e.reg.GlobalName, other))
			continue
		}
		scope, err := createScope(e.reg, ctx)
		if err != nil {
			skip(e.reg.ID, fmt.Errorf("namespace %q: createScope: %w", e.reg.ID, err))
			continue
		}
		allowed := map[string]bool{}
		for _, t := range e.reg.RequiredToolNames {
			allowed[t] = true
		}
		value, callables, byPath, err := serializeScope(e.reg.ID, e.reg.GlobalName, allowed, scope)
		if err != nil {
			skip(e.reg.ID, err)
			continue
		}
		d := descriptor{ID: e.reg.ID, GlobalName: e.reg.GlobalName, Value: value, Callables: callables}
		one, err := json.Marshal(d)
		if err != nil {
			skip(e.reg.ID, fmt.Errorf("namespace %q: descriptor: %v", e.reg.ID, err))
			continue
		}
		if size+len(one)+1 > MaxDescriptorBytes {
			skip(e.reg.ID, fmt.Errorf("namespace %q: descriptors would be %d bytes together, limit %d", e.reg.ID, size+len(one)+1, MaxDescriptorBytes))
			continue
		}
		size += len(one) + 1
		globals[e.reg.GlobalName] = e.reg.ID
		rt.byID[e.reg.ID] = &resolved{pluginID: e.pluginID, reg: e.reg, allowed: allowed, byPath: byPath}
		rt.infos = append(rt.infos, Info{ID: e.reg.ID, GlobalName: e.reg.GlobalName, Description: e.reg.Description, Prompt: e.reg.Prompt})
		descs = append(descs, d)
	}
	raw, err := json.Marshal(descs)
	if err != nil {
		return nil, fmt.Errorf("namespace: descriptors: %v", err)
	}
	rt.descriptors = raw
	return rt, errors.Join(skipped...)
}

func allVisible(required []string, owned map[string]bool) bool {
	for _, t := range required {
		if !owned[t] {
			return false
		}
	}
	return len(required) > 0
}

// createScope calls the plugin's CreateScope, turning a panic into an error.
func createScope(r Registration, ctx ScopeContext) (scope any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panicked: %v", p)
		}
	}()
	return r.CreateScope(ctx)
}

// Descriptors returns the JSON array the guest rebuilds the namespaces from (see
// the package documentation for its shape).
func (rt *Runtime) Descriptors() json.RawMessage { return rt.descriptors }

// Infos lists the visible namespaces for the exec tool description, sorted by id.
// Nothing of an invisible namespace ever appears here.
func (rt *Runtime) Infos() []Info { return append([]Info(nil), rt.infos...) }

// PluginID returns the plugin that owns a visible namespace: the tool ResolveCall
// names is the catalog entry openclaw:<pluginID>:<toolName>.
func (rt *Runtime) PluginID(namespaceID string) (string, bool) {
	r, ok := rt.byID[namespaceID]
	if !ok {
		return "", false
	}
	return r.pluginID, true
}

// ResolveCall maps a guest call (namespace id, callable path, JSON arguments) to
// the catalog tool and its input. Unknown namespace ids, paths that are not
// callables of that namespace and tools outside requiredToolNames are rejected;
// the caller then runs the tool through the catalog's exact-id path.
func (rt *Runtime) ResolveCall(namespaceID string, path []string, args []json.RawMessage) (toolName string, input json.RawMessage, err error) {
	r, ok := rt.byID[namespaceID]
	if !ok {
		return "", nil, fmt.Errorf("namespace: unknown namespace %q in this run", clip(namespaceID))
	}
	if len(path) == 0 || len(path) > maxPathSegments {
		return "", nil, fmt.Errorf("namespace %q: invalid callable path", namespaceID)
	}
	for _, seg := range path {
		if seg == "" || strings.Contains(seg, PathSeparator) {
			return "", nil, fmt.Errorf("namespace %q: invalid callable path segment %q", namespaceID, clip(seg))
		}
	}
	c, ok := r.byPath[strings.Join(path, PathSeparator)]
	if !ok {
		return "", nil, fmt.Errorf("namespace %q: %s.%s is not a callable", namespaceID, r.reg.GlobalName, clip(strings.Join(path, ".")))
	}
	if !r.allowed[c.toolName] {
		return "", nil, fmt.Errorf("namespace %q: tool %q is not in requiredToolNames", namespaceID, c.toolName)
	}
	if len(args) > MaxCallArgs {
		return "", nil, fmt.Errorf("namespace %q: %d arguments, limit %d", namespaceID, len(args), MaxCallArgs)
	}
	for i, a := range args {
		if len(a) > MaxCallArgBytes {
			return "", nil, fmt.Errorf("namespace %q: argument %d is %d bytes, limit %d", namespaceID, i, len(a), MaxCallArgBytes)
		}
		if len(a) > 0 && !json.Valid(a) {
			return "", nil, fmt.Errorf("namespace %q: argument %d is not valid JSON", namespaceID, i)
		}
	}
	input, err = mapInput(c, args)
	if err != nil {
		return "", nil, fmt.Errorf("namespace %q: %s.%s: %w", namespaceID, r.reg.GlobalName, strings.Join(path, "."), err)
	}
	return c.toolName, input, nil
}

func mapInput(c Callable, args []json.RawMessage) (out json.RawMessage, err error) {
	if c.mapper == nil {
		if len(args) == 0 || len(bytes.TrimSpace(args[0])) == 0 || bytes.Equal(bytes.TrimSpace(args[0]), []byte("null")) {
			return json.RawMessage(`{}`), nil
		}
		return args[0], nil
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("input mapper panicked: %v", p)
		}
	}()
	out, err = c.mapper(append([]json.RawMessage(nil), args...))
	if err != nil {
		return nil, err
	}
	if !json.Valid(out) {
		return nil, fmt.Errorf("input mapper returned invalid JSON")
	}
	return out, nil
}

// clip bounds guest-supplied names in error messages.
func clip(s string) string { return text.Clip(s, 64) }
