package quickjs

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codemode-go/codemode/internal/engine"
	"github.com/codemode-go/codemode/internal/engine/wazeroengine"
)

const imagePrelude = `(function (host) { globalThis.hostEcho = host.echo; return { marker: 42 }; })`

// imageEngine is a new engine (each loads one module): the host's under
// GOOS=js (wazero's interpreter is too slow there), else wazero's compiler.
func imageEngine(t testing.TB) engine.Engine {
	t.Helper()
	if h := HostEngineForTests(); h != nil {
		return h
	}
	eng, err := wazeroengine.New(context.Background(), wazeroengine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(context.Background()) })
	return eng
}

func imageConfig(t testing.TB) Config {
	return Config{Engine: imageEngine(t), HostFunctions: []string{"echo"}, Prelude: imagePrelude}
}

func mustNew(t testing.TB, cfg Config) *Runtime {
	t.Helper()
	rt, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

// madeImage is the image of a runtime built from imageConfig.
func madeImage(t testing.TB) (*Runtime, []byte) {
	t.Helper()
	rt := mustNew(t, imageConfig(t))
	img, err := rt.Image()
	if err != nil {
		t.Fatal(err)
	}
	return rt, img
}

// TestImageRoundTrip: an image decodes to the template it was made from with
// a reset plan that tiles it; a runtime loading it serves VMs that run the
// prelude's host functions, each reseeded (their Math.random differs), with
// the real clock and a performance.now() that counts from the process start,
// never below zero; snapshots restore across it and a built runtime.
func TestImageRoundTrip(t *testing.T) {
	ctx := context.Background()
	built, img := madeImage(t)
	im, err := decodeImage(img)
	if err != nil {
		t.Fatal(err)
	}
	bt := built.tmpl
	if !bytes.Equal(im.tmpl.mem, bt.mem) || im.tmpl.sp != bt.sp || im.tmpl.rtPtr != bt.rtPtr || im.tmpl.ctxPtr != bt.ctxPtr || im.tmpl.kit != bt.kit {
		t.Fatal("the decoded image is not the template it was made from")
	}
	checkPlan(t, im.tmpl.mem, im.tmpl.plan)
	t.Logf("template %d bytes, image %d bytes, plan %d spans", len(bt.mem), len(img), len(im.tmpl.plan))
	// The image's spans are the reset plan's copies (imageGap is
	// minZeroSpan): a start decodes a handful of spans, not hundreds.
	if want := planReset(bt.mem); !slices.Equal(im.tmpl.plan, want) {
		t.Fatalf("the image's plan has %d spans, planReset's %d: they differ", len(im.tmpl.plan), len(want))
	}

	cfg := imageConfig(t)
	cfg.Image = img
	rt := mustNew(t, cfg)
	if from, why := rt.TemplateFrom(); from != "image" || why != nil {
		t.Fatalf("TemplateFrom = %q, %v; want the image", from, why)
	}
	var randoms []string
	for range 3 {
		vm, err := rt.NewVM(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		vm.Handle("echo", func(vm *VM, _ Value, args []Value) (Value, error) { return vm.Dup(args[0]) })
		got := evalString(t, vm, fmt.Sprintf(`JSON.stringify([hostEcho("hi"), Math.random(), performance.now() >= 0 && performance.now() < 864e5, Math.abs(Date.now() - %d) < 6e5])`, time.Now().UnixMilli()))
		if !strings.HasPrefix(got, `["hi",`) || !strings.HasSuffix(got, `,true,true]`) {
			t.Fatalf("a VM from the image says %s", got)
		}
		randoms = append(randoms, got)
		vm.Close()
	}
	if randoms[0] == randoms[1] || randoms[1] == randoms[2] {
		t.Fatalf("VMs from the image share Math.random: %v", randoms)
	}

	// A snapshot of a VM from the image restores in the built runtime and back.
	vm, err := rt.NewVM(ctx, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	evalString(t, vm, `globalThis.kept = "from the image"; ""`)
	snap, err := vm.Snapshot()
	vm.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, into := range []*Runtime{built, rt} {
		vm, err := into.Restore(ctx, snap, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := evalString(t, vm, `kept`); got != "from the image" {
			t.Fatalf("restored %q", got)
		}
		vm.Close()
	}
}

// TestTemplateIsTheSameOnEveryEngine: one image serves every engine because
// the template does not depend on the engine that built it: with the clock
// and randomness fixed, wazero's compiler and interpreter build the same
// memory, byte for byte, and the same pointers.
func TestTemplateIsTheSameOnEveryEngine(t *testing.T) {
	if HostEngineForTests() != nil {
		t.Skip("wazero's interpreter inside wasm takes minutes to start QuickJS; the native run compares the engines")
	}
	var tmpls []*template
	for _, interp := range []bool{false, true} {
		eng, err := wazeroengine.New(context.Background(), wazeroengine.Options{Interpreter: interp})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close(context.Background()) })
		cfg := imageConfig(t)
		cfg.Engine, cfg.Deterministic = eng, true
		tmpls = append(tmpls, mustNew(t, cfg).tmpl)
	}
	a, b := tmpls[0], tmpls[1]
	if !bytes.Equal(a.mem, b.mem) || a.sp != b.sp || a.rtPtr != b.rtPtr || a.ctxPtr != b.ctxPtr || a.kit != b.kit {
		t.Fatalf("the compiler's and the interpreter's templates differ (%d and %d bytes)", len(a.mem), len(b.mem))
	}
}

func evalString(t testing.TB, vm *VM, src string) string {
	t.Helper()
	v, err := vm.Eval(src, "t.js")
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Free(v)
	s, err := vm.GoString(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestImageSeal: only an image made for the runtime's own kit, prelude, host
// functions and QuickJS is loaded; anything else, or a damaged file, makes
// the runtime build its template and say why.
func TestImageSeal(t *testing.T) {
	_, img := madeImage(t)
	patched := func(at int, b ...byte) []byte {
		c := bytes.Clone(img)
		copy(c[at:], b)
		return c
	}
	for _, tc := range []struct {
		name   string
		change func(*Config)
		why    string // "" means the image is used
	}{
		{name: "same inputs"},
		{name: "no image", change: func(c *Config) { c.Image = nil }, why: ErrNoImage.Error()},
		{name: "other prelude", change: func(c *Config) { c.Prelude += " " }, why: "made for another kit, prelude"},
		{name: "other host functions", change: func(c *Config) { c.HostFunctions = []string{"echo2"} }, why: "made for another kit, prelude"},
		{name: "deterministic", change: func(c *Config) { c.Deterministic = true }, why: "deterministic runtime builds its template"},
		{name: "flipped data byte", change: func(c *Config) { c.Image = patched(len(img)-1, img[len(img)-1]^1) }, why: "checksum mismatch"},
		{name: "truncated", change: func(c *Config) { c.Image = img[:len(img)/2] }, why: "checksum mismatch"},
		{name: "header only", change: func(c *Config) { c.Image = img[:imageHeader-1] }, why: "not a template image"},
		{name: "bad magic", change: func(c *Config) { c.Image = patched(0, 'X') }, why: "not a template image"},
		{name: "other format", change: func(c *Config) { c.Image = patched(8, 2) }, why: "format 2, this build reads 1"},
		{name: "other seal", change: func(c *Config) { c.Image = patched(12, img[12]^1) }, why: "made for another kit, prelude"},
		{name: "huge memory", change: func(c *Config) { c.Image = patched(20, 0, 0, 0, 0x40) }, why: "claims 1073741824 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := imageConfig(t)
			cfg.Image = img
			if tc.change != nil {
				tc.change(&cfg)
			}
			rt := mustNew(t, cfg)
			from, why := rt.TemplateFrom()
			switch {
			case tc.why == "" && (from != "image" || why != nil):
				t.Fatalf("TemplateFrom = %q, %v; want the image", from, why)
			case tc.why != "" && (from == "image" || why == nil || !strings.Contains(why.Error(), tc.why)):
				t.Fatalf("TemplateFrom = %q, %v; want a built template because %q", from, why, tc.why)
			}
			vm, err := rt.NewVM(context.Background(), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer vm.Close()
			if got := evalString(t, vm, `typeof hostEcho`); got != "function" && tc.change == nil {
				t.Fatalf("typeof hostEcho = %s", got)
			}
		})
	}
}

// TestImageSealInputs: the seal changes with each input it covers.
func TestImageSealInputs(t *testing.T) {
	cfg := Config{HostFunctions: []string{"a", "b"}, Prelude: "p"}
	base := imageSeal(PinnedVersion, &cfg)
	for _, tc := range []struct {
		name    string
		version string
		cfg     Config
	}{
		{"QuickJS version", "0.17.0", cfg},
		{"prelude", PinnedVersion, Config{HostFunctions: cfg.HostFunctions, Prelude: "q"}},
		{"host function order", PinnedVersion, Config{HostFunctions: []string{"b", "a"}, Prelude: "p"}},
		{"host function split", PinnedVersion, Config{HostFunctions: []string{"ab"}, Prelude: "p"}},
	} {
		if imageSeal(tc.version, &tc.cfg) == base {
			t.Errorf("the seal ignores the %s", tc.name)
		}
	}
	if imageSeal(PinnedVersion, &Config{HostFunctions: []string{"a", "b"}, Prelude: "p", Deterministic: true, PoolSize: 9}) != base {
		t.Error("the seal depends on settings the template does not")
	}
}

// FuzzImageDecode: no input makes the decoder panic or hand out a template
// whose plan does not rebuild it; a decoded template encodes to an image
// that decodes to the same memory. The checksum is also fixed up before a
// second decode, so the fuzzer reaches the span parser.
func FuzzImageDecode(f *testing.F) {
	t := &template{mem: make([]byte, 2*engine.PageSize), sp: 100, rtPtr: 200, ctxPtr: 300, kit: kit{1, 2, 3, 4, 5, 6, 7}}
	copy(t.mem[10:], "hello")
	copy(t.mem[70000:], "world")
	t.mem[len(t.mem)-1] = 9
	f.Add(encodeImage(t, 1))
	f.Add(encodeImage(&template{mem: make([]byte, engine.PageSize), kit: kit{1, 1, 1, 1, 1, 1, 1}}, 0))
	f.Add([]byte(imageMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(b []byte) {
			im, err := decodeImage(b)
			if err != nil {
				if strings.Contains(err.Error(), "runtime error") {
					t.Fatal(err)
				}
				return
			}
			checkPlan(t, im.tmpl.mem, im.tmpl.plan)
			again, err := decodeImage(encodeImage(im.tmpl, im.seal))
			if err != nil || !bytes.Equal(again.tmpl.mem, im.tmpl.mem) || again.tmpl.kit != im.tmpl.kit || again.seal != im.seal {
				t.Fatalf("re-encoded image differs: %v", err)
			}
		}
		check(b)
		if len(b) >= imageHeader {
			c := bytes.Clone(b)
			binary.LittleEndian.PutUint64(c[imageHeader-8:], hash64(0, c[imageHeader:]))
			check(c)
		}
	})
}

// BenchmarkTemplate: what a start spends on the template, on one module:
// loading the image (instantiate, check the seal, write the image) against
// building it from the sealed bytecode and from the sources (instantiate,
// _initialize, qjs_init, the prelude and the kit, a GC, the copy and the
// reset plan). It uses core's prelude and its sealed bytecode, the template
// core's runtimes start from.
func BenchmarkTemplate(b *testing.B) {
	ctx := context.Background()
	src, err := os.ReadFile("../../core/internal/guest/prelude.js")
	if err != nil {
		b.Skip(err)
	}
	sealed, err := os.ReadFile("../../core/internal/guest/prelude.bc")
	if err != nil {
		b.Skip(err)
	}
	cfg := Config{Engine: imageEngine(b), HostFunctions: []string{"__openclaw_sync", "__openclaw_async"}, Prelude: string(src), PreludeSealed: sealed}
	img, err := mustNew(b, cfg).Image()
	if err != nil {
		b.Fatal(err)
	}
	cfg.Engine, cfg.Image = imageEngine(b), img
	rt := mustNew(b, cfg)
	if from, why := rt.TemplateFrom(); from != "image" {
		b.Fatal(why)
	}
	drain := func() {
		for _, p := range rt.pool {
			p.inst.Close(ctx)
		}
		rt.pool = nil
	}
	for _, bc := range []struct {
		name string
		make func() error
	}{
		{"image", func() error { return rt.loadImage(ctx) }},
		{"bytecode", func() error { return rt.buildTemplate(ctx, true) }},
		{"source", func() error { return rt.buildTemplate(ctx, false) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := bc.make(); err != nil {
					b.Fatal(err)
				}
				drain()
			}
		})
	}
}
