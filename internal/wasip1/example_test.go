package wasip1_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/codemode-go/codemode/internal/wasip1"
)

// Host.Handle is what each reactor export runs; natively it shows the ABI's
// round trip without a WebAssembly host.
func ExampleHost_Handle() {
	ctx := context.Background()
	h := wasip1.NewHost()
	h.Handle(ctx, "create_runtime", []byte(`{"tools":[{"name":"get_price","description":"Price in cents.","parameters":{"type":"object"}}]}`))
	var a struct {
		OK wasip1.RunAnswer `json:"ok"`
	}
	json.Unmarshal(h.Handle(ctx, "exec", []byte(`{"runtime":1,"code":"return (await tools.get_price({item: 'tea'})).cents * 2"}`)), &a)
	hc := a.OK.HostCalls[0]
	fmt.Println(a.OK.Result.Status, hc.Tool, string(hc.Input))
	fmt.Println(string(h.Handle(ctx, "settle", []byte(`{"runtime":1,"id":"`+hc.ID+`","result":{"details":{"cents":250}}}`))))
	json.Unmarshal(h.Handle(ctx, "wait", []byte(`{"runtime":1,"runId":"`+a.OK.Result.RunID+`"}`)), &a)
	fmt.Println(a.OK.Result.Status, string(a.OK.Result.Value))
	// Output:
	// waiting get_price {"item":"tea"}
	// {"ok":{"settled":true}}
	// completed 500
}
