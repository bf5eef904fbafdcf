package ltltest

import (
	"reflect"
	"testing"
)

// FuzzSymbolicInputs: parsing LTLTEST_INPUTS never panics, and a value
// it accepts for an int8 is in range.
func FuzzSymbolicInputs(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"n": 3}`, `{"n": -128}`, `{"n": 300}`, `{"n": true}`, `{"n": "x"}`, `[1]`, `{"n": 1e3}`, `{"n": null}`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, ok, err := lookupInput(s, "n")
		if err != nil || !ok {
			return
		}
		var n int8
		if err := setInput(reflect.ValueOf(&n).Elem(), raw); err == nil {
			var wide int64
			if setInput(reflect.ValueOf(&wide).Elem(), raw) != nil || wide != int64(n) {
				t.Fatalf("%s: int8 %d, int64 %d", raw, n, wide)
			}
		}
		var b bool
		_ = setInput(reflect.ValueOf(&b).Elem(), raw)
		var u uint64
		_ = setInput(reflect.ValueOf(&u).Elem(), raw)
	})
}
