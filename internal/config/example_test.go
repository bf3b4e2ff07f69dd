package config_test

import (
	"fmt"

	"github.com/codemode-go/codemode/internal/config"
)

func ExampleParse() {
	c, err := config.Parse([]byte(`{
  tools: {
    codeMode: { enabled: true, timeoutMs: 5000 }, // JSON5 is fine
  },
}`))
	fmt.Println(c.Enabled, c.TimeoutMs, c.MaxSearchLimit, err)

	_, err = config.Parse([]byte(`{enabled: true, timeoutMs: 5}`))
	fmt.Println(err)
	// Output:
	// true 5000 50 <nil>
	// tools.codeMode.timeoutMs must be between 100 and 60000 (got 5)
}
