// Package textmemo is the content-keyed memo of the schema caches (tsschema's
// renderings, catalog's compiled schemas). An entry is keyed by the text
// itself, not by a digest of it: two different texts never share an entry,
// and no hash is linked. The digest was crypto/sha256, whose import alone
// brings Go's FIPS 140 module (its self-tests, DRBG, AES, SHA-3, HMAC) into
// every binary, about 160 KB of the page's GOOS=js core for a cache key.
//
// A memo is bounded by its entries and by the bytes of its keys, and is
// cleared when either bound is reached: entries are cheap to remake, and a
// host with more distinct texts than the bound simply computes some again.
package textmemo

import "sync"

// Bound limits a Memo: at most Entries entries whose keys' texts total at
// most Bytes.
type Bound struct {
	Entries int
	Bytes   int
}

// Memo maps keys (a text, or a struct holding one) to values. The zero
// value is empty and ready; it is safe for concurrent use.
type Memo[K comparable, V any] struct {
	mu    sync.Mutex
	m     map[K]V
	bytes int // the keys' text bytes, as Put was told
}

// Get returns the value remembered for k.
func (mm *Memo[K, V]) Get(k K) (V, bool) {
	mm.mu.Lock()
	v, ok := mm.m[k]
	mm.mu.Unlock()
	return v, ok
}

// Put remembers v for k, whose text is size bytes long. A key longer than
// b.Bytes is not remembered; otherwise a memo that would pass b is cleared
// first.
func (mm *Memo[K, V]) Put(k K, size int, v V, b Bound) {
	if size > b.Bytes {
		return
	}
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if _, ok := mm.m[k]; ok {
		return
	}
	if mm.m == nil || len(mm.m) >= b.Entries || mm.bytes+size > b.Bytes {
		mm.m, mm.bytes = map[K]V{}, 0
	}
	mm.m[k] = v
	mm.bytes += size
}

// Len is the number of entries.
func (mm *Memo[K, V]) Len() int {
	mm.mu.Lock()
	defer mm.mu.Unlock()
	return len(mm.m)
}
