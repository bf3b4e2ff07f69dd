//go:build js && wasm

package worker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/syumai/workers/cloudflare"
)

// MaxObjectAnswerBytes bounds what the front reads from an object: a result is
// bounded by maxOutputBytes and the telemetry, far below this.
const MaxObjectAnswerBytes = 32 << 20

// NewObjectSender delivers Requests through the Durable Object namespace bound
// as binding, with syumai/workers' stub (the object's fetch). The object
// answers 200 with JSON; any other status or a rejected fetch is an error.
func NewObjectSender(binding string) (Sender, error) {
	ns, err := cloudflare.NewDurableObjectNamespace(binding)
	if err != nil {
		return nil, fmt.Errorf("the Durable Object binding %s is missing from wrangler.jsonc", binding)
	}
	return func(ctx context.Context, r Request) ([]byte, error) {
		stub, err := ns.Get(ns.IdFromName(r.Object))
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://session/"+r.Op, bytes.NewReader(r.Body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		if r.RelayAuth != "" {
			req.Header.Set("X-Codemode-Relay-Auth", r.RelayAuth)
		}
		resp, err := stub.Fetch(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, MaxObjectAnswerBytes))
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("session object answered %d: %s", resp.StatusCode, bytes.TrimSpace(b))
		}
		return b, nil
	}, nil
}
