package catalog

import "slices"

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
