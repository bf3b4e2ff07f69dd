package core

// WatchCatalog calls fn each time the tool list behind the catalog changed
// outside a call: a connected MCP server announced
// notifications/tools/list_changed and its new list is in place. A host that
// shows the surface to someone (the MCP server's tools/list) rebuilds it then;
// runs in progress keep the catalog they started with. fn runs on a goroutine
// of the MCP connection and must not block for long. stop ends the watch.
func (rt *Runtime) WatchCatalog(fn func()) (stop func()) {
	var stops []func()
	for _, s := range rt.opts.MCPServers {
		stops = append(stops, s.OnToolsChanged(fn))
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
