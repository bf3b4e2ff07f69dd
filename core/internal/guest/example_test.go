package guest_test

import (
	"fmt"

	"github.com/codemode-go/codemode/core/internal/guest"
)

// Template is what every runtime of package core starts from; the host
// functions are the bridge's.
func ExampleTemplate() {
	cfg := guest.Template()
	fmt.Println(cfg.HostFunctions, len(cfg.Prelude) > 0)
	// Output: [__openclaw_sync __openclaw_async] true
}
