//go:build js && wasm

package worker

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/codemode-go/codemode/internal/jspromise"
	"github.com/syumai/workers/cloudflare"
)

// MaxObjectAnswerBytes bounds what the front reads from an object: a result is
// bounded by maxOutputBytes and the telemetry, far below this.
const MaxObjectAnswerBytes = 32 << 20

// NewObjectSender delivers Requests to the Durable Object namespace bound as
// binding (syumai/workers' env) through Durable Object RPC: the object's
// operate(op, body, relayAuth) answers the JSON text, or rejects naming a
// refused request; a rejection is an error, as is any failure of the object
// (workerd's texts, see ObjectFailure). RPC spares each call a Request, a
// Response and their body streams. A stub is made per call: in workerd a stub
// belongs to the request that made it.
func NewObjectSender(binding string) (Sender, error) {
	ns := cloudflare.GetBinding(binding)
	if ns.Type() != js.TypeObject {
		return nil, fmt.Errorf("the Durable Object binding %s is missing from wrangler.jsonc", binding)
	}
	return func(_ context.Context, r Request) ([]byte, error) {
		stub := ns.Call("get", ns.Call("idFromName", r.Object))
		v, err := jspromise.Await(stub.Call("operate", r.Op, string(r.Body), r.RelayAuth))
		if err != nil {
			return nil, err
		}
		if v.Type() != js.TypeString {
			return nil, errors.New("the session object's answer was not JSON text")
		}
		b := []byte(v.String())
		if len(b) > MaxObjectAnswerBytes {
			return nil, fmt.Errorf("the session object's answer exceeds %d bytes", MaxObjectAnswerBytes)
		}
		return b, nil
	}, nil
}
