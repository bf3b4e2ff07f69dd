package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// english prints jsonschema's messages ("missing property 'count'", "got
// string, want integer"): they name the field and the expectation, in words a
// model can act on, and never a Go type.
var english = message.NewPrinter(language.English)

// inputSchema returns the compiled parameters schema of a tool, nil when it
// declares none. Like the normal tool path, every nested call's input is checked
// against it before the tool runs; a schema that does not compile stops the
// call (fail closed), whoever declared it.
func (c *Catalog) inputSchema(it *item) (*jsonschema.Schema, error) {
	if len(bytes.TrimSpace(it.spec.Parameters)) == 0 {
		return nil, nil
	}
	c.schemaMu.Lock()
	defer c.schemaMu.Unlock()
	key := "parameters:" + it.entry.ID
	cs, ok := c.schemas[key]
	if !ok {
		cs = compileOutputSchema(it.spec.Parameters)
		c.schemas[key] = cs
	}
	if cs.err != nil {
		return nil, newErr(ErrInvalidInput, fmt.Sprintf("tool %q cannot run: its parameters schema is invalid: %s",
			it.entry.ID, boundText(cs.err.Error(), 300)))
	}
	return cs.schema, nil
}

// maxSignatureBytes bounds the signature an input error quotes.
const maxSignatureBytes = 400

// checkInput validates a call's input against the tool's parameters. The error
// names the field (a JSON pointer), what was expected and, for a tool whose
// signature is known (trusted tools), its quick index line, so the model can
// write the next call right without a tools.describe first.
func checkInput(e Entry, s *jsonschema.Schema, input []byte) error {
	id := e.ID
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(input))
	if err != nil {
		return newErr(ErrInvalidInput, fmt.Sprintf("input for tool %q is not valid JSON", id))
	}
	err = s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return newErr(ErrInvalidInput, fmt.Sprintf("input for tool %q does not match its parameters", id))
	}
	var probs []string
	for _, leaf := range leaves(ve, nil) {
		at := "/" + strings.Join(escapePointer(leaf.InstanceLocation), "/")
		probs = append(probs, "at "+boundText(at, 200)+": "+boundText(leaf.ErrorKind.LocalizedString(english), 300))
		if len(probs) == 3 {
			break
		}
	}
	msg := fmt.Sprintf("input for tool %q does not match its parameters: %s", id, strings.Join(probs, "; "))
	switch {
	case e.Input != "unknown" && e.Input != "":
		msg += " (signature: " + e.IndexLine(maxSignatureBytes) + ")"
	case e.Source == SourceMCP:
		msg += ` (await API.list("mcp") lists the MCP declarations with its parameters)`
	default:
		msg += fmt.Sprintf(" (await tools.describe(%q) shows its parameters)", id)
	}
	return newErr(ErrInvalidInput, msg)
}

// leaves collects the innermost validation errors, the ones that name a field.
func leaves(ve *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return append(out, ve)
	}
	for _, c := range ve.Causes {
		out = leaves(c, out)
	}
	return out
}
