package core_test

import "testing"

func TestSmokeCompletedValue(t *testing.T) {
	rt := newRuntime(t, nil)
	r := exec(t, rt, `const [t] = await tools.search("list shipments"); const s = await tools.callValue(t.id, {}); text("n=" + s.length); return s.filter((x) => !x.paid && x.tons > 10).map((x) => x.id);`)
	if got := jsonText(value(t, r)); got != `["SH-1002","SH-1005"]` {
		t.Fatalf("value %s output %+v", got, r.Output)
	}
	if len(r.Output) != 1 || r.Output[0].Text != "n=6" {
		t.Fatalf("output %+v", r.Output)
	}
}
