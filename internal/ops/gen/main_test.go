package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedFilesAreCurrent: the committed declarations are exactly what
// the generator writes from today's Go types; after changing a wire type,
// run ./build.sh gen.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	fs, err := files(root)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range fs {
		got, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what the Go wire types generate: run ./build.sh gen (and commit the result)", path)
		}
	}
}
