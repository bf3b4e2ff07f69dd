package quickjs

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/quickjs/wasmbin"
)

// A template image is the template (buildTemplate's memory image, stack
// pointer, runtime and context pointers and the kit's boxes) serialized at
// build time, so a start instantiates the module and writes the image instead
// of running _initialize, qjs_init, the prelude and the kit: in a page that
// was 44-54 ms of the first result's CPU. It holds QuickJS's initialized heap,
// so it is made in the build like quickjs.wasm and never committed.
//
// Layout (little endian):
//
//	magic "qjsimage", u32 format, u64 seal,
//	u32 memory size, u32 sp, rtPtr, ctxPtr, 7 x u32 kit boxes,
//	u64 checksum (hash64) of the spans,
//	spans: uvarint(offset - end of previous span), uvarint(length), bytes
//
// The spans are the image's data between zero stretches of at least
// imageGap bytes (1.31 MiB of memory is two spans, ~0.37 MiB); what they
// leave out is zero. Whatever fails to decode, or was sealed for other
// inputs, is not used: the runtime builds its template as before
// (Runtime.TemplateFrom says why).

const (
	imageMagic  = "qjsimage"
	imageFormat = 1
	// templateVersion names buildTemplate's procedure: bump it whenever what
	// the template holds or how it is made changes, so older images no
	// longer match.
	templateVersion = 1
	imageHeader     = 8 + 4 + 8 + 4*4 + 7*4 + 8
	// imageGap is the shortest zero stretch an image leaves out: the
	// stretch the reset plan zeroes instead of copying (minZeroSpan), so the
	// spans are exactly the plan's copies. Shorter gaps saved ~40 KB of
	// zeros (which compress away) but made hundreds of spans, and the page's
	// V8 tiered decodeImage's span loop up to TurboFan on every start
	// (10-19 ms of background compiling on two cores, for a loop that
	// never runs again).
	imageGap = minZeroSpan
	// maxImageMemory bounds the memory size an image may claim (the template
	// is 1.31 MiB; a larger claim is a corrupt file, not a bigger template).
	maxImageMemory = 64 << 20
)

// ErrNoImage is TemplateFrom's reason when Config.Image was empty.
var ErrNoImage = errors.New("quickjs: no template image given")

// errDeterministic is TemplateFrom's reason for a Deterministic runtime: an
// image holds the clock readings and random draws of a normal build, while a
// deterministic template holds the fixed clock and the Seed's draws.
var errDeterministic = errors.New("quickjs: a deterministic runtime builds its template (the image holds a normal build's clock and randomness)")

// imageSeal is the hash over everything a template depends on: the
// procedure's version, the pinned quickjs.wasm, the QuickJS version the
// running module reports, the kit and the prelude sources and the host
// function names.
func imageSeal(version string, cfg *Config) uint64 {
	h := uint64(templateVersion)
	put := func(s string) { h = hash64(mix(h^uint64(len(s))), []byte(s)) }
	put(wasmbin.SHA256)
	put(version)
	put(kitSource)
	put(cfg.Prelude)
	for _, n := range cfg.HostFunctions {
		put(n)
	}
	return h
}

// hash64 folds b into h eight bytes at a time. It guards against drift and
// damage, not against an adversary (an image is only ever embedded), and it
// needs no tables: on V8's baseline tier, where a page's start runs, crc32's
// tables cost ~20 ms to build and sha256 of the sources 5 ms. V8 compiles a
// function again with TurboFan once a loop in it has run long enough, and
// the loop over an image does: kept out of line, what V8 compiles is this
// small function, not decodeImage.
//
//go:noinline
func hash64(h uint64, b []byte) uint64 {
	for ; len(b) >= 8; b = b[8:] {
		h = mix(h ^ binary.LittleEndian.Uint64(b))
	}
	for _, c := range b {
		h = mix(h ^ uint64(c))
	}
	return h
}

// mix is one multiply-xorshift round (the golden-ratio multiplier).
func mix(h uint64) uint64 {
	h *= 0x9E3779B97F4A7C15
	return h ^ h>>31
}

// image is a decoded template image.
type image struct {
	seal uint64
	tmpl *template
}

// encodeImage serializes t, sealed with seal.
func encodeImage(t *template, seal uint64) []byte {
	var spans []byte
	prevEnd := 0
	for i := 0; i < len(t.mem); {
		for i < len(t.mem) && t.mem[i] == 0 {
			i++
		}
		if i == len(t.mem) {
			break
		}
		j, zeros := i, 0
		for j < len(t.mem) && zeros < imageGap {
			if t.mem[j] == 0 {
				zeros++
			} else {
				zeros = 0
			}
			j++
		}
		j -= zeros
		spans = binary.AppendUvarint(spans, uint64(i-prevEnd))
		spans = binary.AppendUvarint(spans, uint64(j-i))
		spans = append(spans, t.mem[i:j]...)
		prevEnd, i = j, j
	}
	out := append(make([]byte, 0, imageHeader+len(spans)), imageMagic...)
	out = binary.LittleEndian.AppendUint32(out, imageFormat)
	out = binary.LittleEndian.AppendUint64(out, seal)
	k := t.kit
	for _, v := range []uint32{uint32(len(t.mem)), t.sp, t.rtPtr, t.ctxPtr,
		uint32(k.reseed), uint32(k.errorInfo), uint32(k.parse), uint32(k.stringify), uint32(k.makeError), uint32(k.user), uint32(k.undefined),
	} {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	out = binary.LittleEndian.AppendUint64(out, hash64(0, spans))
	return append(out, spans...)
}

// decodeImage checks b's framing and checksum and rebuilds the template with
// its reset plan (the zero stretches between spans, so nothing is scanned).
// It never panics, whatever b holds.
func decodeImage(b []byte) (*image, error) {
	if len(b) < imageHeader || string(b[:8]) != imageMagic {
		return nil, errors.New("quickjs: not a template image (bad magic or too short)")
	}
	if f := binary.LittleEndian.Uint32(b[8:]); f != imageFormat {
		return nil, fmt.Errorf("quickjs: template image format %d, this build reads %d", f, imageFormat)
	}
	im := &image{}
	im.seal = binary.LittleEndian.Uint64(b[12:])
	var w [11]uint32
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[20+4*i:])
	}
	size, spans := w[0], b[imageHeader:]
	if size == 0 || size > maxImageMemory || size%engine.PageSize != 0 {
		return nil, fmt.Errorf("quickjs: template image claims %d bytes of memory", size)
	}
	if hash64(0, spans) != binary.LittleEndian.Uint64(b[imageHeader-8:]) {
		return nil, errors.New("quickjs: template image checksum mismatch (truncated or corrupt)")
	}
	for _, p := range w[1:11] {
		if p >= size {
			return nil, errors.New("quickjs: template image pointer out of range")
		}
	}
	t := &template{mem: make([]byte, size), sp: w[1], rtPtr: w[2], ctxPtr: w[3],
		kit: kit{reseed: Value(w[4]), errorInfo: Value(w[5]), parse: Value(w[6]), stringify: Value(w[7]), makeError: Value(w[8]), user: Value(w[9]), undefined: Value(w[10])}}
	var at uint64
	copyFrom := uint32(0)
	zero := func(from, to uint32) {
		if to-from < minZeroSpan {
			return
		}
		if from > copyFrom {
			t.plan = append(t.plan, span{off: copyFrom, n: from - copyFrom})
		}
		t.plan = append(t.plan, span{off: from, n: to - from, zero: true})
		copyFrom = to
	}
	for d := spans; len(d) > 0; {
		gap, n1 := binary.Uvarint(d)
		length, n2 := binary.Uvarint(d[max(n1, 0):])
		if n1 <= 0 || n2 <= 0 || length == 0 || uint64(len(d)-n1-n2) < length || gap > uint64(size) {
			return nil, errors.New("quickjs: template image spans are malformed")
		}
		d = d[n1+n2:]
		if at+gap+length > uint64(size) {
			return nil, errors.New("quickjs: template image span past the memory size")
		}
		zero(uint32(at), uint32(at+gap))
		at += gap
		copy(t.mem[at:], d[:length])
		at += length
		d = d[length:]
	}
	zero(uint32(at), size)
	if copyFrom < size {
		t.plan = append(t.plan, span{off: copyFrom, n: size - copyFrom})
	}
	im.tmpl = t
	return im, nil
}
