package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/codemode-go/codemode/internal/tsschema"
)

// defaultControlNames are the Tool Search control tools; see DefaultControlNames.
var defaultControlNames = []string{"tool_search_code", "tool_search", "tool_describe", "tool_call"}

// DefaultControlNames returns the Tool Search control tools (a fresh slice). They
// are recognised by name (a tool so named is never catalogued, whatever its
// source) because they have no meaning inside Code Mode. The Code Mode exec and
// wait are recognised by Spec.Control instead, since the core shell tool is also
// named "exec" and must stay catalogued as openclaw:core:exec.
func DefaultControlNames() []string { return slices.Clone(defaultControlNames) }

// BuildOptions carry the run's policy and context into Build.
type BuildOptions struct {
	// Policy is the run's allow/deny policy, checked against names and final ids.
	Policy Policy
	// Scope is who runs; tools scoped to another run are left out.
	Scope Scope
	// ControlNames overrides DefaultControlNames() when non-nil. It must not contain
	// "exec" or "wait" (that would hide the shell tool); mark those with Spec.Control.
	ControlNames []string
	// Hooks and approvals every catalog call goes through.
	Hooks Hooks
	// Skip, when set, receives the error of each tool whose Spec cannot form a
	// catalog id (nil tool, no Name, no Owner, unknown Source); that tool is left
	// out and the rest of the catalog is built. When nil, such a tool fails Build.
	// The error names the Spec field to fix.
	Skip func(err error)
	// RenderCache remembers the TypeScript renderings of schemas across
	// builds (a Runtime keeps one for all its runs); nil renders each time.
	RenderCache *RenderCache
}

// RenderCache remembers schema renderings by content (new(RenderCache) makes
// one; safe for concurrent use). It belongs to whoever shares it, never to
// the process.
type RenderCache = tsschema.Memo

// Catalog is the run-scoped hidden tool catalog. It is immutable after Build except
// for its concurrency-safe counters, schema cache and trajectory.
type Catalog struct {
	scope   Scope
	hooks   Hooks
	items   []*item // catalog order, MCP included
	byID    map[string]*item
	guest   []Entry // non-MCP entries in catalog order (ALL_TOOLS)
	safe    map[string]string
	sources SourceCounts
	memo    *RenderCache

	searches, describes, calls atomic.Int64
	callSeq                    atomic.Int64

	schemaMu sync.Mutex
	schemas  map[string]*compiledSchema

	traj Trajectory
}

type item struct {
	tool  Tool
	spec  Spec
	entry Entry
}

// Build makes the catalog for one run from the effective tool list. It drops
// control tools, direct-only tools, tools scoped to another run and tools the policy
// denies, orders the rest by Origin (stable by input order within a group) and
// assigns ids `<source>:<owner>:<name>`.
//
// Duplicate ids: the first tool in catalog order keeps the plain id, later ones get
// "~2", "~3", ... appended (e.g. "mcp:github:search~2"). Since catalog order is
// deterministic, so are the suffixes.
func Build(tools []Tool, opts BuildOptions) (*Catalog, error) {
	controls := opts.ControlNames
	if controls == nil {
		controls = defaultControlNames
	}
	if slices.Contains(controls, "exec") || slices.Contains(controls, "wait") {
		return nil, errors.New("catalog: exec/wait must be marked with Spec.Control, not listed in ControlNames (the shell tool is also named exec)")
	}
	type cand struct {
		tool Tool
		spec Spec
		pos  int
	}
	var cands []cand
	for i, t := range tools {
		s, err := specOf(i, t)
		if err != nil && opts.Skip != nil {
			opts.Skip(err)
			continue
		}
		if err != nil {
			return nil, err
		}
		if s.Control || s.DirectOnly || slices.Contains(controls, s.Name) {
			continue
		}
		if s.Scope != nil && !s.Scope.matches(opts.Scope) {
			continue
		}
		cands = append(cands, cand{t, s, i})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return int(a.spec.Origin) - int(b.spec.Origin) })

	c := &Catalog{
		scope:   opts.Scope,
		hooks:   opts.Hooks,
		byID:    make(map[string]*item, len(cands)),
		schemas: map[string]*compiledSchema{},
		memo:    opts.RenderCache,
	}
	seen := make(map[string]int, len(cands))
	for _, cd := range cands {
		base := string(cd.spec.Source) + ":" + cd.spec.Owner + ":" + cd.spec.Name
		id := base
		for n := seen[base]; n > 0; n++ {
			id = base + "~" + strconv.Itoa(n+1)
			if _, taken := c.byID[id]; !taken {
				break
			}
		}
		seen[base]++
		// Policy is checked against the final id, so a denied id can never be
		// reached by guessing it, and a deny by name covers every duplicate.
		if !opts.Policy.Allows(cd.spec.Name, id) || !opts.Policy.Allows(cd.spec.Name, base) {
			continue
		}
		e := makeEntry(id, cd.spec, opts.RenderCache)
		it := &item{tool: cd.tool, spec: cd.spec, entry: e}
		c.items = append(c.items, it)
		c.byID[id] = it
		switch cd.spec.Source {
		case SourceMCP:
			c.sources.MCP++
		case SourceClient:
			c.sources.Client++
			c.guest = append(c.guest, e)
		default:
			c.sources.OpenClaw++
			c.guest = append(c.guest, e)
		}
	}
	c.safe = safeNames(c.guest)
	return c, nil
}

// specOf is tool i's normalised spec, or why it cannot be catalogued.
func specOf(i int, t Tool) (Spec, error) {
	if t == nil {
		return Spec{}, fmt.Errorf("catalog: tool %d is nil", i)
	}
	s := t.Spec()
	if s.Name == "" {
		return Spec{}, fmt.Errorf("catalog: tool %d has an empty Spec.Name", i)
	}
	return s, normaliseSpec(&s)
}

// normaliseSpec fills Source and Owner from Origin where they are implied and
// rejects the combinations that cannot form an id.
func normaliseSpec(s *Spec) error {
	if s.Source == "" {
		switch s.Origin {
		case OriginMCP:
			s.Source = SourceMCP
		case OriginClient:
			s.Source = SourceClient
		default:
			s.Source = SourceOpenClaw
		}
	}
	switch s.Source {
	case SourceOpenClaw, SourceMCP, SourceClient:
	default:
		return fmt.Errorf("catalog: tool %q has an unknown Spec.Source %q (want %q, %q or %q)", s.Name, s.Source, SourceOpenClaw, SourceMCP, SourceClient)
	}
	if s.Owner == "" {
		if s.Source == SourceOpenClaw && s.Origin == OriginCore {
			s.Owner = "core"
		} else {
			return fmt.Errorf("catalog: tool %q (source %s) has an empty Spec.Owner: set it to %s", s.Name, s.Source, ownerHint(s.Source))
		}
	}
	// Keep Origin consistent with Source so ordering never puts MCP among core tools.
	switch {
	case s.Source == SourceMCP:
		s.Origin = OriginMCP
	case s.Source == SourceClient:
		s.Origin = OriginClient
	case s.Origin == OriginMCP || s.Origin == OriginClient:
		return fmt.Errorf("catalog: tool %q: Spec.Source openclaw with an MCP or client Spec.Origin", s.Name)
	}
	return nil
}

// ownerHint says what Spec.Owner holds for a source (see Spec.Owner).
func ownerHint(s Source) string {
	switch s {
	case SourceMCP:
		return "the MCP server name"
	case SourceClient:
		return "the client or app id"
	}
	return `the plugin id ("core" only for core tools, Origin OriginCore)`
}

// Entries is ALL_TOOLS: every non-MCP entry in catalog order. The slice is a copy.
func (c *Catalog) Entries() []Entry { return slices.Clone(c.guest) }

// Len is the hidden catalog size, MCP entries included.
func (c *Catalog) Len() int { return len(c.items) }

// Scope is the run scope the catalog was built for.
func (c *Catalog) Scope() Scope { return c.scope }

// ToolID is the base catalog id `<source>:<owner>:<name>` a spec maps to (before
// any duplicate suffix), with Source/Owner defaults applied; "" if it has none.
// The surface uses it to apply id-based policy to direct-only tools.
func ToolID(s Spec) string {
	if s.Name == "" || normaliseSpec(&s) != nil {
		return ""
	}
	return string(s.Source) + ":" + s.Owner + ":" + s.Name
}
