package namespace

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/codemode-go/codemode/internal/jsident"
	"github.com/codemode-go/codemode/internal/wordset"
)

// Bounds on registrations; they come from trusted loaders, so violations are
// errors rather than silent clipping.
const (
	MaxIDBytes          = 128
	MaxDescriptionBytes = 2 << 10
	MaxPromptBytes      = 4 << 10
	MaxRequiredTools    = 64
)

// ScopeContext is the run context CreateScope receives.
type ScopeContext struct {
	// AgentID is the agent running.
	AgentID string
	// SessionKey is the session's routing key.
	SessionKey string
	// SessionID is the session's id.
	SessionID string
	// RunID is the Code Mode run.
	RunID string
	// Config is the namespace's configuration for this run, as JSON.
	Config json.RawMessage
	// Aborted reports whether the run was cancelled; nil means never.
	Aborted func() bool
}

// Registration describes one namespace.
type Registration struct {
	// ID is the namespace id, unique in the registry.
	ID string
	// GlobalName is the guest global (a JavaScript identifier, no built-in).
	GlobalName string
	// Description is shown to the model while the namespace is visible (at most 2 KiB).
	Description string
	// Prompt is a usage hint for the model (at most 4 KiB).
	Prompt string
	// RequiredToolNames are the plugin's catalog tools the namespace needs and may call; all must be visible.
	RequiredToolNames []string
	// CreateScope returns the scope: JSON-compatible values, nested maps, slices and
	// structs, and Callables made with Tool. It runs once per run that sees the
	// namespace.
	CreateScope func(ctx ScopeContext) (any, error)
}

type entry struct {
	pluginID string
	reg      Registration
}

// Registry holds plugin namespace registrations. A host normally uses the
// process default (Default, and the package-level RegisterForPlugin and
// ClearForPlugin); a host that serves several independent setups, or a test that
// runs in parallel, makes its own with NewRegistry and hands it to the runtime.
// It is safe for concurrent use.
type Registry struct {
	mu sync.RWMutex
	m  map[string]entry
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{m: map[string]entry{}} }

var defaultRegistry = NewRegistry()

// Default is the process-wide registry the package-level functions use.
func Default() *Registry { return defaultRegistry }

// builtinGlobal reports a name the Code Mode guest already defines, or a
// JavaScript global a namespace must never replace.
func builtinGlobal(name string) bool { return builtinGlobals.Has(name) }

// builtinGlobals is builtinGlobal's list (a wordset.Set: package init builds
// no map of it in every program linking this package, a page's core among them).
var builtinGlobals = wordset.Set{
	"ALL_TOOLS", "API", "AggregateError", "Array", "ArrayBuffer", "Atomics", "BigInt", "BigInt64Array",
	"BigUint64Array", "Boolean", "DataView", "Date", "Error", "EvalError", "FinalizationRegistry",
	"Float32Array", "Float64Array", "Function", "Infinity", "Int16Array", "Int32Array", "Int8Array",
	"Iterator", "JSON", "MCP", "Map", "Math", "NaN", "Number", "Object", "Promise", "Proxy", "RangeError",
	"ReferenceError", "Reflect", "RegExp", "Set", "SharedArrayBuffer", "String", "Symbol", "SyntaxError",
	"TypeError", "URIError", "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap",
	"WeakRef", "WeakSet", "arguments", "clearInterval", "clearTimeout", "console", "decodeURI",
	"decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval", "exports", "globalThis",
	"import", "isFinite", "isNaN", "json", "module", "namespaces", "parseFloat", "parseInt", "print",
	"queueMicrotask", "require", "setInterval", "setTimeout", "structuredClone", "text", "tools",
	"undefined", "unescape", "yield_control",
}

// ValidateGlobalName checks that name can be injected as a guest global without
// replacing a Code Mode built-in or a JavaScript global.
func ValidateGlobalName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("globalName %q must be 1..64 bytes", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || i > 0 && c >= '0' && c <= '9'
		if !ok {
			return fmt.Errorf("globalName %q is not a JavaScript identifier", name)
		}
	}
	if jsident.Reserved(name) {
		return fmt.Errorf("globalName %q is a JavaScript reserved word", name)
	}
	if builtinGlobal(name) || strings.HasPrefix(name, "__openclaw") {
		return fmt.Errorf("globalName %q collides with a built-in global", name)
	}
	return nil
}

func validateRegistration(pluginID string, r Registration) error {
	if err := checkText("plugin id", pluginID, MaxIDBytes, false); err != nil {
		return err
	}
	if err := checkText("namespace id", r.ID, MaxIDBytes, false); err != nil {
		return err
	}
	if err := ValidateGlobalName(r.GlobalName); err != nil {
		return fmt.Errorf("namespace %q: %v", r.ID, err)
	}
	if len(r.Description) > MaxDescriptionBytes {
		return fmt.Errorf("namespace %q: description is %d bytes, limit %d", r.ID, len(r.Description), MaxDescriptionBytes)
	}
	if len(r.Prompt) > MaxPromptBytes {
		return fmt.Errorf("namespace %q: prompt is %d bytes, limit %d", r.ID, len(r.Prompt), MaxPromptBytes)
	}
	if len(r.RequiredToolNames) == 0 || len(r.RequiredToolNames) > MaxRequiredTools {
		return fmt.Errorf("namespace %q: requiredToolNames must list 1..%d tools", r.ID, MaxRequiredTools)
	}
	for _, t := range r.RequiredToolNames {
		if err := checkText("required tool name", t, MaxIDBytes, false); err != nil {
			return fmt.Errorf("namespace %q: %v", r.ID, err)
		}
	}
	if r.CreateScope == nil {
		return fmt.Errorf("namespace %q: createScope is nil", r.ID)
	}
	return nil
}

func checkText(what, s string, maxBytes int, allowEmpty bool) error {
	if s == "" && !allowEmpty {
		return fmt.Errorf("%s is empty", what)
	}
	if len(s) > maxBytes {
		return fmt.Errorf("%s is %d bytes, limit %d", what, len(s), maxBytes)
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return fmt.Errorf("%s %q contains control or invalid characters", what, s)
		}
	}
	return nil
}

// RegisterForPlugin registers (or, for the same plugin, replaces) a namespace in
// the default registry; see Registry.RegisterForPlugin.
func RegisterForPlugin(pluginID string, r Registration) error {
	return defaultRegistry.RegisterForPlugin(pluginID, r)
}

// ClearForPlugin removes every namespace of a plugin from the default registry;
// see Registry.ClearForPlugin.
func ClearForPlugin(pluginID string) { defaultRegistry.ClearForPlugin(pluginID) }

// RegisterForPlugin registers (or, for the same plugin, replaces) a namespace.
// An id or globalName already held by another registration is an error, so one
// plugin can never take over another's namespace.
func (g *Registry) RegisterForPlugin(pluginID string, r Registration) error {
	if err := validateRegistration(pluginID, r); err != nil {
		return fmt.Errorf("namespace: register for plugin %q: %w", pluginID, err)
	}
	r.RequiredToolNames = append([]string(nil), r.RequiredToolNames...)
	g.mu.Lock()
	defer g.mu.Unlock()
	if old, ok := g.m[r.ID]; ok && old.pluginID != pluginID {
		return fmt.Errorf("namespace: id %q is already registered by plugin %q", r.ID, old.pluginID)
	}
	for id, e := range g.m {
		if id != r.ID && e.reg.GlobalName == r.GlobalName {
			return fmt.Errorf("namespace: globalName %q is already used by namespace %q (plugin %q)", r.GlobalName, id, e.pluginID)
		}
	}
	g.m[r.ID] = entry{pluginID: pluginID, reg: r}
	return nil
}

// ClearForPlugin removes every namespace of a plugin; call it when the plugin is
// reset, disabled or uninstalled, or its load failed, so stale globals do not
// outlive it.
func (g *Registry) ClearForPlugin(pluginID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for id, e := range g.m {
		if e.pluginID == pluginID {
			delete(g.m, id)
		}
	}
}

// snapshot returns the registrations sorted by id.
func (g *Registry) snapshot() []entry {
	g.mu.RLock()
	defer g.mu.RUnlock()
	out := make([]entry, 0, len(g.m))
	for _, e := range g.m {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].reg.ID < out[j].reg.ID })
	return out
}
