//go:build race

package wasmtest_test

const raceEnabled = true
