package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func enabledWith(f func(*Config)) Config {
	c := Default()
	c.Enabled = true
	if f != nil {
		f(&c)
	}
	return c
}

func TestDefaultMatchesSpec(t *testing.T) {
	want := Config{
		Enabled: false, Runtime: "quickjs-wasi", Mode: "only",
		Languages: []string{"javascript", "typescript"},
		TimeoutMs: 10000, MemoryLimitBytes: 67108864, MaxOutputBytes: 65536,
		MaxSnapshotBytes: 10485760, MaxPendingToolCalls: 16, SnapshotTtlSeconds: 900,
		SearchDefaultLimit: 8, MaxSearchLimit: 50,
	}
	if got := Default(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Default() = %+v, want %+v", got, want)
	}
	if err := Default().Validate(); err != nil {
		t.Fatalf("Default().Validate() = %v", err)
	}
	// Fresh slice each time: a caller editing one must not change the next.
	a := Default()
	a.Languages[0] = "x"
	if Default().Languages[0] != "javascript" {
		t.Fatal("Default shares its Languages slice")
	}
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Config
	}{
		{"empty input is omitted", "", Default()},
		{"whitespace only", " \n\t", Default()},
		{"null", "null", Default()},
		{"false", "false", Default()},
		{"true shorthand", "true", enabledWith(nil)},
		{"empty object stays disabled", "{}", Default()},
		{"fields alone never enable", `{timeoutMs: 5000}`, func() Config { c := Default(); c.TimeoutMs = 5000; return c }()},
		{"enabled false", `{"enabled": false}`, Default()},
		{"enabled true JSON", `{"enabled": true}`, enabledWith(nil)},
		{"document shorthand", `{tools: {codeMode: true}}`, enabledWith(nil)},
		{"document object", `{tools: {codeMode: {enabled: true, timeoutMs: 100}}, agents: {x: 1}}`,
			enabledWith(func(c *Config) { c.TimeoutMs = 100 })},
		{"document without codeMode", `{tools: {allow: ["x"]}}`, Default()},
		{"document codeMode false", `{tools: {codeMode: false}}`, Default()},
		{"spec example JSON5", `
// explicit limits
{
  tools: {
    codeMode: {
      enabled: true,
      timeoutMs: 10000,
      memoryLimitBytes: 67108864,
      maxOutputBytes: 65536,
      maxSnapshotBytes: 10485760,
      maxPendingToolCalls: 16,
      snapshotTtlSeconds: 900,
      searchDefaultLimit: 8,
      maxSearchLimit: 50, /* trailing comma */
    },
  },
}`, enabledWith(nil)},
		{"all bounds low", `{enabled:true, timeoutMs:100, memoryLimitBytes:1048576, maxOutputBytes:1024,
			maxSnapshotBytes:1024, maxPendingToolCalls:1, snapshotTtlSeconds:1, searchDefaultLimit:1, maxSearchLimit:1}`,
			enabledWith(func(c *Config) {
				*c = Config{Enabled: true, Runtime: "quickjs-wasi", Mode: "only", Languages: c.Languages,
					TimeoutMs: 100, MemoryLimitBytes: 1048576, MaxOutputBytes: 1024, MaxSnapshotBytes: 1024,
					MaxPendingToolCalls: 1, SnapshotTtlSeconds: 1, SearchDefaultLimit: 1, MaxSearchLimit: 1}
			})},
		{"all bounds high", `{timeoutMs:60000, memoryLimitBytes:1073741824, maxOutputBytes:10485760,
			maxSnapshotBytes:268435456, maxPendingToolCalls:128, snapshotTtlSeconds:86400, searchDefaultLimit:50, maxSearchLimit:50}`,
			func() Config {
				c := Default()
				c.TimeoutMs, c.MemoryLimitBytes, c.MaxOutputBytes, c.MaxSnapshotBytes = 60000, 1073741824, 10485760, 268435456
				c.MaxPendingToolCalls, c.SnapshotTtlSeconds, c.SearchDefaultLimit = 128, 86400, 50
				return c
			}()},
		{"integral float forms", `{timeoutMs: 1e3, maxPendingToolCalls: 2.0, snapshotTtlSeconds: 0x10, maxSearchLimit: +20}`,
			func() Config {
				c := Default()
				c.TimeoutMs, c.MaxPendingToolCalls, c.SnapshotTtlSeconds, c.MaxSearchLimit = 1000, 2, 16, 20
				return c
			}()},
		{"languages subset", `{languages: ["typescript"]}`, func() Config { c := Default(); c.Languages = []string{"typescript"}; return c }()},
		{"runtime and mode explicit", `{runtime: 'quickjs-wasi', mode: "only"}`, Default()},
		{"search default equals max", `{searchDefaultLimit: 10, maxSearchLimit: 10}`,
			func() Config { c := Default(); c.SearchDefaultLimit, c.MaxSearchLimit = 10, 10; return c }()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", tt.in, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Parse(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
			if err := got.Validate(); err != nil {
				t.Fatalf("parsed config does not validate: %v", err)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name, in, field, msg string // msg: exact Error() when it starts with "=", else a substring
	}{
		{"range low", `{timeoutMs: 5}`, "tools.codeMode.timeoutMs", "=tools.codeMode.timeoutMs must be between 100 and 60000 (got 5)"},
		{"range high", `{timeoutMs: 60001}`, "tools.codeMode.timeoutMs", "between 100 and 60000 (got 60001)"},
		{"range in document", `{tools:{codeMode:{enabled:true, memoryLimitBytes: 1}}}`, "tools.codeMode.memoryLimitBytes", "between 1048576 and 1073741824 (got 1)"},
		{"maxOutputBytes", `{maxOutputBytes: 10485761}`, "tools.codeMode.maxOutputBytes", "between 1024 and 10485760"},
		{"maxSnapshotBytes", `{maxSnapshotBytes: 1023}`, "tools.codeMode.maxSnapshotBytes", "between 1024 and 268435456 (got 1023)"},
		{"maxPendingToolCalls 0", `{maxPendingToolCalls: 0}`, "tools.codeMode.maxPendingToolCalls", "between 1 and 128 (got 0)"},
		{"snapshotTtl negative", `{snapshotTtlSeconds: -1}`, "tools.codeMode.snapshotTtlSeconds", "between 1 and 86400 (got -1)"},
		{"maxSearchLimit 51", `{maxSearchLimit: 51}`, "tools.codeMode.maxSearchLimit", "between 1 and 50 (got 51)"},
		{"searchDefault above 50", `{searchDefaultLimit: 51}`, "tools.codeMode.searchDefaultLimit",
			"=tools.codeMode.searchDefaultLimit must be between 1 and 50 (got 51)"},
		{"searchDefault zero", `{searchDefaultLimit: 0}`, "tools.codeMode.searchDefaultLimit", "(got 0)"},
		{"huge integer", `{timeoutMs: 99999999999999999999999}`, "tools.codeMode.timeoutMs", "between 100 and 60000 (got 99999999999999999999999)"},
		{"huge exponent", `{timeoutMs: 1e400}`, "tools.codeMode.timeoutMs", "(got 1e400)"},
		{"huge hex", `{timeoutMs: 0xFFFFFFFFFFFFFFFFFF}`, "tools.codeMode.timeoutMs", "between 100"},
		{"non-integer", `{timeoutMs: 1500.5}`, "tools.codeMode.timeoutMs", "=tools.codeMode.timeoutMs must be an integer (got number 1500.5)"},
		{"tiny fraction", `{maxPendingToolCalls: 1.5}`, "tools.codeMode.maxPendingToolCalls", "must be an integer"},
		{"Infinity", `{timeoutMs: Infinity}`, "tools.codeMode.timeoutMs", "must be an integer (got number +Inf)"},
		{"NaN", `{timeoutMs: NaN}`, "tools.codeMode.timeoutMs", "must be an integer"},
		{"string number", `{timeoutMs: "1000"}`, "tools.codeMode.timeoutMs", `must be an integer (got string "1000")`},
		{"null field", `{timeoutMs: null}`, "tools.codeMode.timeoutMs", "must be an integer (got null)"},
		{"enabled string", `{enabled: "true"}`, "tools.codeMode.enabled", `must be a boolean (got string "true")`},
		{"enabled number", `{enabled: 1}`, "tools.codeMode.enabled", "must be a boolean (got number 1)"},
		{"runtime other", `{runtime: "node"}`, "tools.codeMode.runtime", `must be "quickjs-wasi" (got "node")`},
		{"runtime type", `{runtime: 1}`, "tools.codeMode.runtime", "must be a string (got number 1)"},
		{"mode other", `{mode: "all"}`, "tools.codeMode.mode", `must be "only" (got "all")`},
		{"languages empty", `{languages: []}`, "tools.codeMode.languages", "at least one"},
		{"languages unknown", `{languages: ["javascript", "python"]}`, "tools.codeMode.languages[1]", `(got "python")`},
		{"languages duplicate", `{languages: ["typescript", "typescript"]}`, "tools.codeMode.languages[1]", `duplicates "typescript"`},
		{"languages case", `{languages: ["JavaScript"]}`, "tools.codeMode.languages[0]", "must be"},
		{"languages element type", `{languages: [1]}`, "tools.codeMode.languages[0]", "must be a string (got number 1)"},
		{"languages not array", `{languages: "javascript"}`, "tools.codeMode.languages", "must be an array of strings"},
		{"unknown field", `{enabled: true, timeoutMS: 100}`, "tools.codeMode.timeoutMS", "is not a known field (known: enabled, runtime"},
		{"unknown field first sorted", `{zeta: 1, alpha: 2}`, "tools.codeMode.alpha", "is not a known field"},
		{"unknown odd key is quoted", `{"a.b\n": 1}`, `tools.codeMode["a.b\n"]`, "is not a known field"},
		{"unknown huge key is truncated", `{"` + strings.Repeat("k", 5000) + `": 1}`, `tools.codeMode["` + strings.Repeat("k", 64) + `"...]`, "is not a known field"},
		{"unknown in document", `{tools: {codeMode: {enable: true}}}`, "tools.codeMode.enable", "is not a known field"},
		{"wrong top type", `42`, "tools.codeMode", "must be true, false or an object (got number 42)"},
		{"string top", `"yes"`, "tools.codeMode", "(got string \"yes\")"},
		{"array top", `[true]`, "tools.codeMode", "(got an array)"},
		{"codeMode wrong type in document", `{tools: {codeMode: "on"}}`, "tools.codeMode", "must be true, false or an object"},
		{"tools not object", `{tools: true}`, "tools", "=tools must be an object (got true)"},
		{"syntax error", "{\n  enabled: true,,\n}", "", "not valid JSON5"},
		{"syntax position", "{\n  enabled: tru\n}", "", "(line 2"},
		{"trailing garbage", `{enabled: true} x`, "", "not valid JSON5"},
		{"two values", `true false`, "", "not valid JSON5"},
		{"comment only", `// nothing`, "", "not valid JSON5"},
		{"too deep", strings.Repeat("[", 100) + strings.Repeat("]", 100), "", "deeper than 64"},
		{"too deep in document", `{tools: {x: ` + strings.Repeat("{a:", 80) + "1" + strings.Repeat("}", 80) + `}}`, "", "deeper than"},
		{"too large", `{"x": "` + strings.Repeat("a", maxInputBytes) + `"}`, "", "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want error", tt.in, c)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is %T, want *Error", err, err)
			}
			if ce.Field != tt.field {
				t.Errorf("Field = %q, want %q (error: %v)", ce.Field, tt.field, err)
			}
			if exact, ok := strings.CutPrefix(tt.msg, "="); ok {
				if err.Error() != exact {
					t.Errorf("Error() = %q, want %q", err.Error(), exact)
				}
			} else if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Error() = %q, want it to contain %q", err.Error(), tt.msg)
			}
			if tt.field != "" && !strings.HasPrefix(err.Error(), tt.field+" ") {
				t.Errorf("Error() = %q, want it to start with the field path", err.Error())
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		mod   func(*Config)
		field string
	}{
		{"default ok", func(*Config) {}, ""},
		{"zero config", func(c *Config) { *c = Config{} }, "tools.codeMode.runtime"},
		{"nil languages", func(c *Config) { c.Languages = nil }, "tools.codeMode.languages"},
		{"timeout", func(c *Config) { c.TimeoutMs = 99 }, "tools.codeMode.timeoutMs"},
		{"memory", func(c *Config) { c.MemoryLimitBytes = 1 << 31 }, "tools.codeMode.memoryLimitBytes"},
		{"search default over max is capped, not refused", func(c *Config) { c.MaxSearchLimit = 5 }, ""},
		{"search default over 50", func(c *Config) { c.SearchDefaultLimit = 51 }, "tools.codeMode.searchDefaultLimit"},
		{"first error in table order", func(c *Config) { c.TimeoutMs = 0; c.MaxSearchLimit = 0 }, "tools.codeMode.timeoutMs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.mod(&c)
			err := c.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate() = %v", err)
				}
				return
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Field != tt.field {
				t.Fatalf("Validate() = %v, want *Error on %s", err, tt.field)
			}
		})
	}
}

func TestLanguageEnabled(t *testing.T) {
	c := Default()
	c.Languages = []string{"javascript"}
	for lang, want := range map[string]bool{"javascript": true, "typescript": false, "": false, "JavaScript": false} {
		if got := c.LanguageEnabled(lang); got != want {
			t.Errorf("LanguageEnabled(%q) = %v, want %v", lang, got, want)
		}
	}
	if !Default().LanguageEnabled("typescript") {
		t.Error("default should enable typescript")
	}
}

func TestErrorRendering(t *testing.T) {
	if got := (&Error{Msg: "bad"}).Error(); got != "bad" {
		t.Errorf("got %q", got)
	}
	long := strings.Repeat("é", 100)
	_, err := Parse([]byte(`{runtime: "` + long + `"}`))
	if err == nil || len(err.Error()) > 200 {
		t.Errorf("long value should give a short error, got %q", err)
	}
}

// Spec "Konfiguration": searchDefaultLimit is "auf maxSearchLimit begrenzt"
// (capped), so a config that only lowers maxSearchLimit loads with the default
// capped to it, and an explicit larger default is capped too.
func TestSpecKonfiguration_SearchDefaultLimitIsCappedToMaxSearchLimit(t *testing.T) {
	for in, want := range map[string]int{
		`{maxSearchLimit: 5}`:                          5,
		`{searchDefaultLimit: 20, maxSearchLimit: 10}`: 10,
		`{searchDefaultLimit: 3, maxSearchLimit: 10}`:  3,
		`{}`: 8,
	} {
		c, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if c.SearchDefaultLimit != want || c.EffectiveSearchDefaultLimit() != want {
			t.Errorf("%s: searchDefaultLimit %d (effective %d), want %d", in, c.SearchDefaultLimit, c.EffectiveSearchDefaultLimit(), want)
		}
	}
	c := Default()
	c.MaxSearchLimit = 5
	if err := c.Validate(); err != nil || c.EffectiveSearchDefaultLimit() != 5 {
		t.Fatalf("hand-built config: %v, effective %d", err, c.EffectiveSearchDefaultLimit())
	}
}
