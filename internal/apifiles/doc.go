// Package apifiles renders the read-only virtual `API` file surface of Code Mode:
// TypeScript-style declarations for the MCP servers visible in a run, so an agent
// can read one server's signatures (API.read("mcp/<server>.d.ts")) instead of
// carrying every MCP schema in the prompt.
//
// Files: mcp/index.d.ts (server list and the shared McpToolResult, McpApiHeader,
// McpResourceResult and McpPromptResult types) and one mcp/<safeServer>.d.ts per
// server, declaring namespace MCP.<safeServer>.
//
// Safe JS spelling (SafeName), one rule for servers and tools: keep ASCII letters,
// digits and '_'; every run of other characters is dropped and the next letter is
// upper-cased ("chrome-devtools" -> "chromeDevtools", "get-sum" -> "getSum",
// "create.issue" -> "createIssue", "take_snapshot" stays). A leading digit gets a
// '_' prefix, an empty result becomes "_", the result is cut to 64 bytes, and
// JavaScript reserved words, Object.prototype members, "then", "$api" and (for
// tools) "resources" and "prompts" get a '_' suffix. Collisions inside one server
// (or among servers) are resolved deterministically: names that are already safe
// keep their spelling; the others, in byte order of the original name, take the
// base spelling or, if taken, base_2, base_3, ... So no tool ever shadows another.
//
// File names are the safe server spelling plus ".d.ts". A server whose file would
// collide with a root file (mcp/index.d.ts) or an earlier server's file gets '_'
// appended until it is free: a server named "index" is served as mcp/index_.d.ts.
//
// MCP metadata is untrusted. Descriptions and names in comments are cleaned of
// control characters and "*/" (written "*\/"); string literal types are JSON-quoted
// with "*/" and "/*" escaped, so nothing can leave a comment or a declaration.
// Bounds: a tool description keeps 2,000 bytes (24 lines), a property description
// 300 bytes, a schema renders to at most 8 levels and 16 KiB per tool (beyond that
// the input type becomes Record<string, unknown> with a pointer to $api), and each
// file stays under MaxFileBytes; tools that do not fit are named in a closing
// comment, as many as fit.
package apifiles
