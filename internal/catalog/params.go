package catalog

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/codemode-go/codemode/internal/schemacheck"
)

// inputSchema returns the compiled parameters schema of a tool, nil when it
// declares none. Like the normal tool path, every nested call's input is checked
// against it before the tool runs; a schema that does not compile stops the
// call (fail closed), whoever declared it.
func (c *Catalog) inputSchema(it *item) (*schemacheck.Schema, error) {
	if len(bytes.TrimSpace(it.spec.Parameters)) == 0 {
		return nil, nil
	}
	c.schemaMu.Lock()
	defer c.schemaMu.Unlock()
	key := "parameters:" + it.entry.ID
	cs, ok := c.schemas[key]
	if !ok {
		cs = compileSchema(it.spec.Parameters)
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
func checkInput(e Entry, s *schemacheck.Schema, input []byte) error {
	id := e.ID
	leaves, err := s.Validate(input)
	if err != nil {
		return newErr(ErrInvalidInput, fmt.Sprintf("input for tool %q is not valid JSON", id))
	}
	if len(leaves) == 0 {
		return nil
	}
	var probs []string
	for _, leaf := range leaves {
		probs = append(probs, "at "+boundText(leaf.Pointer(), 200)+": "+boundText(leaf.Message, 300))
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
