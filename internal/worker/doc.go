// Package worker runs the Code Mode HTTP API in Cloudflare Workers.
//
// The front (package main in ./front) is one Go program per isolate, started
// by src/index.mjs inside the isolate's first request and serving every
// request of that isolate through ServeJS; syumai/workers' own Serve would
// start a Go program per request (tens of ms of CPU each), so it is used only
// for the Durable Object binding and the fetch client. The front is the edge
// handler: auth, bad-input answers, CORS and routing are edge's, unchanged.
// Its edge.Runtime is a Forwarder: Exec, Wait and Surface go to the Durable
// Object of the caller's session (named from the principal, the agent and the
// session id, see ObjectName), which holds one long-lived core (hostjs inline
// mode, src/session.mjs) and its suspended runs;
// Catalog and CallTool are answered by a RelayOnly core over the Worker's Go
// tools (the example toolset and remote MCP servers over Streamable HTTP), and
// the session's core reaches those tools through the same /v1/catalog and
// /v1/tools/call routes.
//
// After an exec or wait the object answered waiting, the front sends the
// object a touch (WithLater: that request's ctx.waitUntil), and the object's core
// restarts that run's snapshot TTL (core.Runtime.RestartTTL). The object's
// clock stands still during CPU work, so the suspension's own stamp is the
// time the request arrived; the touch arrives as I/O, when the clock is right.
//
// /mcp is mcpserver's stateless server over the same Forwarder (its
// RemoteRuntime): the principal and the MCP session id name the session's
// object; notifications/cancelled and DELETE reach it as the ops "cancel" and
// "end".
//
// A failure of the object itself (its CPU limit, an eviction during a request,
// a deploy) is answered as a failed CodeModeResult, never a 500: see
// ObjectFailure.
package worker
