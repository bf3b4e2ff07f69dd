package schemacheck_test

import (
	"fmt"

	"github.com/codemode-go/codemode/internal/schemacheck"
)

func Example() {
	s, err := schemacheck.Compile([]byte(`{"type":"object","properties":{"ms":{"type":"integer","maximum":60000}},"required":["ms"]}`))
	if err != nil {
		panic(err)
	}
	probs, _ := s.Validate([]byte(`{"ms":"soon"}`))
	for _, p := range probs {
		fmt.Printf("at %s: %s (keyword %s)\n", p.Pointer(), p.Message, p.Keyword)
	}
	probs, _ = s.Validate([]byte(`{"ms":90000}`))
	fmt.Printf("at %s: %s\n", probs[0].Pointer(), probs[0].Message)
	// Output:
	// at /ms: got string, want integer (keyword type)
	// at /ms: maximum: must be <= 60000
}

// A schema that only asks for a JSON type is answered by the instance's
// shape; its refusals still come from the validator, worded the same way.
func ExampleSchema_ByShape() {
	s, err := schemacheck.Compile([]byte(`{"type":"object","description":"Anything in an object."}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(s.ByShape())
	probs, _ := s.Validate([]byte(`{"any":["thing"]}`))
	fmt.Println(len(probs))
	probs, _ = s.Validate([]byte(`[1]`))
	fmt.Printf("at %s: %s\n", probs[0].Pointer(), probs[0].Message)
	typed, _ := schemacheck.Compile([]byte(`{"type":"object","properties":{"n":{"type":"number"}}}`))
	fmt.Println(typed.ByShape())
	// Output:
	// true
	// 0
	// at /: got array, want object
	// false
}
