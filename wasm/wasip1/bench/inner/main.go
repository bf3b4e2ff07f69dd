//go:build wasip1

// Command inner prints measure.Run's figures from inside a GOOS=wasip1
// module (QuickJS on wazero's interpreter inside wasm) as one JSON line.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/codemode-go/codemode/internal/measure"
)

func main() {
	n := 10
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	f, err := measure.Run(context.Background(), true, n)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(f)
}
