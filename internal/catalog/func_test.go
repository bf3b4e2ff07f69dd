package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type weatherIn struct {
	City   string `json:"city" jsonschema:"the city name"`
	Days   int    `json:"days,omitempty"`
	Metric *bool  `json:"metric,omitempty"`
	Where  struct {
		Lat float64 `json:"lat"`
	} `json:"where,omitempty"`
}

type weatherOut struct {
	City  string    `json:"city"`
	Temps []float64 `json:"temps"`
}

func weather(t *testing.T) Tool {
	t.Helper()
	tool, err := TypedFunc(Spec{Name: "weather", Description: "Forecast.", Owner: "demo", Origin: OriginBundledPlugin},
		func(_ context.Context, in weatherIn) (weatherOut, error) {
			if in.City == "nowhere" {
				return weatherOut{}, errors.New("no such city")
			}
			return weatherOut{City: in.City, Temps: make([]float64, in.Days)}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func TestTypedFuncDerivesSchemasFromGoTypes(t *testing.T) {
	s := weather(t).Spec()
	var params struct {
		Type       string                     `json:"type"`
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
		Additional *bool                      `json:"additionalProperties"`
	}
	if err := json.Unmarshal(s.Parameters, &params); err != nil {
		t.Fatal(err)
	}
	if params.Type != "object" || strings.Join(params.Required, ",") != "city" || params.Additional == nil || *params.Additional {
		t.Fatalf("parameters = %s", s.Parameters)
	}
	if !strings.Contains(string(params.Properties["city"]), "the city name") {
		t.Errorf("the jsonschema tag is not the description: %s", params.Properties["city"])
	}
	if !strings.Contains(string(s.OutputSchema), `"temps"`) {
		t.Errorf("outputSchema = %s", s.OutputSchema)
	}
	// Declared schemas are kept.
	own, err := TypedFunc(Spec{Name: "x", Parameters: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, struct{}) (any, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	if string(own.Spec().Parameters) != `{"type":"object"}` || own.Spec().OutputSchema != nil {
		t.Errorf("own schemas replaced: %s / %s", own.Spec().Parameters, own.Spec().OutputSchema)
	}
}

func TestTypedFuncRunsThroughTheCatalog(t *testing.T) {
	c := mustBuild(t, []Tool{weather(t)}, BuildOptions{})
	id := "openclaw:demo:weather"
	for _, tc := range []struct {
		name, input, want, wantErr string
	}{
		{name: "ok", input: `{"city":"Oslo","days":2}`, want: `{"city":"Oslo","temps":[0,0]}`},
		{name: "tool error", input: `{"city":"nowhere"}`, wantErr: "no such city"},
		{name: "wrong type", input: `{"city":"Oslo","days":"two"}`, wantErr: "days"},
		{name: "nested wrong type", input: `{"city":"Oslo","where":{"lat":"north"}}`, wantErr: "lat"},
		{name: "unknown field", input: `{"city":"Oslo","colour":1}`, wantErr: "colour"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := c.Call(context.Background(), id, json.RawMessage(tc.input), CallContext{})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one naming %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "weatherIn") || strings.Contains(err.Error(), "float64") || strings.Contains(err.Error(), "int") && !strings.Contains(err.Error(), "integer") {
					t.Errorf("error shows a Go type: %v", err)
				}
				return
			}
			if err != nil || string(res.Details) != tc.want {
				t.Fatalf("Call = %s, %v; want %s", res.Details, err, tc.want)
			}
		})
	}
}

func TestDecodeInputWording(t *testing.T) {
	var in weatherIn
	for input, want := range map[string]string{
		`{"city":1}`:                "field city must be a string, not number",
		`{"city":"a","days":1.5}`:   "field days must be an integer, not number",
		`{"city":"a","metric":"y"}`: "field metric must be a boolean, not string",
		`{"city":"a","where":[]}`:   "field where must be an object, not array",
		`[1]`:                       "the input must be an object, not array",
		`{"city":"a","zzz":true}`:   `unknown field "zzz"`,
		`{"city":`:                  "the input is not a JSON object of the expected shape",
	} {
		if err := decodeInput(json.RawMessage(input), &in); err == nil || err.Error() != want {
			t.Errorf("decodeInput(%s) = %v, want %q", input, err, want)
		}
	}
	if err := decodeInput(nil, &in); err != nil {
		t.Errorf("an absent input is {}: %v", err)
	}
}

func TestFuncResults(t *testing.T) {
	for _, tc := range []struct {
		name string
		ret  any
		want Result
	}{
		{"value", map[string]int{"n": 1}, Result{Details: json.RawMessage(`{"n":1}`)}},
		{"nil", nil, Result{Details: json.RawMessage(`null`)}},
		{"result as is", Result{IsError: true, Details: json.RawMessage(`1`)}, Result{IsError: true, Details: json.RawMessage(`1`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := Func(Spec{Name: "f"}, func(context.Context, json.RawMessage) (any, error) { return tc.ret, nil })
			got, err := tool.Execute(context.Background(), Call{})
			if err != nil || string(got.Details) != string(tc.want.Details) || got.IsError != tc.want.IsError {
				t.Fatalf("Execute = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
	bad := Func(Spec{Name: "f"}, func(context.Context, json.RawMessage) (any, error) { return func() {}, nil })
	if _, err := bad.Execute(context.Background(), Call{}); err == nil || !strings.Contains(err.Error(), "not JSON-serializable") {
		t.Fatalf("a func value: %v", err)
	}
}

func TestTypedFuncRefusesTypesWithoutSchema(t *testing.T) {
	_, err := TypedFunc(Spec{Name: "ch"}, func(context.Context, struct{ C chan int }) (int, error) { return 0, nil })
	if err == nil || !strings.Contains(err.Error(), `tool "ch": input type`) {
		t.Fatalf("err = %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustTypedFunc did not panic")
		}
	}()
	MustTypedFunc(Spec{Name: "ch"}, func(context.Context, int) (map[int]int, error) { return nil, nil })
}
