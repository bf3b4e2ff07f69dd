//go:build codemode_relayonly

package guest

import "embed"

// imageDir is empty under codemode_relayonly: such a program (the Worker's
// Go front) never runs a cell, so it does not carry the image.
var imageDir embed.FS
