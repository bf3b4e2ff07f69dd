package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutAndClip(t *testing.T) {
	for _, tc := range []struct {
		s         string
		n         int
		cut, clip string
	}{
		{"hello", 10, "hello", "hello"},
		{"hello", 5, "hello", "hello"},
		{"hello", 4, "hell", "h…"},
		{"héllo", 2, "h", "h"},
		{"日本語", 4, "日", "…"},
		{"日本語", 7, "日本", "日…"},
		{"abc", -1, "", ""},
		{"abc", 0, "", ""},
	} {
		if got := Cut(tc.s, tc.n); got != tc.cut {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.cut)
		}
		if got := Clip(tc.s, tc.n); got != tc.clip {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.clip)
		}
	}
}

func FuzzClip(f *testing.F) {
	f.Add("héllo wörld", 5)
	f.Add(strings.Repeat("日", 10), 8)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= 1 << 12
		c, p := Cut(s, n), Clip(s, n)
		if !strings.HasPrefix(s, c) || len(c) > max(n, 0) {
			t.Fatalf("Cut(%q, %d) = %q", s, n, c)
		}
		if len(s) <= n && p != s || len(s) > n && len(p) > max(n, 0) {
			t.Fatalf("Clip(%q, %d) = %q", s, n, p)
		}
		if utf8.ValidString(s) && (!utf8.ValidString(c) || !utf8.ValidString(p)) {
			t.Fatalf("cut a character: %q -> %q / %q", s, c, p)
		}
	})
}
