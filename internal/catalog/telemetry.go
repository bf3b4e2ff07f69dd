package catalog

import (
	"slices"

	"github.com/codemode-go/codemode/internal/jsonw"
)

// SourceCounts is the catalog size per source.
type SourceCounts struct {
	// OpenClaw counts core and plugin tools.
	OpenClaw int `json:"openclaw"`
	// MCP counts MCP tools.
	MCP int `json:"mcp"`
	// Client counts client tools.
	Client int `json:"client"`
}

// Telemetry is the catalog part of CodeModeTelemetry. It holds counts and tool
// names only: no inputs, outputs, descriptions or scope values.
type Telemetry struct {
	// CatalogSize is the hidden catalog's size.
	CatalogSize int `json:"catalogSize"`
	// CatalogBySource splits it by source.
	CatalogBySource SourceCounts `json:"catalogBySource"`
	// SearchCount is the run's tools.search calls so far.
	SearchCount int64 `json:"searchCount"`
	// DescribeCount is the run's tools.describe calls so far.
	DescribeCount int64 `json:"describeCount"`
	// CallCount is the run's tool calls so far.
	CallCount int64 `json:"callCount"`
	// ModelVisibleTools are the tools the model sees: exec, wait and the direct-only ones.
	ModelVisibleTools []string `json:"modelVisibleTools"`
}

// Telemetry snapshots the counters. modelVisible is the surface's tool names
// (exec, wait and kept direct-only tools), which the catalog does not know.
func (c *Catalog) Telemetry(modelVisible []string) Telemetry {
	mv := slices.Clone(modelVisible)
	if mv == nil {
		mv = []string{}
	}
	return Telemetry{
		CatalogSize:       len(c.items),
		CatalogBySource:   c.sources,
		SearchCount:       c.searches.Load(),
		DescribeCount:     c.describes.Load(),
		CallCount:         c.calls.Load(),
		ModelVisibleTools: mv,
	}
}

// AppendJSON appends t as encoding/json writes it, without reflection (see
// the jsonw package: every result carries telemetry, a page's first one too).
func (t Telemetry) AppendJSON(dst []byte) []byte {
	dst = jsonw.Int(append(dst, `{"catalogSize":`...), t.CatalogSize)
	dst = jsonw.Int(append(dst, `,"catalogBySource":{"openclaw":`...), t.CatalogBySource.OpenClaw)
	dst = jsonw.Int(append(dst, `,"mcp":`...), t.CatalogBySource.MCP)
	dst = jsonw.Int(append(dst, `,"client":`...), t.CatalogBySource.Client)
	dst = jsonw.Int(append(dst, `},"searchCount":`...), t.SearchCount)
	dst = jsonw.Int(append(dst, `,"describeCount":`...), t.DescribeCount)
	dst = jsonw.Int(append(dst, `,"callCount":`...), t.CallCount)
	dst = jsonw.Strings(append(dst, `,"modelVisibleTools":`...), t.ModelVisibleTools)
	return append(dst, '}')
}
