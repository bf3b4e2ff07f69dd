package edge

import (
	"crypto/rand"
	"encoding/hex"
)

// newCallID names one HTTP-borne control call for hooks and the transcript.
func newCallID(kind string) string {
	var b [8]byte
	rand.Read(b[:])
	return kind + "_" + hex.EncodeToString(b[:])
}
