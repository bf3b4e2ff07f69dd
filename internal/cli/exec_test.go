package cli

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/codemode-go/codemode/core"
	"github.com/codemode-go/codemode/internal/config"
)

// start gives a runtime without tools; "bad" as the config file fails like a
// bad config does.
func start(t *testing.T) Start {
	return func(ctx context.Context, file string, stderr io.Writer) (*core.Runtime, func(), int) {
		if file == "bad" {
			io.WriteString(stderr, "codemode: config: bad\n")
			return nil, nil, 2
		}
		cfg := config.Default()
		cfg.Enabled = true
		if file == "ts-only" {
			cfg.Languages = []string{config.LanguageTypeScript}
		}
		rt, err := core.New(ctx, core.Options{Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		return rt, func() { rt.Close(ctx) }, 0
	}
}

func TestExecFlagsAndExitStatus(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		status int
		stdout string
	}{
		{"code", []string{"-e", "return 1+1"}, "", 0, `"value":2`},
		{"stdin", []string{"-f", "-"}, "return 'in'", 0, `"value":"in"`},
		{"typescript", []string{"--language", "typescript", "-e", "const n: number = 3; return n"}, "", 0, `"value":3`},
		{"typescript-only config: no --language is typescript", []string{"--config", "ts-only", "-e", "const n: number = 4; return n"}, "", 0, `"value":4`},
		{"typescript-only config refuses an explicit javascript", []string{"--config", "ts-only", "--language", "javascript", "-e", "return 1"}, "", 0, `language javascript is disabled`},
		{"failed cell is still status 0", []string{"-e", "throw new Error('x')"}, "", 0, `"status":"failed"`},
		{"wait follows yields", []string{"--wait", "-e", "await yield_control('r'); return 5"}, "", 0, `"value":5`},
		{"neither -e nor -f", nil, "", 2, ""},
		{"both -e and -f", []string{"-e", "1", "-f", "x"}, "", 2, ""},
		{"missing file", []string{"-f", "/nonexistent/cell.js"}, "", 2, ""},
		{"bad config", []string{"--config", "bad", "-e", "1"}, "", 2, ""},
		{"unknown flag", []string{"--frob"}, "", 2, ""},
		{"extra argument", []string{"-e", "1", "more"}, "", 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			got := Exec(context.Background(), tc.args, Streams{strings.NewReader(tc.stdin), &out, &errb}, func(w io.Writer) { io.WriteString(w, "usage\n") }, start(t))
			if got != tc.status || !strings.Contains(out.String(), tc.stdout) {
				t.Fatalf("status %d stdout %q stderr %q; want %d and %q", got, out.String(), errb.String(), tc.status, tc.stdout)
			}
			if got == 2 && errb.Len() == 0 {
				t.Fatal("usage error without a message")
			}
		})
	}
}
