package cellcheck_test

import (
	"fmt"
	"testing"

	"github.com/codemode-go/codemode/internal/cellcheck"
)

func ExampleCheck() {
	fmt.Println(cellcheck.Check(`const r = await tools.search("require a file");` + "\nreturn r;"))
	fmt.Println(cellcheck.Check("text(1);\nconst fs = require('fs');"))
	fmt.Println(cellcheck.Check("ls -la"))
	// Output:
	// <nil>
	// exec runs a sandboxed JavaScript cell: "require(...)" is not available (no modules, file system or network); call tools through tools.* instead (line 2)
	// exec runs JavaScript, not a shell: "ls -la" looks like a shell command. Write a JavaScript program that calls tools (e.g. await tools.search("list files")).
}

func BenchmarkCheck(b *testing.B) {
	src := "const [t] = await tools.search('list shipments');\n" +
		"const s = await tools.callValue(t.id, {});\n" +
		"text(`${s.length} shipments`);\n" +
		"return s.filter((x) => !x.paid && x.tons > 10 && /^SH-\\d+/.test(x.id));\n"
	for b.Loop() {
		if err := cellcheck.Check(src); err != nil {
			b.Fatal(err)
		}
	}
}
