package tsx_test

import (
	"fmt"
	"testing"

	"github.com/codemode-go/codemode/internal/tsx"
)

func ExampleTransform() {
	js, err := tsx.Transform("const n: number = await tools.count();\nreturn n as number;")
	fmt.Print(js, err, "\n")

	_, err = tsx.Transform("const a = 1;\nconst b = 2;\nlet y x;")
	fmt.Println(err)
	// Output:
	//   const n = await tools.count();
	//   return n;
	// <nil>
	// typescript:3:7: Expected ";" but found "x"
}

func BenchmarkTransform(b *testing.B) {
	src := "type S = { id: string; paid: boolean; tons: number };\n" +
		"const [t] = await tools.search('list shipments');\n" +
		"const s: S[] = await tools.callValue(t.id, {});\n" +
		"text(`${s.length} shipments`);\n" +
		"return s.filter((x) => !x.paid && x.tons > 10);\n"
	for b.Loop() {
		if _, err := tsx.Transform(src); err != nil {
			b.Fatal(err)
		}
	}
}
