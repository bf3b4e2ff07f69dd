package core

import (
	"context"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/surface"
)

// Surface returns the model-visible tools for a run of scope: exec, wait and the
// direct-only tools when Code Mode activates, the untouched list when the run
// has no tools (disableTools, an empty allow list, none at all). The exec
// description carries the quick index and the visible namespaces' prompts.
func (rt *Runtime) Surface(ctx context.Context, scope Scope, disableTools bool) (surface.Surface, error) {
	if !rt.enter() {
		return surface.Surface{}, errClosed
	}
	defer rt.leave()
	tools, _, err := rt.effectiveTools(ctx, scope)
	if err != nil {
		return surface.Surface{}, err
	}
	build := rt.buildOptions(scope)
	var infos []surface.NamespaceInfo
	quiet := build
	quiet.Skip = func(error) {} // surface.Apply builds again and reports the skipped tools
	if cat, err := catalog.Build(tools, quiet); err == nil {
		if ns, err := rt.resolveNamespaces(cat, scope, "", nil); err == nil {
			for _, in := range ns.Infos() {
				infos = append(infos, surface.NamespaceInfo{GlobalName: in.GlobalName, Description: in.Description, Prompt: in.Prompt})
			}
		}
	}
	return surface.Apply(tools, surface.Options{
		Config:       rt.cfg,
		DisableTools: disableTools,
		Build:        build,
		Namespaces:   infos,
	})
}

// stats describes the suspended-run store.
type stats struct {
	// Suspended is the number of suspended runs.
	Suspended int `json:"suspended"`
	// SnapshotBytes is what their snapshots hold together.
	SnapshotBytes int `json:"snapshotBytes"`
}

// stats reports how many runs are suspended and what their snapshots hold.
func (rt *Runtime) stats() stats {
	s := rt.store
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	var st stats
	for _, r := range s.runs {
		if r.state == stateSuspended {
			st.Suspended++
			st.SnapshotBytes += r.snap.Bytes()
		}
	}
	return st
}
