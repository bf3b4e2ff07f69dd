package config

import (
	"fmt"
	"strconv"
)

// intBound is one row of the spec's limits table: a field name and its inclusive
// range. The table is data so that Parse and Validate cannot disagree about it.
type intBound struct {
	name     string
	min, max int64
	get      func(*Config) int64
	set      func(*Config, int64)
}

// intFields lists the integer fields in the spec's table order; errors are
// reported in this order so that the first error is always the same one.
// searchDefaultLimit is not here: its upper bound is another field (see Validate).
var intFields = []intBound{
	{"timeoutMs", 100, 60000,
		func(c *Config) int64 { return int64(c.TimeoutMs) }, func(c *Config, v int64) { c.TimeoutMs = int(v) }},
	{"memoryLimitBytes", 1048576, 1073741824,
		func(c *Config) int64 { return c.MemoryLimitBytes }, func(c *Config, v int64) { c.MemoryLimitBytes = v }},
	{"maxOutputBytes", 1024, 10485760,
		func(c *Config) int64 { return c.MaxOutputBytes }, func(c *Config, v int64) { c.MaxOutputBytes = v }},
	{"maxSnapshotBytes", 1024, 268435456,
		func(c *Config) int64 { return c.MaxSnapshotBytes }, func(c *Config, v int64) { c.MaxSnapshotBytes = v }},
	{"maxPendingToolCalls", 1, 128,
		func(c *Config) int64 { return int64(c.MaxPendingToolCalls) }, func(c *Config, v int64) { c.MaxPendingToolCalls = int(v) }},
	{"snapshotTtlSeconds", 1, 86400,
		func(c *Config) int64 { return int64(c.SnapshotTtlSeconds) }, func(c *Config, v int64) { c.SnapshotTtlSeconds = int(v) }},
	{"maxSearchLimit", 1, 50,
		func(c *Config) int64 { return int64(c.MaxSearchLimit) }, func(c *Config, v int64) { c.MaxSearchLimit = int(v) }},
}

// searchDefaultLimit is 1..50 on its own and capped to maxSearchLimit where it
// is used (spec: "auf maxSearchLimit begrenzt"), so it is not in intFields.
const (
	searchDefaultLimitField = "searchDefaultLimit"
	maxSearchDefault        = 50
)

func rangeErr(field string, min, max int64, got string) *Error {
	return fieldErr(field, fmt.Sprintf("must be between %d and %d (got %s)", min, max, got))
}

// Validate checks c against the spec's bounds and returns the first violation as
// an *Error, in table order. Values are never clamped (the one exception is the
// spec's own: searchDefaultLimit is capped to maxSearchLimit, see
// EffectiveSearchDefaultLimit): a limit the operator did
// not ask for is worse than a clear startup error. Validate checks the limits
// even when c.Enabled is false, so that a broken config is found before someone
// turns it on.
func (c Config) Validate() error {
	if c.Runtime != RuntimeQuickJSWASI {
		return fieldErr("runtime", fmt.Sprintf("must be %q (got %s)", RuntimeQuickJSWASI, quote(c.Runtime)))
	}
	if c.Mode != ModeOnly {
		return fieldErr("mode", fmt.Sprintf("must be %q (got %s)", ModeOnly, quote(c.Mode)))
	}
	if err := validateLanguages(c.Languages); err != nil {
		return err
	}
	for _, b := range intFields {
		if v := b.get(&c); v < b.min || v > b.max {
			return rangeErr(b.name, b.min, b.max, fmt.Sprint(v))
		}
	}
	if c.SearchDefaultLimit < 1 || c.SearchDefaultLimit > maxSearchDefault {
		return rangeErr(searchDefaultLimitField, 1, maxSearchDefault, fmt.Sprint(c.SearchDefaultLimit))
	}
	return nil
}

func validateLanguages(langs []string) *Error {
	if len(langs) == 0 {
		return fieldErr("languages", `must list at least one of "javascript", "typescript"`)
	}
	for i, l := range langs {
		// Named only on a refusal: this runs at every start, and in a page
		// a first fmt.Sprintf is V8 compiling fmt's formatter (about 6 ms).
		field := func() string { return "languages[" + strconv.Itoa(i) + "]" }
		if l != LanguageJavaScript && l != LanguageTypeScript {
			return fieldErr(field(), fmt.Sprintf(`must be "javascript" or "typescript" (got %s)`, quote(l)))
		}
		for _, prev := range langs[:i] {
			if prev == l {
				return fieldErr(field(), "duplicates "+quote(l))
			}
		}
	}
	return nil
}

// quote renders an untrusted string for an error message: quoted (so control
// characters are escaped) and truncated, so that a huge value cannot make a
// huge error.
func quote(s string) string {
	const max = 64
	if len(s) > max {
		// Cut on a rune boundary to keep the message valid UTF-8.
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		return fmt.Sprintf("%q...", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}
