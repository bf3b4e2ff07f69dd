// Command casesjson prints longbuiltins.Cases as JSON, so measurements in
// JavaScript (tests/bench/hostjs/pollrate.mjs) run the same cells as the Go
// tests without a second copy of the list.
package main

import (
	"encoding/json"
	"os"

	"github.com/codemode-go/codemode/internal/longbuiltins"
)

func main() {
	_ = json.NewEncoder(os.Stdout).Encode(longbuiltins.Cases)
}
