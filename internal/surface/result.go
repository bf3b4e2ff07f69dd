package surface

import "encoding/json"

// ResultSchema is the JSON Schema of CodeModeResult, the answer of exec and
// wait, for hosts that declare a tool's output (the MCP server's
// outputSchema). It says exactly what core.Result's JSON holds: the three
// variants by status, each with its required fields, and nothing else. The
// schema uses only keywords draft-07 and 2020-12 read alike, so any client's
// validator takes it.
func ResultSchema() json.RawMessage { return json.RawMessage(resultSchema) }

const resultSchema = `{
  "type": "object",
  "description": "CodeModeResult: completed (value), waiting (runId for wait) or failed (error, code).",
  "properties": {
    "status": {"type": "string", "enum": ["completed", "waiting", "failed"]},
    "value": {"description": "the cell's return value after the output adapter (completed)"},
    "runId": {"type": "string", "description": "hand it to wait (waiting)"},
    "reason": {"type": "string", "enum": ["pending_tools", "yield"]},
    "pendingToolCalls": {"type": "array", "items": {
      "type": "object",
      "properties": {"id": {"type": "string"}, "toolId": {"type": "string"}, "kind": {"type": "string"}},
      "required": ["id", "kind"], "additionalProperties": false}},
    "error": {"type": "string", "description": "what failed, e.g. \"TypeError: x is not a function\" (failed)"},
    "code": {"type": "string", "enum": ["invalid_input", "runtime_unavailable", "timeout", "output_limit_exceeded", "snapshot_limit_exceeded", "internal_error"]},
    "output": {"type": "array", "items": {
      "type": "object",
      "properties": {"type": {"type": "string", "enum": ["text", "json"]}, "text": {"type": "string"}, "value": {}},
      "required": ["type"], "additionalProperties": false}},
    "telemetry": {
      "type": "object",
      "properties": {
        "catalogSize": {"type": "integer"},
        "catalogBySource": {"type": "object", "properties": {"openclaw": {"type": "integer"}, "mcp": {"type": "integer"}, "client": {"type": "integer"}}},
        "searchCount": {"type": "integer"},
        "describeCount": {"type": "integer"},
        "callCount": {"type": "integer"},
        "modelVisibleTools": {"type": "array", "items": {"type": "string"}}
      },
      "required": ["catalogSize", "catalogBySource", "searchCount", "describeCount", "callCount", "modelVisibleTools"]
    },
    "restartSafe": {"type": "boolean"}
  },
  "required": ["status", "telemetry"],
  "additionalProperties": false,
  "oneOf": [
    {"type": "object", "properties": {"status": {"const": "completed"}}, "required": ["value"]},
    {"type": "object", "properties": {"status": {"const": "waiting"}}, "required": ["runId", "reason"]},
    {"type": "object", "properties": {"status": {"const": "failed"}}, "required": ["error"]}
  ]
}`
