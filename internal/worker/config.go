package worker

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/serverconfig"
	json "github.com/goccy/go-json"
)

// WorkerdInterruptsPerSecond is how many QuickJS interrupt checks a busy cell
// makes per second of CPU in the session object's core: QuickJS on V8 through
// hostjs inline mode, measured at 19,500-21,000 per CPU second (Node's V8, the
// same core and engine code; workerd's wall-clock timings under the same load
// match; tests/bench/RESULTS.md). The interrupt budget is timeoutMs worth of
// them, so while(true){} with timeoutMs 1000 ends as timeout after about 1 s of
// CPU even where the clock stands still during CPU work.
const WorkerdInterruptsPerSecond = 20000

// WorkerdPollsPerSecond is how many times per CPU second the loop guard of the
// bundled quickjs.wasm polls the core inside a long built-in on V8 (hostjs
// inline mode, the guard counting loop back-edges: 926-41,065 per CPU second
// over internal/longbuiltins, median 11,582; tests/bench/RESULTS.md, "hostjs
// compute: countdown on back-edges"), rounded up to about twice the highest.
// A run may poll timeoutMs worth of them: where the clock stands still during
// CPU work this ends a long built-in after at least timeoutMs of CPU (never
// earlier, so heavy but honest built-in work is never cut short), the
// fastest-polling ones after about twice that; slow-polling ones (typed-array
// copies) run longer and meet the Worker's limits.cpu_ms, which the front
// answers as timeout.
const WorkerdPollsPerSecond = 100000

// Env names the Worker's variables and secrets (wrangler.jsonc "vars",
// `wrangler secret put`).
const (
	// EnvConfig is the server config document (JSON or JSON5) of `codemode
	// serve`, read and validated by internal/serverconfig: tools.codeMode,
	// exampleTools, mcp.servers (url ones: the Worker reaches them with fetch),
	// auth.tokens (tokenEnv names a secret or var of the Worker), cors and
	// maxBodyBytes. Keys that only a process can honour (listen is ignored;
	// staticDir, faultTools and stdio servers are refused) say so.
	EnvConfig = "CODEMODE_CONFIG"
	// EnvTokens is a secret: a JSON array of {principal, token}, added to the
	// config's auth.tokens.
	EnvTokens = "CODEMODE_TOKENS"
	// EnvNoAuth set to "true" serves without tokens (local development only).
	EnvNoAuth = "CODEMODE_INSECURE_NO_AUTH"
	// EnvInterruptsPerSecond overrides WorkerdInterruptsPerSecond.
	EnvInterruptsPerSecond = "CODEMODE_INTERRUPTS_PER_SECOND"
)

// MCPServer is one remote MCP server of the config's mcp.servers.
type MCPServer struct {
	// Name is its key under mcp.servers (MCP.<name> in the guest).
	Name string
	// URL is the server's Streamable HTTP endpoint, reached with fetch.
	URL string
	// Headers are sent with every request (e.g. Authorization).
	Headers map[string]string
	// ReadOnlyTools are the tools the operator vouches are read-only
	// (serverconfig.MCPServer.ReadOnlyTools).
	ReadOnlyTools []string
}

// Settings is the front's configuration, read from the Worker's env.
type Settings struct {
	// CodeMode is tools.codeMode of EnvConfig; it must be enabled.
	CodeMode config.Config
	// Tokens are the config's auth.tokens and the bearer tokens of EnvTokens.
	Tokens []edge.Token
	// NoAuth serves without tokens (EnvNoAuth; local development only).
	NoAuth bool
	// MCPServers are the config's remote MCP servers, in its order.
	MCPServers []MCPServer
	// ExampleTools is the config's exampleTools (serverconfig.Config): nil
	// puts the example toolset in every catalog when the front is a demo build.
	ExampleTools *bool
	// AllowedOrigins is the CORS allow list (cors.allowedOrigins).
	AllowedOrigins []string
	// MaxBodyBytes bounds request bodies (maxBodyBytes; 0: edge's default).
	MaxBodyBytes int64
	// InterruptsPerSecond sizes each cell's interrupt budget
	// (EnvInterruptsPerSecond, default WorkerdInterruptsPerSecond).
	InterruptsPerSecond int64
	// PollsPerSecond sizes each cell's poll budget (WorkerdPollsPerSecond).
	PollsPerSecond int64
}

// ErrNoTokens is the answer of a Worker configured without tokens: a deployed
// Worker is reachable by anyone, so it serves nothing until it has some.
var ErrNoTokens = errors.New("the Worker has no bearer tokens: set the secret " + EnvTokens +
	` to [{"principal":"...","token":"..."}] (wrangler secret put ` + EnvTokens + `), list auth.tokens in ` + EnvConfig +
	`, or set ` + EnvNoAuth + `=true for local development`)

// ReadSettings reads the front's settings through getenv: the config document
// with the same decoder as `codemode serve`, so a config means the same on
// both and its errors name the variable, line, column and key.
func ReadSettings(getenv func(string) string) (Settings, error) {
	s := Settings{NoAuth: getenv(EnvNoAuth) == "true",
		InterruptsPerSecond: WorkerdInterruptsPerSecond, PollsPerSecond: WorkerdPollsPerSecond}
	text := getenv(EnvConfig)
	if strings.TrimSpace(text) == "" {
		text = "{}"
	}
	lookup := func(k string) (string, bool) { v := getenv(k); return v, v != "" }
	cfg, err := serverconfig.Parse(EnvConfig, []byte(text), lookup)
	if err != nil {
		return s, err
	}
	if err := cfg.RequireEnabled(); err != nil {
		return s, err
	}
	switch {
	case cfg.StaticDir != "":
		return s, fmt.Errorf("%s: staticDir has no meaning in the Worker (serve static files with Workers assets)", EnvConfig)
	case cfg.FaultTools:
		return s, fmt.Errorf("%s: faultTools is for the native soak only, not the Worker", EnvConfig)
	case len(cfg.OpenAPI) > 0:
		return s, fmt.Errorf("%s: openapi needs a file system to read its documents, which the Worker has not; remove it (codemode serve reads them)", EnvConfig)
	}
	for _, m := range cfg.MCPServers {
		if m.URL == "" {
			return s, fmt.Errorf("%s: mcp.servers.%s: the Worker cannot start processes; give it a url (Streamable HTTP) instead of a command", EnvConfig, m.Name)
		}
		s.MCPServers = append(s.MCPServers, MCPServer{Name: m.Name, URL: m.URL, Headers: m.Headers, ReadOnlyTools: m.ReadOnlyTools})
	}
	s.CodeMode, s.ExampleTools, s.AllowedOrigins, s.MaxBodyBytes, s.Tokens = cfg.CodeMode, cfg.ExampleTools, cfg.AllowedOrigins, cfg.MaxBodyBytes, cfg.Tokens
	if t := getenv(EnvTokens); t != "" {
		var more []edge.Token
		if err := json.Unmarshal([]byte(t), &more); err != nil {
			return s, fmt.Errorf("%s must be a JSON array of {principal, token}", EnvTokens)
		}
		s.Tokens = append(s.Tokens, more...)
	}
	if len(s.Tokens) == 0 && !s.NoAuth {
		return s, ErrNoTokens
	}
	if v := getenv(EnvInterruptsPerSecond); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return s, fmt.Errorf("%s must be a positive integer", EnvInterruptsPerSecond)
		}
		s.InterruptsPerSecond = n
	}
	return s, nil
}
