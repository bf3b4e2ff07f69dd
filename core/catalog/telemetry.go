package catalog

import "slices"

// SourceCounts is the catalog size per source.
type SourceCounts struct {
	OpenClaw int `json:"openclaw"`
	MCP      int `json:"mcp"`
	Client   int `json:"client"`
}

// Telemetry is the catalog part of CodeModeTelemetry. It holds counts and tool
// names only: no inputs, outputs, descriptions or scope values.
type Telemetry struct {
	CatalogSize       int          `json:"catalogSize"`
	CatalogBySource   SourceCounts `json:"catalogBySource"`
	SearchCount       int64        `json:"searchCount"`
	DescribeCount     int64        `json:"describeCount"`
	CallCount         int64        `json:"callCount"`
	ModelVisibleTools []string     `json:"modelVisibleTools"`
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
