package worker

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/codemode-go/codemode/core/config"
	"github.com/codemode-go/codemode/edge"
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
// inline mode: 826-50,559 per CPU second over internal/longbuiltins, median
// 30,696; tests/bench/RESULTS.md, "Loop guard on the host engine"), rounded up
// to about twice the highest. A run may poll timeoutMs worth of them: where the
// clock stands still during CPU work this ends a long built-in after at least
// timeoutMs of CPU (never earlier, so heavy but honest built-in work is never
// cut short), the fastest-polling ones after about twice that; slow-polling
// ones (typed-array copies) run longer and meet the Worker's limits.cpu_ms,
// which the front answers as timeout.
const WorkerdPollsPerSecond = 100000

// Env names the Worker's variables and secrets (wrangler.jsonc "vars",
// `wrangler secret put`).
const (
	// EnvConfig is the server config document (JSON or JSON5); the front reads
	// tools.codeMode from it.
	EnvConfig = "CODEMODE_CONFIG"
	// EnvTokens is a secret: a JSON array of {principal, token}.
	EnvTokens = "CODEMODE_TOKENS"
	// EnvNoAuth set to "true" serves without tokens (local development only).
	EnvNoAuth = "CODEMODE_INSECURE_NO_AUTH"
	// EnvMCPServers is a JSON object {name: {url, headers?}} of remote MCP
	// servers reached over Streamable HTTP with fetch.
	EnvMCPServers = "CODEMODE_MCP_SERVERS"
	// EnvExampleTools set to "false" leaves the example toolset out.
	EnvExampleTools = "CODEMODE_EXAMPLE_TOOLS"
	// EnvAllowedOrigins is a comma-separated CORS allow list.
	EnvAllowedOrigins = "CODEMODE_ALLOWED_ORIGINS"
	// EnvInterruptsPerSecond overrides WorkerdInterruptsPerSecond.
	EnvInterruptsPerSecond = "CODEMODE_INTERRUPTS_PER_SECOND"
)

// MCPServer is one remote MCP server of EnvMCPServers.
type MCPServer struct {
	// URL is the server's Streamable HTTP endpoint, reached with fetch.
	URL string `json:"url"`
	// Headers are sent with every request (e.g. Authorization).
	Headers map[string]string `json:"headers,omitempty"`
}

// Settings is the front's configuration, read from the Worker's env.
type Settings struct {
	// CodeMode is tools.codeMode of EnvConfig; it must be enabled.
	CodeMode config.Config
	// Tokens are the bearer tokens of EnvTokens.
	Tokens []edge.Token
	// NoAuth serves without tokens (EnvNoAuth; local development only).
	NoAuth bool
	// MCPServers are the remote MCP servers of EnvMCPServers, by name.
	MCPServers map[string]MCPServer
	// ExampleTools puts the example toolset in every catalog (EnvExampleTools).
	ExampleTools bool
	// AllowedOrigins is the CORS allow list (EnvAllowedOrigins).
	AllowedOrigins []string
	// InterruptsPerSecond sizes each cell's interrupt budget
	// (EnvInterruptsPerSecond, default WorkerdInterruptsPerSecond).
	InterruptsPerSecond int64
	// PollsPerSecond sizes each cell's poll budget (WorkerdPollsPerSecond).
	PollsPerSecond int64
}

// ErrNoTokens is the answer of a Worker configured without tokens: a deployed
// Worker is reachable by anyone, so it serves nothing until it has some.
var ErrNoTokens = errors.New("the Worker has no bearer tokens: set the secret " + EnvTokens +
	` to [{"principal":"...","token":"..."}] (wrangler secret put ` + EnvTokens + `), or ` + EnvNoAuth + `=true for local development`)

// ReadSettings reads the front's settings through getenv. Errors name the
// variable; the config's own errors name the field.
func ReadSettings(getenv func(string) string) (Settings, error) {
	s := Settings{ExampleTools: getenv(EnvExampleTools) != "false", NoAuth: getenv(EnvNoAuth) == "true",
		InterruptsPerSecond: WorkerdInterruptsPerSecond, PollsPerSecond: WorkerdPollsPerSecond}
	var err error
	if s.CodeMode, err = config.Parse([]byte(getenv(EnvConfig))); err != nil {
		return s, fmt.Errorf("%s: %w", EnvConfig, err)
	}
	if !s.CodeMode.Enabled {
		return s, fmt.Errorf("%s: tools.codeMode.enabled must be true in the Worker", EnvConfig)
	}
	if t := getenv(EnvTokens); t != "" {
		if err := json.Unmarshal([]byte(t), &s.Tokens); err != nil {
			return s, fmt.Errorf("%s must be a JSON array of {principal, token}", EnvTokens)
		}
	}
	if len(s.Tokens) == 0 && !s.NoAuth {
		return s, ErrNoTokens
	}
	if m := getenv(EnvMCPServers); m != "" {
		if err := json.Unmarshal([]byte(m), &s.MCPServers); err != nil {
			return s, fmt.Errorf("%s must be a JSON object {name: {url, headers?}}", EnvMCPServers)
		}
		for name, srv := range s.MCPServers {
			u, err := url.Parse(srv.URL)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				return s, fmt.Errorf("%s: server %q needs an http(s) url", EnvMCPServers, name)
			}
		}
	}
	if o := strings.TrimSpace(getenv(EnvAllowedOrigins)); o != "" {
		for _, p := range strings.Split(o, ",") {
			s.AllowedOrigins = append(s.AllowedOrigins, strings.TrimSpace(p))
		}
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
