package worker

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/codemode-go/codemode/core"
	json "github.com/goccy/go-json"
)

// ObjectName names the Durable Object of a session: one object per principal,
// agent and session id. The parts are JSON-encoded before hashing, so no choice
// of ids can make two different sessions share a name ("a:b"+"c" vs "a"+"b:c"),
// and the name reveals none of them. The session key and the agent run id are
// not part of it: they are checked by the core inside the object, which gives a
// foreign scope the same answer as an unknown runId.
func ObjectName(principal string, scope core.Scope) string {
	b, _ := json.Marshal([]string{"codemode/v1", principal, scope.AgentID, scope.SessionID})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
