// Package serverconfig reads the server config file of codemode serve (and
// codemode exec --config): one JSON or JSON5 file a person writes by hand,
// decoded by internal/config's JSON5 decoder. Every refusal names the file, the
// line and column, and the key path, e.g.
//
//	codemode.json5:12:5: auth.tokens[0].tokn is not a known key (known: principal, token, tokenEnv)
//
// The file's shape (every key optional):
//
//	{
//	  listen: "127.0.0.1:8787",          // host:port; non-loopback needs auth.tokens
//	  exampleTools: true,                // the example toolset (default: on in the builds that have it)
//	  faultTools: false,                 // test-only tools that misbehave (a panicking one), for the soak
//	  staticDir: "build/web",            // served at / (relative to this file)
//	  maxBodyBytes: 4194304,             // request body limit
//	  maxRunningCells: 4,                // cells running guest code at once (default: cores - 1, at least 1)
//	  tools: { codeMode: { enabled: true, timeoutMs: 10000 } },
//	  mcp: { servers: {
//	    everything: { command: "npx", args: ["mcp-server-everything"], env: {}, cwd: "." },
//	    remote: { url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "Bearer x" } },
//	  } },
//	  auth: { tokens: [ { principal: "alice", tokenEnv: "CODEMODE_TOKEN_ALICE" } ] },
//	  cors: { allowedOrigins: ["http://localhost:5173"] },
//	}
package serverconfig

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/codemode-go/codemode/edge"
	"github.com/codemode-go/codemode/internal/config"
	"github.com/codemode-go/codemode/internal/mcpname"
	"github.com/codemode-go/codemode/internal/text"
)

// DefaultListen is where codemode serve listens without listen or --addr.
const DefaultListen = "127.0.0.1:8787"

// Config is a decoded server config file.
type Config struct {
	// CodeMode is tools.codeMode; enabled with the defaults when absent, and
	// disabled when the file has it without enabled: true (see RequireEnabled).
	CodeMode config.Config
	// Listen is host:port; DefaultListen when absent.
	Listen string
	// ExampleTools is exampleTools, the example toolset: nil when the file
	// leaves it out, which means on in a build that has it (the codemode
	// CLI, the demo builds) and off in one without; true in a build without
	// it is an error (internal/demo.Tools.Select).
	ExampleTools *bool
	// FaultTools adds the example toolset's test-only fault tools (a tool that
	// panics), which the load-and-fault soak drives; off by default so no model
	// sees them unless a test config asks.
	FaultTools bool
	// StaticDir is served at /, resolved against the file's directory; empty
	// when absent.
	StaticDir string
	// MaxBodyBytes bounds request bodies; 0 means edge's default.
	MaxBodyBytes int64
	// MaxRunningCells bounds the cells running guest code at once
	// (core.Options.MaxRunningCells); 0 means the default, one per core but one.
	// Native servers only: the Worker ignores it.
	MaxRunningCells int
	// MCPServers in file order.
	MCPServers []MCPServer
	// OpenAPI are the OpenAPI documents whose operations become tools, in
	// file order (see OpenAPITools).
	OpenAPI []OpenAPISource
	// Tokens with every tokenEnv resolved.
	Tokens []edge.Token
	// AllowedOrigins turns CORS on.
	AllowedOrigins []string

	file        string
	codeModePos config.Pos
}

// RequireEnabled is the refusal of a server whose file turns Code Mode off
// (tools.codeMode without enabled: true); nil when it is on.
func (c *Config) RequireEnabled() error {
	if c.CodeMode.Enabled {
		return nil
	}
	return &Error{File: c.file, Pos: c.codeModePos, Key: "tools.codeMode", Msg: "must enable Code Mode (enabled: true) for a Code Mode server"}
}

// MCPServer is one entry of mcp.servers: a stdio command or a Streamable HTTP
// URL, never both.
type MCPServer struct {
	// Name is the key under mcp.servers: the guest reaches the server's tools
	// as MCP.<name> and the catalog ids are mcp:<name>:<tool>.
	Name string
	// Command is the program of a stdio server (looked up in PATH).
	Command string
	// Args are its arguments.
	Args []string
	// Env are variables set for it on top of the allowlisted host variables
	// (mcp.StdioCommand's allowlist); nothing else of the host's environment reaches it.
	Env map[string]string
	// Cwd is its working directory, resolved against the file's directory.
	Cwd string
	// URL is the endpoint of a Streamable HTTP server.
	URL string
	// Headers are sent with every request to URL (e.g. Authorization).
	Headers map[string]string
	// ReadOnlyTools are the server's tools the operator vouches are free of
	// side effects (mcp.Server.TrustReadOnly): the only ones a restartSafe run
	// may call, since the server's own readOnlyHint is not trusted.
	ReadOnlyTools []string
}

// OpenAPISource is one entry of openapi: a document and where its requests go.
type OpenAPISource struct {
	// Name is the key under openapi: the tools' ids are openclaw:<name>:<operation>.
	Name string
	// Spec is the document's path, resolved against the config file's directory.
	Spec string
	// BaseURL is where requests go; the document's servers are not used.
	BaseURL string
	// Headers are sent with every request, headersEnv resolved: the host adds
	// them, the guest never sees them.
	Headers map[string]string
	// Trusted makes the document's schemas quick-index hints and its response
	// schemas output contracts.
	Trusted bool
}

// Error is a refusal with its position in the file.
type Error struct {
	// File is the config file's path as given to Load.
	File string
	// Pos is the line and column of the offending key or value.
	Pos config.Pos
	// Key is the dotted key path, e.g. "mcp.servers.everything.command".
	Key string
	// Msg says what is wrong and what is accepted.
	Msg string
}

// Error renders "file:line:col: key message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Pos.Line > 0 {
		b.WriteString(":" + e.Pos.String())
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + " ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Default is the config without a file: Code Mode on with the spec's
// defaults, the example toolset where the build has it, DefaultListen.
func Default() *Config {
	cm := config.Default()
	cm.Enabled = true
	return &Config{CodeMode: cm, Listen: DefaultListen}
}

// Load reads and decodes the file at path; environment variables named by
// tokenEnv are looked up with os.LookupEnv.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{File: path, Msg: "cannot be read: " + err.Error()}
	}
	return Parse(path, data, os.LookupEnv)
}

// Parse decodes data read from file (used for messages and to resolve relative
// paths); lookupEnv resolves tokenEnv.
func Parse(file string, data []byte, lookupEnv func(string) (string, bool)) (*Config, error) {
	root, err := config.DecodeJSON5(data)
	if err != nil {
		var se *config.SyntaxError
		if errors.As(err, &se) {
			return nil, &Error{File: file, Pos: se.Pos, Msg: "is not valid JSON5: " + se.Msg}
		}
		return nil, &Error{File: file, Msg: "is not valid JSON5"}
	}
	d := &decoder{file: file, dir: filepath.Dir(file), env: lookupEnv}
	c, err := d.top(root)
	if err != nil {
		return nil, err
	}
	c.file = file
	return c, nil
}

type decoder struct {
	file string
	dir  string
	env  func(string) (string, bool)
}

func (d *decoder) errAt(n *config.Node, key, msg string) error {
	return &Error{File: d.file, Pos: n.Pos, Key: key, Msg: msg}
}

// object checks that n is an object with only known keys and calls each for
// every member in file order.
func (d *decoder) object(n *config.Node, path string, known []string, each func(key string, v *config.Node, sub string) error) error {
	if n.Kind != config.KindObject {
		return d.errAt(n, pathOr(path), "must be an object (got "+n.Kind.String()+")")
	}
	for i, k := range n.Keys {
		sub := join(path, k)
		if !contains(known, k) {
			return &Error{File: d.file, Pos: n.KeyPos[i], Key: sub, Msg: "is not a known key (known: " + strings.Join(known, ", ") + ")"}
		}
		if err := each(k, n.Values[i], sub); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) str(n *config.Node, path string) (string, error) {
	if n.Kind != config.KindString {
		return "", d.errAt(n, path, "must be a string (got "+n.Kind.String()+")")
	}
	return n.Str, nil
}

func (d *decoder) strings(n *config.Node, path string) ([]string, error) {
	if n.Kind != config.KindArray {
		return nil, d.errAt(n, path, "must be an array of strings (got "+n.Kind.String()+")")
	}
	out := []string{}
	for i, e := range n.Elems {
		s, err := d.str(e, path+"["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *decoder) stringMap(n *config.Node, path string) (map[string]string, error) {
	if n.Kind != config.KindObject {
		return nil, d.errAt(n, path, "must be an object of strings (got "+n.Kind.String()+")")
	}
	out := map[string]string{}
	for i, k := range n.Keys {
		s, err := d.str(n.Values[i], join(path, k))
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

var topKeys = []string{"listen", "exampleTools", "faultTools", "staticDir", "maxBodyBytes", "maxRunningCells", "tools", "mcp", "openapi", "auth", "cors"}

func (d *decoder) top(root *config.Node) (*Config, error) {
	c := Default()
	err := d.object(root, "", topKeys, func(k string, v *config.Node, path string) error {
		var err error
		switch k {
		case "listen":
			if c.Listen, err = d.str(v, path); err == nil {
				if _, _, e := net.SplitHostPort(c.Listen); e != nil {
					err = d.errAt(v, path, "must be host:port, e.g. 127.0.0.1:8787 (got "+strconv.Quote(c.Listen)+")")
				}
			}
		case "exampleTools":
			if v.Kind != config.KindBool {
				return d.errAt(v, path, "must be true or false (got "+v.Kind.String()+")")
			}
			on := v.Bool
			c.ExampleTools = &on
		case "faultTools":
			if v.Kind != config.KindBool {
				return d.errAt(v, path, "must be true or false (got "+v.Kind.String()+")")
			}
			c.FaultTools = v.Bool
		case "staticDir":
			var dir string
			if dir, err = d.str(v, path); err == nil && dir != "" {
				c.StaticDir = d.resolve(dir)
			}
		case "maxBodyBytes":
			f, ok := v.Float()
			if v.Kind != config.KindNumber || !ok || f != float64(int64(f)) || f < 1024 || f > 1<<30 {
				return d.errAt(v, path, "must be an integer between 1024 and 1073741824")
			}
			c.MaxBodyBytes = int64(f)
		case "maxRunningCells":
			f, ok := v.Float()
			if v.Kind != config.KindNumber || !ok || f != float64(int(f)) || f < 1 || f > 4096 {
				return d.errAt(v, path, "must be an integer between 1 and 4096 (omit it for one per core but one)")
			}
			c.MaxRunningCells = int(f)
		case "tools":
			err = d.object(v, path, []string{"codeMode"}, func(_ string, cm *config.Node, sub string) error {
				return d.codeMode(cm, sub, c)
			})
		case "mcp":
			err = d.object(v, path, []string{"servers"}, func(_ string, s *config.Node, sub string) error {
				return d.servers(s, sub, c)
			})
		case "openapi":
			err = d.openapi(v, path, c)
		case "auth":
			err = d.object(v, path, []string{"tokens"}, func(_ string, t *config.Node, sub string) error {
				return d.tokens(t, sub, c)
			})
		case "cors":
			err = d.object(v, path, []string{"allowedOrigins"}, func(_ string, o *config.Node, sub string) error {
				var err error
				c.AllowedOrigins, err = d.strings(o, sub)
				return err
			})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// codeMode hands tools.codeMode to config.Parse and places its error at the
// offending key.
func (d *decoder) codeMode(n *config.Node, path string, c *Config) error {
	cm, err := config.Parse([]byte(n.JSON()))
	if err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			at, key := locate(n, strings.TrimPrefix(ce.Field, "tools.codeMode"))
			if ce.Field == "" {
				key = path
			}
			return &Error{File: d.file, Pos: at.Pos, Key: path + key, Msg: ce.Msg}
		}
		return d.errAt(n, path, "is not a valid tools.codeMode value")
	}
	c.CodeMode = cm
	c.codeModePos = n.Pos
	return nil
}

var segment = regexp.MustCompile(`^\.([A-Za-z0-9_$]+)|^\[(\d+)\]|^\[("(?:[^"\\]|\\.)*")\]`)

// locate follows a config.Error field suffix (".timeoutMs", ".languages[1]")
// into n and returns the deepest node it reaches, with the suffix it matched.
func locate(n *config.Node, suffix string) (*config.Node, string) {
	matched := ""
	for suffix != "" {
		m := segment.FindStringSubmatch(suffix)
		if m == nil {
			break
		}
		var next *config.Node
		switch {
		case m[1] != "":
			next = n.Get(m[1])
			if next != nil {
				if i := indexOf(n.Keys, m[1]); i >= 0 && n.KeyPos[i].Line > 0 {
					// Point at the key itself for a refused value or key.
					next = &config.Node{Kind: next.Kind, Pos: n.KeyPos[i], Keys: next.Keys, KeyPos: next.KeyPos, Values: next.Values, Elems: next.Elems}
				}
			}
		case m[2] != "":
			i, _ := strconv.Atoi(m[2])
			if n.Kind == config.KindArray && i < len(n.Elems) {
				next = n.Elems[i]
			}
		case m[3] != "":
			k, _ := strconv.Unquote(m[3])
			if i := indexOf(n.Keys, k); i >= 0 {
				next = &config.Node{Pos: n.KeyPos[i]}
			}
		}
		matched += m[0]
		suffix = suffix[len(m[0]):]
		if next == nil {
			return n, matched + suffix
		}
		n = next
	}
	return n, matched + suffix
}

func (d *decoder) servers(n *config.Node, path string, c *Config) error {
	if n.Kind != config.KindObject {
		return d.errAt(n, path, "must be an object of servers by name (got "+n.Kind.String()+")")
	}
	for i, name := range n.Keys {
		sub := join(path, name)
		if err := mcpname.Validate(name); err != nil {
			return &Error{File: d.file, Pos: n.KeyPos[i], Key: sub, Msg: "is not a valid server name (letters, digits, _ and -, at most 64 bytes)"}
		}
		s := MCPServer{Name: name}
		v := n.Values[i]
		err := d.object(v, sub, []string{"command", "args", "env", "cwd", "url", "headers", "readOnlyTools"}, func(k string, f *config.Node, fp string) error {
			var err error
			switch k {
			case "command":
				s.Command, err = d.str(f, fp)
			case "args":
				s.Args, err = d.strings(f, fp)
			case "env":
				s.Env, err = d.stringMap(f, fp)
			case "cwd":
				var dir string
				if dir, err = d.str(f, fp); err == nil {
					s.Cwd = d.resolve(dir)
				}
			case "url":
				s.URL, err = d.str(f, fp)
			case "headers":
				s.Headers, err = d.stringMap(f, fp)
			case "readOnlyTools":
				s.ReadOnlyTools, err = d.strings(f, fp)
			}
			return err
		})
		if err != nil {
			return err
		}
		stdio := s.Command != "" || s.Args != nil || s.Env != nil || s.Cwd != ""
		http := s.URL != "" || s.Headers != nil
		switch {
		case stdio && http:
			return d.errAt(v, sub, "mixes a stdio server (command, args, env, cwd) with an HTTP one (url, headers); pick one")
		case !stdio && !http:
			return d.errAt(v, sub, "needs either command (stdio) or url (Streamable HTTP)")
		case stdio && s.Command == "":
			return d.errAt(v, sub, "needs a command")
		case http && s.URL == "":
			return d.errAt(v, sub, "needs a url")
		case http && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://"):
			return d.errAt(v.Get("url"), sub+".url", "must be an http:// or https:// URL")
		}
		c.MCPServers = append(c.MCPServers, s)
	}
	return nil
}

func (d *decoder) openapi(n *config.Node, path string, c *Config) error {
	if n.Kind != config.KindObject {
		return d.errAt(n, path, "must be an object of OpenAPI documents by name (got "+n.Kind.String()+")")
	}
	for i, name := range n.Keys {
		sub := join(path, name)
		if err := mcpname.Validate(name); err != nil {
			return &Error{File: d.file, Pos: n.KeyPos[i], Key: sub, Msg: "is not a valid name (letters, digits, _, - and ., at most 64 bytes)"}
		}
		src := OpenAPISource{Name: name, Headers: map[string]string{}}
		v := n.Values[i]
		var envs map[string]string
		var envNode *config.Node
		err := d.object(v, sub, []string{"spec", "baseUrl", "headers", "headersEnv", "trusted"}, func(k string, f *config.Node, fp string) error {
			var err error
			switch k {
			case "spec":
				var p string
				if p, err = d.str(f, fp); err == nil && p != "" {
					src.Spec = d.resolve(p)
				}
			case "baseUrl":
				if src.BaseURL, err = d.str(f, fp); err == nil && !strings.HasPrefix(src.BaseURL, "http://") && !strings.HasPrefix(src.BaseURL, "https://") {
					err = d.errAt(f, fp, "must be an http:// or https:// URL")
				}
			case "headers":
				var h map[string]string
				if h, err = d.stringMap(f, fp); err == nil {
					for hk, hv := range h {
						src.Headers[hk] = hv
					}
				}
			case "headersEnv":
				envs, err = d.stringMap(f, fp)
				envNode = f
			case "trusted":
				if f.Kind != config.KindBool {
					return d.errAt(f, fp, "must be true or false (got "+f.Kind.String()+")")
				}
				src.Trusted = f.Bool
			}
			return err
		})
		if err != nil {
			return err
		}
		var envKeys []string
		if envNode != nil {
			envKeys = envNode.Keys // file order
		}
		for _, hk := range envKeys {
			if _, dup := src.Headers[hk]; dup {
				return d.errAt(envNode, sub+".headersEnv", "sets "+strconv.Quote(hk)+", which headers sets too; keep one")
			}
			val, ok := d.env(envs[hk])
			if !ok || val == "" {
				return d.errAt(envNode, sub+".headersEnv."+hk, "names the environment variable "+strconv.Quote(envs[hk])+", which is not set")
			}
			src.Headers[hk] = val
		}
		switch {
		case src.Spec == "":
			return d.errAt(v, sub, "needs spec, the path of the OpenAPI document (JSON or YAML)")
		case src.BaseURL == "":
			return d.errAt(v, sub, "needs baseUrl, where the API's requests go")
		}
		c.OpenAPI = append(c.OpenAPI, src)
	}
	return nil
}

func (d *decoder) tokens(n *config.Node, path string, c *Config) error {
	if n.Kind != config.KindArray {
		return d.errAt(n, path, "must be an array of {principal, token | tokenEnv} (got "+n.Kind.String()+")")
	}
	for i, e := range n.Elems {
		sub := path + "[" + strconv.Itoa(i) + "]"
		var t edge.Token
		var envName string
		var envNode *config.Node
		err := d.object(e, sub, []string{"principal", "token", "tokenEnv"}, func(k string, f *config.Node, fp string) error {
			var err error
			switch k {
			case "principal":
				t.Principal, err = d.str(f, fp)
			case "token":
				t.Token, err = d.str(f, fp)
			case "tokenEnv":
				envName, err = d.str(f, fp)
				envNode = f
			}
			return err
		})
		if err != nil {
			return err
		}
		switch {
		case strings.TrimSpace(t.Principal) == "":
			return d.errAt(e, sub, "needs a principal")
		case (t.Token == "") == (envNode == nil):
			return d.errAt(e, sub, "needs exactly one of token or tokenEnv")
		case envNode != nil:
			v, ok := d.env(envName)
			if !ok || v == "" {
				return d.errAt(envNode, sub+".tokenEnv", "names the environment variable "+strconv.Quote(envName)+", which is not set")
			}
			t.Token = v
		}
		if len(t.Token) < 16 {
			return d.errAt(e, sub, "has a token shorter than 16 characters")
		}
		c.Tokens = append(c.Tokens, t)
	}
	return nil
}

func (d *decoder) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(d.dir, p)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	if !plainKey(key) {
		return path + "[" + strconv.Quote(text.Clip(key, 64)) + "]"
	}
	return path + "." + key
}

func pathOr(path string) string {
	if path == "" {
		return "the file"
	}
	return path
}

func plainKey(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '$' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	return indexOf(list, s) >= 0
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
