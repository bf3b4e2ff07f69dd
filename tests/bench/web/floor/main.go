//go:build js && wasm

// Command floor is the smallest Go program that boots in the page's worker the
// way codemode.wasm does and answers its first exec: the floor any Go core
// pays in a page (tests/bench/web/floor.mjs). Not a core: it runs nothing.
package main

import "syscall/js"

func main() {
	js.Global().Get("__codemodeBoot").Call("ready", floorAPI())
	select {}
}
