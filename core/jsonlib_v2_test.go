//go:build goexperiment.jsonv2

package core

import jsonv2 "encoding/json/v2"

var jsonV2 = []jsonLib{{"encoding/json/v2", func(v any) ([]byte, error) { return jsonv2.Marshal(v) }, func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) }}}
