package core

import (
	"runtime"
	"testing"
)

// The default leaves one core to the rest of the process.
func TestDefaultMaxRunningCells(t *testing.T) {
	if got, want := defaultMaxRunningCells(), max(runtime.GOMAXPROCS(0)-1, 1); runtime.GOARCH != "wasm" && got != want {
		t.Fatalf("defaultMaxRunningCells() = %d, want %d", got, want)
	}
}
