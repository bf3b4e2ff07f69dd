//go:build !codemode_relayonly

package guest

import "embed"

// imageDir holds the template image when the build wrote it. The directory
// is embedded whole (it always holds README.md), so a missing image is a
// start that builds its template, not a compile error.
//
//go:embed image
var imageDir embed.FS
