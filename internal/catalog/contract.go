package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/codemode-go/codemode/internal/tsschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compiledSchema caches one tool's compiled outputSchema (or why it failed), so a
// catalog compiles each declared contract at most once.
type compiledSchema struct {
	schema *jsonschema.Schema
	err    error
}

const schemaURL = "urn:codemode:output-schema"

// outputContract returns the compiled outputSchema of a trusted tool, nil when the
// tool declares none (or is MCP/client: their claims are untrusted and are neither
// shown nor enforced). It runs before the tool so an invalid schema stops the call.
func (c *Catalog) outputContract(it *item) (*jsonschema.Schema, error) {
	if !it.spec.trusted() || len(bytes.TrimSpace(it.spec.OutputSchema)) == 0 {
		return nil, nil
	}
	c.schemaMu.Lock()
	defer c.schemaMu.Unlock()
	cs, ok := c.schemas[it.entry.ID]
	if !ok {
		cs = compileOutputSchema(it.spec.OutputSchema)
		c.schemas[it.entry.ID] = cs
	}
	if cs.err != nil {
		return nil, newErr(ErrInvalidOutputSchema, fmt.Sprintf("tool %q cannot run: its outputSchema is invalid: %s",
			it.entry.ID, boundText(cs.err.Error(), 300)))
	}
	return cs.schema, nil
}

func compileOutputSchema(raw []byte) *compiledSchema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return &compiledSchema{err: err}
	}
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	// No loader for any scheme: a declared contract must be self-contained, and
	// compiling must never read files or the network.
	comp.UseLoader(jsonschema.SchemeURLLoader{})
	if err := comp.AddResource(schemaURL, doc); err != nil {
		return &compiledSchema{err: err}
	}
	s, err := comp.Compile(schemaURL)
	return &compiledSchema{schema: s, err: err}
}

// checkOutput validates details against the contract. The error names the JSON
// pointer and the failing keyword, never the value, which may be secret.
func checkOutput(id string, s *jsonschema.Schema, details []byte) error {
	if len(bytes.TrimSpace(details)) == 0 {
		return newErr(ErrOutputContract, fmt.Sprintf("tool %q declares an outputSchema but returned no details", id))
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(details))
	if err != nil {
		return newErr(ErrOutputContract, fmt.Sprintf("tool %q returned details that are not valid JSON", id))
	}
	err = s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return newErr(ErrOutputContract, fmt.Sprintf("tool %q output does not match its outputSchema", id))
	}
	leaf := ve
	for len(leaf.Causes) > 0 {
		leaf = leaf.Causes[0]
	}
	ptr := "/" + strings.Join(escapePointer(leaf.InstanceLocation), "/")
	kw := strings.Join(leaf.ErrorKind.KeywordPath(), "/")
	msg := fmt.Sprintf("tool %q output does not match its outputSchema at %s", id, tsschema.Quote(ptr, 200))
	if kw != "" {
		msg += " (keyword " + tsschema.Quote(kw, 100) + ")"
	}
	return newErr(ErrOutputContract, msg)
}

func escapePointer(segs []string) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return out
}
