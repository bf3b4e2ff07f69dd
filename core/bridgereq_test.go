package core

import (
	stdjson "encoding/json"
	"reflect"
	"testing"

	json "github.com/codemode-go/codemode/internal/jsonx"
	"github.com/codemode-go/codemode/internal/strictjson"
)

// bridgeRequests are messages as the prelude writes them, and shapes only a
// cell that reached the bridge could send, which the fast path must leave to
// encoding/json.
var bridgeRequests = []string{
	`{"op":"call","id":"client:bench:ping","mode":"call","input":{"n":0}}`,
	`{"op":"call","id":"x","mode":"value","input":{"a":[1,{"b":"c,]}"}],"d":null}}`,
	`{"op":"mcp.call","server":"everything","tool":"echo","input":{"message":"hi \"there\""}}`,
	`{"op":"ns.call","ns":"p","path":["a","b"],"args":[1,null,{"x":[]},"s"]}`,
	`{"op":"ns.call","ns":"p","path":[],"args":[]}`,
	`{"op":"search","query":"weather","limit":5}`,
	`{"op":"search","query":"weather","limit":1.5}`,
	`{"op":"search","query":"weather","limit":-3}`,
	`{"op":"mcp.api","server":"s","schema":true}`,
	`{"op":"mcp.api","server":"s","tool":"t","schema":false}`,
	`{"op":"timer","ms":12.5,"token":7}`,
	`{"op":"timer","ms":1e3,"token":1e3}`,
	`{"op":"timer","ms":-0,"token":99999999999999999999}`,
	`{"op":"text","text":"line\nbreak"}`,
	`{"op":"text","text":"plain ü 😀"}`,
	`{"op":"json","value":null}`,
	`{"op":"json","value":"s"}`,
	`{"op":"json","value":[[],{}]}`,
	`{"op":"unknown","kind":"object","where":"tools","have":["a","b"]}`,
	`{"op":"yield","reason":""}`,
	`{"op":"mcp.prompt","server":"s","name":"n","arguments":{"a":"b"}}`,
	`{"OP":"call","Id":"x"}`,
	`{"op":"call","extra":1}`,
	`{"op":null}`,
	`{"op":1}`,
	`{"tool":null}`,
	`{"path":null,"args":null}`,
	`{"path":["a",1]}`,
	`{"schema":"yes"}`,
	`{}`,
	`[]`,
	`"op"`,
	`null`,
}

// TestDecodeRequestMatchesEncodingJSON: whatever the fast path decodes, it
// decodes as encoding/json (and the core's jsonx) does; what it leaves, they
// still decode.
func TestDecodeRequestMatchesEncodingJSON(t *testing.T) {
	fast := 0
	for _, in := range bridgeRequests {
		if checkDecodeRequest(t, in) {
			fast++
		}
	}
	if fast < 15 {
		t.Fatalf("the fast path decoded %d of the prelude's messages; want the common ones", fast)
	}
}

// checkDecodeRequest compares the fast path with both decoders; true when
// the fast path took the message.
func checkDecodeRequest(t *testing.T, in string) bool {
	t.Helper()
	b, err := strictjson.CanonicalWellFormed([]byte(in))
	if err != nil {
		return false
	}
	var got request
	if !decodeRequest(b, &got) {
		return false
	}
	var std, jx request
	if err := stdjson.Unmarshal(b, &std); err != nil {
		t.Fatalf("%s: the fast path decoded what encoding/json refuses (%v)", in, err)
	}
	if err := json.Unmarshal(b, &jx); err != nil {
		t.Fatalf("%s: the fast path decoded what jsonx refuses (%v)", in, err)
	}
	if !reflect.DeepEqual(got, std) {
		t.Fatalf("%s:\nfast          %#v\nencoding/json %#v", in, got, std)
	}
	if !reflect.DeepEqual(got, jx) {
		t.Fatalf("%s:\nfast  %#v\njsonx %#v", in, got, jx)
	}
	return true
}

func FuzzDecodeRequest(f *testing.F) {
	for _, in := range bridgeRequests {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) { checkDecodeRequest(t, in) })
}
