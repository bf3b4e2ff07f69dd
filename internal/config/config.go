// Package config is the tools.codeMode configuration contract of Code Mode: the
// fields, their defaults and their bounds, exactly as the spec's "Konfiguration"
// table lists them, plus a parser for the JSON/JSON5 that operators write.
//
// The package is deliberately strict. Code Mode runs hostile, model-written code,
// and its limits (time, memory, output, snapshots, pending calls) are part of the
// security boundary; a typo or an out-of-range number must fail loudly at load
// time instead of being silently ignored or clamped to something the operator did
// not ask for. Only `enabled: true` (or the shorthand `codeMode: true`) turns Code
// Mode on; setting any other field never enables it on its own.
package config

import "slices"

// Runtime and mode values. The spec allows exactly one of each today; they are
// still configurable so that configs stay forward compatible with the spec.
const (
	RuntimeQuickJSWASI = "quickjs-wasi"
	ModeOnly           = "only"
)

// Cell languages accepted by exec.
const (
	LanguageJavaScript = "javascript"
	LanguageTypeScript = "typescript"
)

// Config is the value of tools.codeMode. The JSON names are the spec's; use
// Default to get a valid starting point (the zero Config is not valid: its
// limits are all 0).
type Config struct {
	// Enabled is the activation gate; nothing else turns Code Mode on.
	Enabled bool `json:"enabled"`
	// Runtime names the guest engine; only "quickjs-wasi" exists.
	Runtime string `json:"runtime"`
	// Mode is how tools are exposed; only "only" (control/direct tools visible,
	// everything else catalogued) exists.
	Mode string `json:"mode"`
	// Languages are the cell languages exec accepts, a non-empty subset of
	// javascript/typescript.
	Languages []string `json:"languages"`

	// TimeoutMs bounds one exec or wait (100..60000, default 10000).
	TimeoutMs int `json:"timeoutMs"`
	// MemoryLimitBytes bounds the guest heap (1 MiB..1 GiB, default 64 MiB).
	MemoryLimitBytes int64 `json:"memoryLimitBytes"`
	// MaxOutputBytes bounds text/json output and messages (1 KiB..10 MiB, default 64 KiB).
	MaxOutputBytes int64 `json:"maxOutputBytes"`
	// MaxSnapshotBytes bounds one suspended run's snapshot (1 KiB..256 MiB, default 10 MiB).
	MaxSnapshotBytes int64 `json:"maxSnapshotBytes"`
	// MaxPendingToolCalls bounds concurrent nested calls of a run (1..128, default 16).
	MaxPendingToolCalls int `json:"maxPendingToolCalls"`
	// SnapshotTtlSeconds is how long a suspended run waits for wait (1..86400, default 900).
	SnapshotTtlSeconds int `json:"snapshotTtlSeconds"`
	// SearchDefaultLimit is the result count of tools.search without a limit,
	// 1..50, capped to MaxSearchLimit (EffectiveSearchDefaultLimit).
	SearchDefaultLimit int `json:"searchDefaultLimit"`
	// MaxSearchLimit caps tools.search's limit (1..50, default 50).
	MaxSearchLimit int `json:"maxSearchLimit"`
}

// Default returns the spec's defaults: disabled, quickjs-wasi, mode "only", both
// languages, and the default limits. Each call returns a fresh Languages slice,
// so callers may modify the result freely.
func Default() Config {
	return Config{
		Enabled:             false,
		Runtime:             RuntimeQuickJSWASI,
		Mode:                ModeOnly,
		Languages:           []string{LanguageJavaScript, LanguageTypeScript},
		TimeoutMs:           10000,
		MemoryLimitBytes:    67108864,
		MaxOutputBytes:      65536,
		MaxSnapshotBytes:    10485760,
		MaxPendingToolCalls: 16,
		SnapshotTtlSeconds:  900,
		SearchDefaultLimit:  8,
		MaxSearchLimit:      50,
	}
}

// LanguageEnabled reports whether exec may run a cell in lang. It answers only
// about the language list; whether Code Mode is on at all is c.Enabled.
func (c Config) LanguageEnabled(lang string) bool {
	return slices.Contains(c.Languages, lang)
}

// EffectiveSearchDefaultLimit is SearchDefaultLimit capped to MaxSearchLimit, as
// the spec's table says ("auf maxSearchLimit begrenzt").
func (c Config) EffectiveSearchDefaultLimit() int {
	return min(c.SearchDefaultLimit, c.MaxSearchLimit)
}

// DefaultLanguage is the language of a cell that names none: "javascript" (the
// spec's default) when it is enabled, else the one language enabled. The exec
// schema and the runtime both use it, so they never disagree.
func (c Config) DefaultLanguage() string {
	if len(c.Languages) == 0 || c.LanguageEnabled(LanguageJavaScript) {
		return LanguageJavaScript
	}
	return c.Languages[0]
}
