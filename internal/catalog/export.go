package catalog

// Trust says whether a tool's metadata may shape what the model sees: trusted
// (core and plugin tools, whose schemas give input and output hints) or untrusted
// (MCP and client tools, whose schemas stay deferred until describe).
type Trust string

// The two trust levels: Trusted for SourceOpenClaw, Untrusted for MCP and client
// tools and openclaw tools marked Spec.Untrusted.
const (
	Trusted   Trust = "trusted"
	Untrusted Trust = "untrusted"
)

// ExportedEntry is one catalog entry as a core running elsewhere (a browser page,
// a Worker) needs it to present the tool as its own: the
// ToolCatalogEntryWithSchema plus the trust and owner the remote catalog must
// keep, and the restartSafe flag it must enforce before relaying a call.
type ExportedEntry struct {
	EntryWithSchema
	// Trust says whether the entry's output schema is trusted.
	Trust Trust `json:"trust"`
	// Owner is the tool's Spec.Owner.
	Owner string `json:"owner"`
	// SideEffects is the tool's Spec.SideEffects (restartSafe runs refuse it).
	SideEffects bool `json:"sideEffects,omitempty"`
	// ReadOnly travels too: without it a relayed MCP or client tool would be
	// refused by restartSafe runs elsewhere (fail closed).
	ReadOnly bool `json:"readOnly,omitempty"`
}

// Export lists every entry in catalog order, MCP entries included, with their
// schemas. It is not counted as a guest describe.
func (c *Catalog) Export() []ExportedEntry {
	out := make([]ExportedEntry, 0, len(c.items))
	for _, it := range c.items {
		trust := Untrusted
		if it.spec.trusted() {
			trust = Trusted
		}
		out = append(out, ExportedEntry{EntryWithSchema: it.withSchema(), Trust: trust,
			Owner: it.spec.Owner, SideEffects: it.spec.SideEffects, ReadOnly: it.spec.ReadOnly})
	}
	return out
}
