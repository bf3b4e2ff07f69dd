package core

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core/internal/guest"
	"github.com/codemode-go/codemode/internal/hostopts"
)

// TestNewLoadsTheBuildsImage: a runtime of this build starts from the
// embedded template image (under GOOS=js on the host engine too, with the
// image made on wazero); a deterministic one builds its template from the
// bytecode and says why in the debug log.
func TestNewLoadsTheBuildsImage(t *testing.T) {
	if guest.Image() == nil {
		t.Skip("this build has no template image (./build.sh deps makes it; core/internal/guest's TestImageIsCurrent fails without it)")
	}
	for _, det := range []bool{false, true} {
		var log bytes.Buffer
		opts := Options{Config: testConfig(nil), Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))}
		hostopts.Of(&opts).Deterministic = det
		rt, err := New(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		from, why := rt.qjs.TemplateFrom()
		rt.Close(context.Background())
		switch {
		case !det && (from != "image" || strings.Contains(log.String(), "template")):
			t.Fatalf("template from %q (%v), log %q; want the image", from, why, log.String())
		case det && (from != "bytecode" || !strings.Contains(log.String(), "deterministic runtime builds its template")):
			t.Fatalf("deterministic: template from %q, log %q", from, log.String())
		}
	}
}
