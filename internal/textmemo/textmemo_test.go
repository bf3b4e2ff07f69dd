package textmemo

import (
	"strings"
	"sync"
	"testing"
)

func TestMemo(t *testing.T) {
	b := Bound{Entries: 3, Bytes: 10}
	type step struct {
		put     string // "" reads only
		get     string
		want    int
		found   bool
		entries int
	}
	var mm Memo[string, int]
	for i, s := range []step{
		{put: "a", get: "a", want: 1, found: true, entries: 1},
		{get: "b", entries: 1},
		{put: "bb", get: "bb", want: 2, found: true, entries: 2},
		{put: "ccc", get: "a", want: 1, found: true, entries: 3},
		// a fourth entry passes Entries: the memo is cleared, then holds it
		{put: "dddd", get: "a", entries: 1},
		{get: "dddd", want: 4, found: true, entries: 1},
		// 4 + 7 bytes pass Bytes: cleared again
		{put: "eeeeeee", get: "dddd", entries: 1},
		// longer than Bytes: not remembered, nothing cleared
		{put: strings.Repeat("f", 11), get: strings.Repeat("f", 11), entries: 1},
		{get: "eeeeeee", want: 7, found: true, entries: 1},
		// a key put again keeps its first value and its bytes are not counted twice
		{put: "eeeeeee", get: "eeeeeee", want: 7, found: true, entries: 1},
		{put: "gg", get: "eeeeeee", want: 7, found: true, entries: 2},
	} {
		if s.put != "" {
			mm.Put(s.put, len(s.put), len(s.put), b)
		}
		got, found := mm.Get(s.get)
		if got != s.want || found != s.found || mm.Len() != s.entries {
			t.Fatalf("step %d: Get(%q) = %d, %v with %d entries; want %d, %v with %d", i, s.get, got, found, mm.Len(), s.want, s.found, s.entries)
		}
	}
}

func TestMemoStructKeys(t *testing.T) {
	type key struct {
		text string
		lim  int
	}
	var mm Memo[key, string]
	b := Bound{Entries: 10, Bytes: 100}
	mm.Put(key{"x", 1}, 1, "one", b)
	mm.Put(key{"x", 2}, 1, "two", b)
	for _, c := range []struct {
		k    key
		want string
	}{{key{"x", 1}, "one"}, {key{"x", 2}, "two"}, {key{"y", 1}, ""}} {
		if got, _ := mm.Get(c.k); got != c.want {
			t.Errorf("Get(%v) = %q, want %q", c.k, got, c.want)
		}
	}
}

func TestMemoConcurrent(t *testing.T) {
	var mm Memo[string, int]
	b := Bound{Entries: 8, Bytes: 64}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				k := strings.Repeat("k", 1+(g+i)%12)
				mm.Put(k, len(k), len(k), b)
				if v, ok := mm.Get(k); ok && v != len(k) {
					t.Errorf("Get(%q) = %d", k, v)
				}
			}
		}()
	}
	wg.Wait()
	if n := mm.Len(); n > b.Entries {
		t.Fatalf("%d entries, bound %d", n, b.Entries)
	}
}
