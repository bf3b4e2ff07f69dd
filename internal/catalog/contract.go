package catalog

import (
	"bytes"
	"fmt"

	"github.com/codemode-go/codemode/internal/schemacheck"
	"github.com/codemode-go/codemode/internal/textmemo"
	"github.com/codemode-go/codemode/internal/tsschema"
)

// compiledSchema caches one tool's compiled outputSchema (or why it failed), so a
// catalog compiles each declared contract at most once.
type compiledSchema struct {
	schema *schemacheck.Schema
	err    error
}

// outputContract returns the compiled outputSchema of a trusted tool, nil when the
// tool declares none (or is MCP/client: their claims are untrusted and are neither
// shown nor enforced). It runs before the tool so an invalid schema stops the call.
func (c *Catalog) outputContract(it *item) (*schemacheck.Schema, error) {
	if !it.spec.trusted() || len(bytes.TrimSpace(it.spec.OutputSchema)) == 0 {
		return nil, nil
	}
	c.schemaMu.Lock()
	defer c.schemaMu.Unlock()
	cs, ok := c.schemas[it.entry.ID]
	if !ok {
		cs = compileSchema(it.spec.OutputSchema)
		c.schemas[it.entry.ID] = cs
	}
	if cs.err != nil {
		return nil, newErr(ErrInvalidOutputSchema, fmt.Sprintf("tool %q cannot run: its outputSchema is invalid: %s",
			it.entry.ID, boundText(cs.err.Error(), 300)))
	}
	return cs.schema, nil
}

// compileSchema compiles a declared schema: self-contained (no $ref is loaded
// from a file or the network), JSON Schema 2020-12 unless it names draft-07.
// The result is remembered across catalogs (schemaMemo).
func compileSchema(raw []byte) *compiledSchema {
	if cs, ok := schemaMemo.Get(string(raw)); ok {
		return cs
	}
	s, err := schemacheck.Compile(raw)
	cs := &compiledSchema{schema: s, err: err}
	schemaMemo.Put(string(raw), len(raw), cs, schemaMemoBound)
	return cs
}

// schemaMemo keeps compiled schemas (and their compile errors) by the
// schema's text for the life of the process. A catalog is built per run and
// its own cache dies with it, while a host's tools keep their schemas: without
// the memo every run compiled the schema of each tool it called again (a
// decode, the library's unmarshal and resolve: on V8 about a fifth of a
// client-tool call's Go work). A compiled Schema is immutable and safe for
// concurrent use. Bounded like tsschema.Memo: cleared when full.
var schemaMemo textmemo.Memo[string, *compiledSchema]

// schemaMemoBound bounds schemaMemo; a host with more distinct schemas
// compiles some of them again.
var schemaMemoBound = textmemo.Bound{Entries: 1024, Bytes: 16 << 20}

// checkOutput validates details against the contract. The error names the JSON
// pointer and the failing keyword, never the value, which may be secret.
func checkOutput(id string, s *schemacheck.Schema, details []byte) error {
	if len(bytes.TrimSpace(details)) == 0 {
		return newErr(ErrOutputContract, fmt.Sprintf("tool %q declares an outputSchema but returned no details", id))
	}
	probs, err := s.Validate(details)
	if err != nil {
		return newErr(ErrOutputContract, fmt.Sprintf("tool %q returned details that are not valid JSON", id))
	}
	if len(probs) == 0 {
		return nil
	}
	leaf := probs[0]
	msg := fmt.Sprintf("tool %q output does not match its outputSchema at %s", id, tsschema.Quote(leaf.Pointer(), 200))
	if leaf.Keyword != "" {
		msg += " (keyword " + tsschema.Quote(leaf.Keyword, 100) + ")"
	}
	return newErr(ErrOutputContract, msg)
}
