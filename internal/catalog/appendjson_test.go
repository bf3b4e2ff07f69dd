package catalog

import (
	stdjson "encoding/json"
	"testing"

	json "github.com/codemode-go/codemode/internal/jsonx"
)

// TestAppendJSONMatchesMarshal: the direct writers of Entry and Telemetry give
// json.Marshal's bytes (encoding/json and jsonx) for every field present,
// absent and holding characters that are escaped.
func TestAppendJSONMatchesMarshal(t *testing.T) {
	odd := "<b>&\"\\\n\x01\u2028\xff é"
	values := []any{
		Entry{}, Entry{ID: "client:app:t", Name: "t", Description: "d", Source: SourceClient, Input: "unknown"},
		Entry{ID: odd, Name: odd, Label: odd, Description: odd, Source: Source(odd), SourceName: odd, Input: odd, Output: odd},
		Telemetry{}, Telemetry{ModelVisibleTools: []string{}},
		Telemetry{CatalogSize: 3, CatalogBySource: SourceCounts{1, 2, -3}, SearchCount: 1 << 50, DescribeCount: -1, CallCount: 7, ModelVisibleTools: []string{"exec", odd}},
	}
	for _, v := range values {
		var got []byte
		switch x := v.(type) {
		case Entry:
			got = x.AppendJSON(nil)
		case Telemetry:
			got = x.AppendJSON(nil)
		}
		for name, marshal := range map[string]func(any) ([]byte, error){"encoding/json": stdjson.Marshal, "jsonx": json.Marshal} {
			want, err := marshal(v)
			if err != nil || string(got) != string(want) {
				t.Errorf("%s %+v:\ndirect %s\nwant   %s", name, v, got, want)
			}
		}
	}
}
