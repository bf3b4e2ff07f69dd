package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/internal/mcpname"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestValidateServerName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"github", true}, {"chrome-devtools", true}, {"a.b_c-1", true}, {"9x", true},
		{"", false}, {"-x", false}, {"a:b", false}, {"a b", false}, {"a/b", false},
		{"ü", false}, {strings.Repeat("a", mcpname.MaxBytes), true}, {strings.Repeat("a", mcpname.MaxBytes+1), false},
	} {
		if err := mcpname.Validate(tc.name); (err == nil) != tc.ok {
			t.Errorf("mcpname.Validate(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestCheckRawSchema(t *testing.T) {
	deep := strings.Repeat(`{"a":`, maxSchemaDepth+1) + "1" + strings.Repeat("}", maxSchemaDepth+1)
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"object", `{"type":"object"}`, ""},
		{"not JSON", `{"type":`, "not valid JSON"},
		{"array", `[1]`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"too deep", deep, "nests"},
		{"too big", `{"d":"` + strings.Repeat("x", maxSchemaBytes) + `"}`, "limit"},
		{"brackets in strings do not count", `{"d":"` + strings.Repeat("[", 100) + `"}`, ""},
	} {
		_, err := checkRawSchema(json.RawMessage(tc.schema))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestClipKeepsValidUTF8(t *testing.T) {
	s := clip(strings.Repeat("ä", maxDescriptionBytes))
	if len(s) > maxDescriptionBytes || !strings.HasSuffix(s, "…") || !json.Valid([]byte(`"`+s+`"`)) {
		t.Errorf("clip: len %d", len(s))
	}
	if got := clip("a\xffb"); got != "a\uFFFDb" {
		t.Errorf("clip(invalid) = %q", got)
	}
}

// TestUntrustedMetadataDropped serves hostile tool metadata from a real SDK server
// over in-memory transports and checks that Connect keeps the good tools, drops the
// bad ones with a reason, and never fails as a whole.
func TestUntrustedMetadataDropped(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "hostile", Version: "1"}, nil)
	obj := map[string]any{"type": "object"}
	handler := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
	}
	deep := map[string]any{"type": "object"}
	cur := deep
	for range maxSchemaDepth {
		next := map[string]any{"type": "object"}
		cur["properties"] = map[string]any{"x": next}
		cur = next
	}
	for _, tl := range []*sdk.Tool{
		{Name: "good", Description: strings.Repeat("d", maxDescriptionBytes*2), InputSchema: obj},
		{Name: strings.Repeat("n", maxNameBytes+1), InputSchema: obj},
		{Name: "has space", InputSchema: obj},
		{Name: "deep", InputSchema: deep},
		{Name: "badout", InputSchema: obj, OutputSchema: map[string]any{"type": "object", "big": strings.Repeat("x", maxSchemaBytes)}},
	} {
		srv.AddTool(tl, handler)
	}
	ct, st := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	s, err := Connect(ctx, "hostile", ct)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var names []string
	for _, tl := range s.Tools() {
		names = append(names, tl.Spec().Name)
		if len(tl.Spec().Description) > maxDescriptionBytes {
			t.Errorf("%s: description not clipped (%d bytes)", tl.Spec().Name, len(tl.Spec().Description))
		}
	}
	if strings.Join(names, ",") != "badout,good" {
		t.Errorf("kept tools %v, want [badout good]", names)
	}
	reasons := map[string]string{}
	for _, d := range s.Dropped() {
		reasons[d.Kind+":"+d.Name[:min(len(d.Name), 10)]] = d.Reason
	}
	for key, want := range map[string]string{
		"tool:nnnnnnnnnn":     "limit",
		"tool:has space":      "whitespace",
		"tool:deep":           "nests",
		"outputSchema:badout": "limit",
	} {
		if !strings.Contains(reasons[key], want) {
			t.Errorf("dropped %s: reason %q, want %q (all: %v)", key, reasons[key], want, reasons)
		}
	}
	for _, tl := range s.Tools() {
		if tl.Spec().Name == "badout" && tl.Spec().OutputSchema != nil {
			t.Errorf("oversized output schema kept")
		}
	}
}

// Spec "Lebenszyklus von Lauf und Snapshot" (restartSafe fails closed): an MCP
// tool is read-only for the catalog only when the host vouches for it
// (TrustReadOnly); the server's own readOnlyHint is an untrusted claim that is
// reported (ReadOnlyHints) and changes nothing.
func TestReadOnlyOnlyFromTheHost(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "hints", Version: "1"}, nil)
	obj := map[string]any{"type": "object"}
	handler := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	}
	no := false
	for _, tl := range []*sdk.Tool{
		{Name: "reader", InputSchema: obj, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		{Name: "plain", InputSchema: obj},
		{Name: "idempotent", InputSchema: obj, Annotations: &sdk.ToolAnnotations{IdempotentHint: true, DestructiveHint: &no}},
	} {
		srv.AddTool(tl, handler)
	}
	ct, st := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	s, err := Connect(ctx, "hints", ct)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	readOnly := func() map[string]bool {
		got := map[string]bool{}
		for _, tl := range s.Tools() {
			got[tl.Spec().Name] = tl.Spec().ReadOnly
		}
		return got
	}
	if got := readOnly(); got["reader"] || got["plain"] || got["idempotent"] || len(got) != 3 {
		t.Fatalf("ReadOnly from the server's own hints: %v", got)
	}
	if h := s.ReadOnlyHints(); len(h) != 1 || h[0] != "reader" {
		t.Fatalf("ReadOnlyHints = %v", h)
	}
	if err := s.TrustReadOnly("plain"); err != nil {
		t.Fatal(err)
	}
	if got := readOnly(); got["reader"] || !got["plain"] || got["idempotent"] {
		t.Fatalf("ReadOnly after TrustReadOnly(plain): %v", got)
	}
	err = s.TrustReadOnly("plain", "nope")
	if err == nil || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), `"reader"`) {
		t.Fatalf("unknown tool: %v", err)
	}
	if got := readOnly(); !got["plain"] {
		t.Fatalf("a refused TrustReadOnly changed the list: %v", got)
	}
}
