// Package surface is the model-visible side of Code Mode: whether Code Mode takes
// over a run's tool list (activation rules), the exec and wait tool definitions
// (flat language enum, the bounded quick index, namespace prompts), the check that
// the payload a host sends a model holds only exec, wait and the direct-only
// tools, and the Anthropic and OpenAI shapes of that list.
package surface

import (
	"encoding/json"
	"fmt"
	"github.com/codemode-go/codemode/internal/config"
	"slices"

	"github.com/codemode-go/codemode/internal/catalog"
)

// Names of the two Code Mode control tools the model sees.
const (
	ExecToolName = "exec"
	WaitToolName = "wait"
)

// ToolDef is one model-visible tool definition, provider-neutral.
type ToolDef struct {
	// Name is the model-visible tool name.
	Name string `json:"name"`
	// Description is the tool description.
	Description string `json:"description"`
	// InputSchema is the input JSON Schema.
	InputSchema json.RawMessage `json:"input_schema"`
}

// Options carry everything Apply needs besides the effective tool list.
type Options struct {
	// Config is tools.codeMode (package config parses and bounds it).
	Config config.Config
	// DisableTools is a run that intentionally has no tools.
	DisableTools bool
	// Build is the catalog policy, scope and hooks. The effective list is already
	// policy-filtered; the policy is applied again so the catalog and the kept
	// direct-only tools can never be wider than it. A non-nil empty Allow list is
	// a run without tools and does not activate Code Mode.
	Build catalog.BuildOptions
	// Namespaces visible in this run; their description and prompt are appended to
	// the exec description.
	Namespaces []NamespaceInfo
	// Index bounds the quick index; zero fields take the defaults.
	Index IndexLimits
}

// Surface is the outcome of Apply.
type Surface struct {
	// Active is true when Code Mode took over the surface.
	Active bool `json:"active"`
	// Tools is the model-visible list: untouched when inactive; exec, wait and the
	// direct-only tools (in input order) when active.
	Tools []ToolDef `json:"tools"`
	// DirectOnly names the approved direct-only tools when active.
	DirectOnly []string `json:"directOnly,omitempty"`
	// Catalog is the run's hidden catalog when active, nil otherwise.
	Catalog *catalog.Catalog `json:"-"`
}

// Names lists the model-visible tool names, for telemetry and CheckPayload.
func (s Surface) Names() []string {
	out := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = t.Name
	}
	return out
}

// Apply implements the spec's activation rules over the effective tool list.
// Disabled Code Mode, DisableTools, an empty allow list or a run with no tools
// leave the list untouched. Otherwise every catalogue-eligible tool is hidden in
// the catalog and the model sees exactly exec, wait and the direct-only tools;
// control tools (Code Mode and Tool Search alike) are never passed through.
func Apply(effective []catalog.Tool, opts Options) (Surface, error) {
	langs, err := languages(opts.Config)
	if err != nil {
		return Surface{}, err
	}
	noTools := opts.DisableTools || len(effective) == 0 ||
		(opts.Build.Policy.Allow != nil && len(opts.Build.Policy.Allow) == 0)
	if !opts.Config.Enabled || noTools {
		return untouched(effective), nil
	}
	cat, err := catalog.Build(effective, opts.Build)
	if err != nil {
		return Surface{}, err
	}
	controls := opts.Build.ControlNames
	if controls == nil {
		controls = catalog.DefaultControlNames()
	}
	exec := ExecTool(cat.Entries(), langs, opts.Namespaces, opts.Index)
	s := Surface{Active: true, Catalog: cat, Tools: []ToolDef{exec, WaitTool()}}
	seen := map[string]bool{ExecToolName: true, WaitToolName: true}
	for _, t := range effective {
		sp := t.Spec()
		if !sp.DirectOnly || sp.Control || slices.Contains(controls, sp.Name) {
			continue
		}
		if !opts.Build.Policy.Allows(sp.Name, catalog.ToolID(sp)) {
			continue
		}
		if seen[sp.Name] {
			// Fail closed: a direct-only tool must not shadow exec/wait or another one.
			return Surface{}, fmt.Errorf("surface: direct-only tool %q collides with another model-visible tool", sp.Name)
		}
		seen[sp.Name] = true
		s.Tools = append(s.Tools, ToolDef{Name: sp.Name, Description: sp.Description, InputSchema: sp.Parameters})
		s.DirectOnly = append(s.DirectOnly, sp.Name)
	}
	return s, nil
}

func untouched(effective []catalog.Tool) Surface {
	s := Surface{Tools: make([]ToolDef, 0, len(effective))}
	for _, t := range effective {
		sp := t.Spec()
		s.Tools = append(s.Tools, ToolDef{Name: sp.Name, Description: sp.Description, InputSchema: sp.Parameters})
	}
	return s
}

// CheckPayload is the fail-closed check of the final provider payload: when the
// surface is active, the tool names must be exactly one exec, one wait and only
// the surface's approved direct-only tools, each at most once. An inactive
// surface is not enforced.
func CheckPayload(names []string, s Surface) error {
	if !s.Active {
		return nil
	}
	count := map[string]int{}
	for _, n := range names {
		count[n]++
		if count[n] > 1 {
			return fmt.Errorf("code mode payload check: tool %q appears %d times", n, count[n])
		}
		if n != ExecToolName && n != WaitToolName && !slices.Contains(s.DirectOnly, n) {
			return fmt.Errorf("code mode payload check: tool %q is not exec, wait or an approved direct-only tool", n)
		}
	}
	if count[ExecToolName] != 1 || count[WaitToolName] != 1 {
		return fmt.Errorf("code mode payload check: want exactly one exec and one wait, got %d and %d",
			count[ExecToolName], count[WaitToolName])
	}
	return nil
}
