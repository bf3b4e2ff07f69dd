package typescript_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/codemode-go/codemode/internal/typescript"
)

func ExampleTransform() {
	var ok struct{ JS string }
	_ = json.Unmarshal(typescript.Transform("const n: number = 1; return n"), &ok)
	fmt.Println(strings.Join(strings.Fields(ok.JS), " "))
	var bad struct{ Error string }
	_ = json.Unmarshal(typescript.Transform("const n: = 1"), &bad)
	fmt.Println(strings.SplitN(bad.Error, ":", 3)[:2]) // the file and line of the syntax error
	// Output:
	// const n = 1; return n;
	// [typescript 1]
}
