package namespace_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/issuesdemo"
	"github.com/codemode-go/codemode/internal/namespace"
)

// Registries share nothing: the same id and globalName may be taken by different
// plugins in two registries, clearing one leaves the other, and parallel tests
// never see each other's namespaces.
func TestRegistriesAreIndependent(t *testing.T) {
	visible := specs(seedStore(t).Tools())
	for i := range 4 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			reg := namespace.NewRegistry()
			if rt, err := reg.Resolve(namespace.ScopeContext{RunID: "r"}, visible); err != nil || len(rt.Infos()) != 0 {
				t.Fatalf("a new registry resolved %v, %v; want nothing", rt, err)
			}
			if err := issuesdemo.RegisterIn(reg); err != nil {
				t.Fatal(err)
			}
			cfg := namespace.ScopeContext{RunID: "r", Config: json.RawMessage(`{"owner":"o","repo":"r"}`)}
			rt, err := reg.Resolve(cfg, visible)
			if err != nil || len(rt.Infos()) != 1 || rt.Infos()[0].GlobalName != "Issues" {
				t.Fatalf("Resolve = %v, %v; want the Issues namespace", rt, err)
			}
			reg.ClearForPlugin(issuesdemo.PluginID)
			if rt, _ := reg.Resolve(cfg, visible); len(rt.Infos()) != 0 {
				t.Fatalf("cleared registry still resolves %v", rt.Infos())
			}
		})
	}
	// Another plugin may hold the same id in a registry of its own.
	a, b := namespace.NewRegistry(), namespace.NewRegistry()
	r := issuesdemo.Registration()
	if err := a.RegisterForPlugin("one", r); err != nil {
		t.Fatal(err)
	}
	if err := b.RegisterForPlugin("two", r); err != nil {
		t.Fatalf("registry b refused an id held only in registry a: %v", err)
	}
}

// The package-level functions work on Default, the registry a runtime uses
// when core.Options.Namespaces is nil.
func TestDefaultRegistry(t *testing.T) {
	const plugin = "registry-test-plugin"
	t.Cleanup(func() { namespace.ClearForPlugin(plugin) })
	err := namespace.RegisterForPlugin(plugin, namespace.Registration{
		ID: "registry-test", GlobalName: "RegistryTest", RequiredToolNames: []string{"rt_tool"},
		CreateScope: func(namespace.ScopeContext) (any, error) {
			return map[string]any{"go": namespace.Tool("rt_tool", nil)}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	visible := []catalog.Spec{{Name: "rt_tool", Source: catalog.SourceOpenClaw, Owner: plugin}}
	rt, err := namespace.Default().Resolve(namespace.ScopeContext{RunID: "r"}, visible)
	if err != nil || len(rt.Infos()) != 1 {
		t.Fatalf("Default().Resolve = %v, %v", rt, err)
	}
	namespace.ClearForPlugin(plugin)
	if rt, _ := namespace.Resolve(namespace.ScopeContext{RunID: "r"}, visible); len(rt.Infos()) != 0 {
		t.Fatalf("ClearForPlugin left %v in the default registry", rt.Infos())
	}
}
