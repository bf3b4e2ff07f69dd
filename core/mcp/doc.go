// Package mcp connects Code Mode to real MCP servers through the official Go SDK and
// turns what a server offers into catalog.Tool values.
//
// A Server is one connected client session. ConnectStdio (native hosts only: its
// file is left out of WebAssembly builds, so process spawning never reaches one)
// spawns a command; ConnectHTTP speaks Streamable HTTP over any *http.Client,
// including a fetch-backed one. Both hand an SDK transport to Connect.
//
// Everything a server says about itself is untrusted. Connect keeps only metadata
// within these bounds and records everything it drops, with the reason, in
// Server.Dropped:
//
//   - server name (chosen by the host, not the remote): 1..64 bytes of
//     [A-Za-z0-9_.-], starting with a letter or digit; ':' is excluded because
//     catalog ids are "<source>:<owner>:<tool>". A bad name is a Connect error.
//   - tool, prompt and resource names: 1..128 bytes of valid UTF-8 without control
//     characters or whitespace; longer or malformed names drop the entry.
//   - descriptions: cut at 4 KiB (on a rune boundary, marked with "…").
//   - input and output schemas: a JSON object of at most 64 KiB, nested at most 32
//     levels. A bad input schema drops the tool; a bad output schema drops only the
//     output claim (it is untrusted anyway and never produces hints).
//   - at most 512 tools, 512 resources and 512 prompts per server; the rest are
//     dropped. Duplicate names keep the first entry.
//   - a tool result, resource or prompt is refused when its JSON exceeds 8 MiB.
package mcp
