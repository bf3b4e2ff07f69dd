package guest

import "sync"

// ImageFile is where the build writes the template image, relative to this
// package (./build.sh deps runs imagegen right after placing quickjs.wasm).
const ImageFile = "image/template.img"

var (
	imageOnce sync.Once
	image     []byte
)

// Image is the embedded template image, or nil when the build made none (a
// module fetched with go get, the codemode_relayonly front): the runtime
// then builds its template at start, from the bytecode.
func Image() []byte {
	imageOnce.Do(func() {
		b, err := imageDir.ReadFile(ImageFile)
		if err == nil && len(b) > 0 {
			image = b
		}
	})
	return image
}
