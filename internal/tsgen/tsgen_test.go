package tsgen_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/codemode-go/codemode/internal/tsgen"
)

type color string

type inner struct {
	N int `json:"n"`
}

type base struct {
	ID string `json:"id"`
}

type sample struct {
	base
	Name    *string           `json:"name"`
	Tags    []string          `json:"tags,omitempty"`
	Meta    map[string]int    `json:"meta"`
	Raw     json.RawMessage   `json:"raw"`
	When    time.Time         `json:"when"`
	Color   color             `json:"color"`
	In      inner             `json:"in"`
	Any     any               `json:"any"`
	Skip    string            `json:"-"`
	private string            // left out: unexported
	Nested  []map[string]bool `json:"nested,omitempty"`
}

func TestDeclarations(t *testing.T) {
	for _, c := range []struct {
		name string
		gen  func(g *tsgen.Gen)
		want string
	}{
		{"output", func(g *tsgen.Gen) {
			g.Values(reflect.TypeFor[color](), "red", "blue")
			g.FieldValues(reflect.TypeFor[base](), "id", "a", "b")
			g.Output("Sample", "A sample.", reflect.TypeFor[sample]())
		}, `/** A sample. */
export interface Sample {
  id: "a" | "b";
  name: string;
  tags?: string[];
  meta: Record<string, number>;
  raw: unknown;
  when: string;
  color: "red" | "blue";
  in: { n: number };
  any: unknown;
  nested?: Record<string, boolean>[];
}
`},
		{"input with a named type", func(g *tsgen.Gen) {
			g.Enum("Color", "", reflect.TypeFor[color](), "red")
			g.Input("In", "", reflect.TypeFor[inner]())
			g.Input("Sample", "", reflect.TypeFor[sample](), "id")
		}, `export type Color =
  | "red";

export interface In {
  n?: number;
}

export interface Sample {
  id: string;
  name?: string;
  tags?: string[];
  meta?: Record<string, number>;
  raw?: unknown;
  when?: string;
  color?: Color;
  in?: In;
  any?: unknown;
  nested?: Record<string, boolean>[];
}
`},
		{"union by tag", func(g *tsgen.Gen) {
			type res struct {
				Kind  string `json:"kind"`
				Value int    `json:"value,omitempty"`
				Err   string `json:"err,omitempty"`
			}
			full := func(kind string) any {
				if kind == "ok" {
					return res{Kind: kind, Value: 1}
				}
				return res{Kind: kind, Err: "e"}
			}
			g.Union("Res", "", reflect.TypeFor[res](), full, "kind", []string{"ok", "bad"}, map[string]bool{"err": true})
		}, `export type Res =
  | { kind: "ok"; value: number }
  | { kind: "bad"; err?: string };
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := tsgen.New()
			c.gen(g)
			if got := g.String(); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
