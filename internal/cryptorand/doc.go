// Package cryptorand fills byte slices from the platform's cryptographically
// secure random source: run ids, call ids and the guest's randomness, which
// must stay unguessable.
//
// Natively it is crypto/rand.Read. Under GOOS=js it calls
// crypto.getRandomValues directly, which is what crypto/rand.Read does there
// too (crypto/internal/sysrand) whenever FIPS 140 mode is off, and a page
// cannot turn it on. What differs is the binary: importing crypto/rand
// links Go's FIPS 140 module (its DRBG, AES, GCM, SHA-2/3, HMAC and their
// self-tests), about 160 KB of the page's core that a page never runs.
package cryptorand
