package namespace

import "encoding/json"

// Callable marks a scope member the guest may call. Its fields are unexported so
// the only way to make one is Tool, and the only thing it can do is name a catalog
// tool: host code never runs in the scope itself.
type Callable struct {
	toolName string
	mapper   func(args []json.RawMessage) (json.RawMessage, error)
}

// Tool makes a callable scope member that runs the catalog tool toolName. mapper
// turns the guest's arguments into the tool input; nil means the first argument,
// or {} when it is absent or null.
func Tool(toolName string, mapper func(args []json.RawMessage) (json.RawMessage, error)) Callable {
	return Callable{toolName: toolName, mapper: mapper}
}
