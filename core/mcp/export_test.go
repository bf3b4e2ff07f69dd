package mcp

// StdioAllowedEnv lets the external tests see the allowlist.
var StdioAllowedEnv = stdioAllowedEnv
