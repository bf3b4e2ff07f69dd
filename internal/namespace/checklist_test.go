package namespace_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/issuesdemo"
	"github.com/codemode-go/codemode/internal/namespace"
)

func seedStore(t *testing.T) *issuesdemo.Store {
	t.Helper()
	s, err := issuesdemo.NewStore(
		issuesdemo.Issue{Number: 1, Title: "Gateway logs", State: "open", Labels: []string{"bug"}},
		issuesdemo.Issue{Number: 2, Title: "Docs typo", State: "open", Labels: []string{"docs"}},
		issuesdemo.Issue{Number: 3, Title: "Old crash", State: "closed", Labels: []string{"bug"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testReg is the registry the checklist tests register in and resolve against;
// clearRegistry replaces it. Tests that need isolation from each other without
// sharing it use a NewRegistry of their own (see TestRegistriesAreIndependent).
var testReg = namespace.NewRegistry()

func clearRegistry() { testReg = namespace.NewRegistry() }

func specs(tools []catalog.Tool) []catalog.Spec {
	var out []catalog.Spec
	for _, t := range tools {
		out = append(out, t.Spec())
	}
	return out
}

func setup(t *testing.T) *issuesdemo.Store {
	t.Helper()
	clearRegistry()
	t.Cleanup(clearRegistry)
	if err := issuesdemo.RegisterIn(testReg); err != nil {
		t.Fatal(err)
	}
	return seedStore(t)
}

func resolve(t *testing.T, visible []catalog.Spec) *namespace.Runtime {
	t.Helper()
	rt, err := testReg.Resolve(namespace.ScopeContext{RunID: "r1", Config: json.RawMessage(`{"owner":"openclaw","repo":"openclaw"}`)}, visible)
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestNamespaceChecklist_PromptOnlyWhenToolsVisible(t *testing.T) {
	store := setup(t)
	all := specs(store.Tools())
	rt := resolve(t, all)
	if infos := rt.Infos(); len(infos) != 1 || infos[0].GlobalName != "Issues" || !strings.Contains(infos[0].Prompt, "Issues.list(params)") {
		t.Fatalf("visible: infos = %+v", infos)
	}
	for name, visible := range map[string][]catalog.Spec{
		"no tools":          nil,
		"only list":         all[:1],
		"only update":       all[1:],
		"update directOnly": {all[0], func() catalog.Spec { s := all[1]; s.DirectOnly = true; return s }()},
	} {
		rt := resolve(t, visible)
		if len(rt.Infos()) != 0 || string(rt.Descriptors()) != "[]" {
			t.Errorf("%s: namespace visible: %+v %s", name, rt.Infos(), rt.Descriptors())
		}
		if _, _, err := rt.ResolveCall("github-issues", []string{"list"}, nil); err == nil {
			t.Errorf("%s: call resolved on an invisible namespace", name)
		}
	}
}

func TestNamespaceChecklist_SameNamedToolFromOtherSourceDoesNotExpose(t *testing.T) {
	store := setup(t)
	for name, mutate := range map[string]func(*catalog.Spec){
		"mcp server named github": func(s *catalog.Spec) { s.Source = catalog.SourceMCP },
		"client app github":       func(s *catalog.Spec) { s.Source = catalog.SourceClient },
		"other plugin":            func(s *catalog.Spec) { s.Owner = "evil" },
		"core":                    func(s *catalog.Spec) { s.Owner = "core" },
	} {
		visible := specs(store.Tools())
		mutate(&visible[1])
		if rt := resolve(t, visible); len(rt.Infos()) != 0 {
			t.Errorf("%s: namespace exposed: %+v", name, rt.Infos())
		}
	}
	// Another plugin cannot take over the id or the global name either.
	reg := issuesdemo.Registration()
	if err := testReg.RegisterForPlugin("evil", reg); err == nil || !strings.Contains(err.Error(), `already registered by plugin "github"`) {
		t.Errorf("id takeover: err = %v", err)
	}
	reg.ID = "evil-issues"
	if err := testReg.RegisterForPlugin("evil", reg); err == nil || !strings.Contains(err.Error(), "already used") {
		t.Errorf("globalName takeover: err = %v", err)
	}
}

func register(t *testing.T, id, global string, scope any) {
	t.Helper()
	err := testReg.RegisterForPlugin(issuesdemo.PluginID, namespace.Registration{
		ID: id, GlobalName: global, RequiredToolNames: []string{issuesdemo.ListTool, issuesdemo.UpdateTool},
		CreateScope: func(namespace.ScopeContext) (any, error) { return scope, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
}

func resolveErr(t *testing.T, visible []catalog.Spec) error {
	t.Helper()
	_, err := testReg.Resolve(namespace.ScopeContext{RunID: "r1"}, visible)
	return err
}

func TestNamespaceChecklist_RawScopeFunctionsRejected(t *testing.T) {
	visible := specs(seedStore(t).Tools())
	type withFunc struct{ List func() }
	for name, tc := range map[string]struct {
		scope any
		want  string
	}{
		"func value":        {map[string]any{"list": func() {}}, "Raw.list: raw function"},
		"nested func":       {map[string]any{"a": []any{1, map[string]any{"b": func() int { return 1 }}}}, "Raw.a.1.b: raw function"},
		"struct func":       {withFunc{List: func() {}}, "Raw.List: raw function"},
		"channel":           {map[string]any{"c": make(chan int)}, "Raw.c: value of type chan int is not JSON-compatible"},
		"complex":           {map[string]any{"c": complex(1, 2)}, "not JSON-compatible"},
		"zero Callable":     {map[string]any{"x": namespace.Callable{}}, "zero Callable"},
		"scope is callable": {namespace.Tool(issuesdemo.ListTool, nil), "scope itself"},
		"bad map key":       {map[float64]any{1: 2}, "map key type float64"},
	} {
		t.Run(name, func(t *testing.T) {
			clearRegistry()
			t.Cleanup(clearRegistry)
			register(t, "raw", "Raw", tc.scope)
			err := resolveErr(t, visible)
			var se *namespace.SerializeError
			if !errors.As(err, &se) || se.Namespace != "raw" || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want SerializeError for namespace raw containing %q", err, tc.want)
			}
		})
	}
	t.Run("createScope error and panic", func(t *testing.T) {
		for _, f := range []func(namespace.ScopeContext) (any, error){
			func(namespace.ScopeContext) (any, error) { return nil, errors.New("boom") },
			func(namespace.ScopeContext) (any, error) { panic("kaboom") },
		} {
			clearRegistry()
			_ = testReg.RegisterForPlugin("github", namespace.Registration{ID: "x", GlobalName: "X", RequiredToolNames: []string{issuesdemo.ListTool}, CreateScope: f})
			if err := resolveErr(t, visible); err == nil || !strings.Contains(err.Error(), `namespace "x": createScope`) {
				t.Errorf("err = %v", err)
			}
		}
		clearRegistry()
	})
}

func TestNamespaceChecklist_ForgedIdsAndPathsRejected(t *testing.T) {
	rt := resolve(t, specs(setup(t).Tools()))
	for name, tc := range map[string]struct {
		id   string
		path []string
		want string
	}{
		"unknown id":        {"github-issues2", []string{"list"}, "unknown namespace"},
		"global name as id": {"Issues", []string{"list"}, "unknown namespace"},
		"empty id":          {"", []string{"list"}, "unknown namespace"},
		"data path":         {"github-issues", []string{"repository"}, "not a callable"},
		"missing path":      {"github-issues", []string{"delete"}, "not a callable"},
		"empty path":        {"github-issues", nil, "invalid callable path"},
		"proto path":        {"github-issues", []string{"__proto__", "list"}, "not a callable"},
		"joined path":       {"github-issues", []string{"list.x"}, "segment"},
		"empty segment":     {"github-issues", []string{""}, "segment"},
		"deeper than list":  {"github-issues", []string{"list", "call"}, "not a callable"},
	} {
		if _, _, err := rt.ResolveCall(tc.id, tc.path, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
	if _, _, err := rt.ResolveCall("github-issues", []string{"list"}, []json.RawMessage{json.RawMessage(`{bad`)}); err == nil {
		t.Errorf("invalid JSON argument accepted")
	}
}

func TestNamespaceChecklist_CallablePathsCannotPointAtUndeclaredTools(t *testing.T) {
	clearRegistry()
	t.Cleanup(clearRegistry)
	register(t, "sneaky", "Sneaky", map[string]any{"exec": namespace.Tool("exec", nil)})
	err := resolveErr(t, specs(seedStore(t).Tools()))
	if err == nil || !strings.Contains(err.Error(), `Sneaky.exec: callable points at tool "exec", which is not in requiredToolNames`) {
		t.Errorf("err = %v", err)
	}
}

type Repo struct {
	Owner string `json:"owner"`
	Name  string `json:"name,omitempty"`
	Skip  string `json:"-"`
	inner string
}

func TestNamespaceChecklist_NestedObjectsAndSharedReferencesSerialize(t *testing.T) {
	clearRegistry()
	t.Cleanup(clearRegistry)
	shared := &Repo{Owner: "openclaw", Skip: "x", inner: "y"}
	sharedMap := map[string]any{"k": []int{1, 2}}
	list := namespace.Tool(issuesdemo.ListTool, nil)
	register(t, "nested", "Nested", map[string]any{
		"a":      shared,
		"b":      []any{shared, sharedMap, sharedMap},
		"deep":   map[string]any{"x": map[string]any{"list": list, "again": list}},
		"values": map[string]any{"nan": math.NaN(), "inf": math.Inf(1), "big": int64(1) << 60, "u": uint64(math.MaxUint64), "bi": big.NewInt(7), "t": time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "bytes": []byte("hi"), "num": json.Number("12345678901234567890"), "raw": json.RawMessage(`{"z":[1,{"y":null}]}`), "nilmap": map[string]int(nil), "f": 1.5},
	})
	rt := resolve(t, specs(seedStore(t).Tools()))
	var descs []struct {
		ID, GlobalName string
		Value          map[string]any
		Callables      [][]string
	}
	if err := json.Unmarshal(rt.Descriptors(), &descs); err != nil || len(descs) != 1 {
		t.Fatalf("descriptors %s: %v", rt.Descriptors(), err)
	}
	d := descs[0]
	got, _ := json.Marshal(d.Value)
	want := `{"a":{"owner":"openclaw"},"b":[{"owner":"openclaw"},{"k":[1,2]},{"k":[1,2]}],"deep":{"x":{"again":null,"list":null}},` +
		`"values":{"bi":"7","big":"1152921504606846976","bytes":"aGk=","f":1.5,"inf":null,"nan":null,"nilmap":null,"num":"12345678901234567890","raw":{"z":[1,{"y":null}]},"t":"2026-01-02T03:04:05Z","u":"18446744073709551615"}}`
	if string(got) != want {
		t.Errorf("value\n got %s\nwant %s", got, want)
	}
	if paths, _ := json.Marshal(d.Callables); string(paths) != `[["deep","x","again"],["deep","x","list"]]` {
		t.Errorf("callables = %s", paths)
	}
	for _, p := range d.Callables {
		if tool, _, err := rt.ResolveCall("nested", p, nil); err != nil || tool != issuesdemo.ListTool {
			t.Errorf("ResolveCall(%v) = %q, %v", p, tool, err)
		}
	}
}

func TestNamespaceChecklist_CyclesAndUnsafeKeysRejected(t *testing.T) {
	visible := specs(seedStore(t).Tools())
	type node struct{ Next *node }
	loop := &node{}
	loop.Next = loop
	m := map[string]any{}
	m["self"] = m
	s := []any{nil}
	s[0] = s
	for name, tc := range map[string]struct {
		scope any
		want  string
	}{
		"pointer cycle": {loop, "Cyc.Next: reference cycle"},
		"map cycle":     {m, "Cyc.self: reference cycle"},
		"slice cycle":   {s, "Cyc.0: reference cycle"},
		"__proto__":     {map[string]any{"__proto__": 1}, `unsafe key "__proto__"`},
		"constructor":   {map[string]any{"a": map[string]any{"constructor": 1}}, `Cyc.a.constructor: unsafe key`},
		"prototype":     {map[string]any{"prototype": 1}, "unsafe key"},
		"empty key":     {map[string]any{"": 1}, "empty key"},
		"separator":     {map[string]any{"a.b": 1}, "path separator"},
		"raw proto":     {json.RawMessage(`{"__proto__":{"x":1}}`), "unsafe key"},
		"too deep":      {deepMap(namespace.MaxDepth + 2), "nested deeper"},
	} {
		t.Run(name, func(t *testing.T) {
			clearRegistry()
			t.Cleanup(clearRegistry)
			register(t, "cyc", "Cyc", tc.scope)
			if err := resolveErr(t, visible); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func deepMap(n int) any {
	var v any = 1
	for range n {
		v = map[string]any{"d": v}
	}
	return v
}

func TestGlobalNamesRejected(t *testing.T) {
	clearRegistry()
	t.Cleanup(clearRegistry)
	for _, name := range []string{"tools", "namespaces", "text", "json", "yield_control", "MCP", "API", "ALL_TOOLS", "__openclawBridge", "Object", "JSON", "Promise", "globalThis", "1x", "a-b", "", "class", "Is sues"} {
		reg := issuesdemo.Registration()
		reg.GlobalName = name
		if err := testReg.RegisterForPlugin("github", reg); err == nil {
			t.Errorf("globalName %q accepted", name)
		}
	}
	if err := testReg.RegisterForPlugin("github", namespace.Registration{ID: "x", GlobalName: "X", CreateScope: func(namespace.ScopeContext) (any, error) { return nil, nil }}); err == nil {
		t.Errorf("registration without required tools accepted")
	}
}

func TestNamespaceChecklist_CallsRunThroughCatalogToolsAndReturnJSONSafeDetails(t *testing.T) {
	store := setup(t)
	tools := map[string]catalog.Tool{}
	for _, tl := range store.Tools() {
		tools[tl.Spec().Name] = tl
	}
	rt := resolve(t, specs(store.Tools()))
	var descs []struct{ Value map[string]any }
	_ = json.Unmarshal(rt.Descriptors(), &descs)
	if repo, _ := descs[0].Value["repository"].(map[string]any); repo["owner"] != "openclaw" {
		t.Errorf("repository from config = %v", descs[0].Value["repository"])
	}
	ctx := context.Background()
	run := func(path string, args ...string) (catalog.Result, error) {
		t.Helper()
		var raw []json.RawMessage
		for _, a := range args {
			raw = append(raw, json.RawMessage(a))
		}
		tool, input, err := rt.ResolveCall("github-issues", []string{path}, raw)
		if err != nil {
			return catalog.Result{}, err
		}
		if owner, _ := rt.PluginID("github-issues"); owner != tools[tool].Spec().Owner {
			t.Fatalf("owner mismatch")
		}
		return tools[tool].Execute(ctx, catalog.Call{ID: "n1", ParentID: "exec1", Input: input})
	}
	checkDetails := func(res catalog.Result, want string) {
		t.Helper()
		if !json.Valid(res.Details) || string(res.Details) != want {
			t.Errorf("details = %s, want %s", res.Details, want)
		}
	}
	res, err := run("list", `{"state":"open"}`)
	if err != nil {
		t.Fatal(err)
	}
	checkDetails(res, `[{"number":1,"title":"Gateway logs","state":"open","labels":["bug"]},{"number":2,"title":"Docs typo","state":"open","labels":["docs"]}]`)
	res, _ = run("list") // no argument: {} -> default open
	if n := strings.Count(string(res.Details), `"number"`); n != 2 {
		t.Errorf("list() returned %d issues", n)
	}
	res, _ = run("list", `null`)
	if n := strings.Count(string(res.Details), `"number"`); n != 2 {
		t.Errorf("list(null) returned %d issues", n)
	}
	res, _ = run("list", `{"state":"all","label":"bug"}`)
	if n := strings.Count(string(res.Details), `"number"`); n != 2 {
		t.Errorf("bug label: %s", res.Details)
	}
	res, err = run("update", `2`, `{"state":"closed","labels":["docs","done"]}`)
	if err != nil {
		t.Fatal(err)
	}
	checkDetails(res, `{"number":2,"title":"Docs typo","state":"closed","labels":["docs","done"]}`)
	res, _ = run("list", `{"state":"closed"}`)
	if n := strings.Count(string(res.Details), `"number"`); n != 2 {
		t.Errorf("closed after update: %s", res.Details)
	}
	for args, want := range map[[2]string]string{
		{`2`, `{"state":"merged"}`}: "state must be open or closed",
		{`2`, `{}`}:                 "patch is empty",
		{`2`, `{"color":"red"}`}:    "unknown field",
		{`99`, `{"title":"x"}`}:     "no issue #99",
		{`"2"`, `{"title":"x"}`}:    `field "number" must not be a JSON string`, // never a Go type
		{`2`, `null`}:               "number and patch are required",
	} {
		if _, err := run("update", args[0], args[1]); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("update(%s, %s): err = %v, want %q", args[0], args[1], err, want)
		}
	}
	if _, err := run("list", `{"state":"open","extra":1}`); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("list with unknown field: %v", err)
	}
}

func TestNamespaceChecklist_PluginRollbackClearsRegistrations(t *testing.T) {
	store := setup(t)
	if err := testReg.RegisterForPlugin("other", namespace.Registration{ID: "other-ns", GlobalName: "Other", RequiredToolNames: []string{"other_tool"}, CreateScope: func(namespace.ScopeContext) (any, error) { return map[string]any{}, nil }}); err != nil {
		t.Fatal(err)
	}
	visible := append(specs(store.Tools()), catalog.Spec{Name: "other_tool", Source: catalog.SourceOpenClaw, Owner: "other"})
	if rt := resolve(t, visible); len(rt.Infos()) != 2 {
		t.Fatalf("before rollback: %+v", rt.Infos())
	}
	testReg.ClearForPlugin(issuesdemo.PluginID)
	rt := resolve(t, visible)
	if infos := rt.Infos(); len(infos) != 1 || infos[0].GlobalName != "Other" {
		t.Errorf("after rollback: %+v", infos)
	}
	if strings.Contains(string(rt.Descriptors()), "Issues") {
		t.Errorf("stale Issues descriptor: %s", rt.Descriptors())
	}
	// The plugin can load again after its rollback.
	if err := issuesdemo.RegisterIn(testReg); err != nil {
		t.Errorf("re-register: %v", err)
	}
}

// A broken registration is skipped, not fatal: the run keeps every other
// visible namespace, and the error names the skipped one.
func TestBrokenRegistrationIsSkippedNotFatal(t *testing.T) {
	visible := specs(seedStore(t).Tools())
	clearRegistry()
	t.Cleanup(clearRegistry)
	register(t, "good", "Good", map[string]any{"list": namespace.Tool(issuesdemo.ListTool, nil)})
	register(t, "raw", "Raw", map[string]any{"list": func() {}})
	rt, err := testReg.Resolve(namespace.ScopeContext{RunID: "r1"}, visible)
	var se *namespace.SkippedError
	if !errors.As(err, &se) || se.ID != "raw" || rt == nil {
		t.Fatalf("err = %v, rt = %v", err, rt)
	}
	if infos := rt.Infos(); len(infos) != 1 || infos[0].ID != "good" {
		t.Fatalf("infos = %+v", infos)
	}
}
