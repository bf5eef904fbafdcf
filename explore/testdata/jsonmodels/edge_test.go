package jsonmodels

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

type E1 struct {
	A int `json:"a"`
	B int
}
type E2 struct {
	A int `json:"a"`
	C string
}
type Dup struct {
	E1
	E2
	D int
}
type PtrEmb struct {
	*E1
	X int `json:",omitempty"`
}
type Tagged struct {
	E1 `json:"e1"`
	Y  *int    `json:"y,omitempty"`
	Z  float32 `json:"z"`
	Q  uint8   `json:"q,string"`
	B  []byte  `json:"b"`
	Bn []byte  `json:"bn"`
	Be []byte  `json:"be,omitempty"`
	Ar [2]bool `json:"ar"`
	M  map[string]*E1
	I  any
	Er error
}
type PM struct{ N int }

func (p *PM) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf("[%d]", p.N)), nil }

type Holder struct {
	V  PM
	P  *PM
	S  []PM
	Mv map[string]PM
}
type Bad struct{}

func (Bad) MarshalJSON() ([]byte, error) { return []byte("{bad"), nil }

type Failing struct{}

func (Failing) MarshalJSON() ([]byte, error) { return nil, errors.New("boom") }

type Zeroer struct{ N int }

func (z Zeroer) IsZero() bool { return z.N == 1 }

type WithZero struct {
	Z  Zeroer    `json:"z,omitzero"`
	T  time.Time `json:"t,omitzero"`
	T2 time.Time `json:"t2"`
	E  []int     `json:"e,omitzero"`
	F  []int     `json:"f,omitempty"`
}

type Strs []string

type Dec struct {
	Name  string
	Inner struct{ V int }
	List  []int
	Map   map[string]int
	Ptr   *int
	Any   any
	Arr   [3]int
	U8    uint8
	F32   float32
	Keys  map[int]string
	Named Strs
}

// TestEdgeCases marshals and unmarshals the corner cases of json's rules
// (promotion and dominance, tags, Marshalers with pointer receivers,
// omitzero with IsZero, type errors, merging into existing values); want
// is what the real package prints.
func TestEdgeCases(t *testing.T) {
	var out strings.Builder
	p := func(v any) {
		b, err := json.Marshal(v)
		fmt.Fprintf(&out, "%s %v\n", b, err)
	}
	p(Dup{E1{1, 2}, E2{3, "c"}, 4})
	p(PtrEmb{})
	p(PtrEmb{E1: &E1{5, 6}, X: 1})
	seven := 7
	p(Tagged{E1: E1{1, 2}, Y: &seven, Z: 0.1, Q: 200, B: []byte("hi\x00"), Bn: nil, Be: []byte{}, M: map[string]*E1{"x": nil, "a": {}}, I: []any{int8(3), "s", map[string]any{}}, Er: errors.New("e")})
	p(Holder{V: PM{1}, P: &PM{2}, S: []PM{{3}}, Mv: map[string]PM{"k": {4}}})
	p(&Holder{V: PM{1}})
	p(Bad{})
	p(Failing{})
	p([]any{Failing{}})
	p(WithZero{Z: Zeroer{1}, T2: time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC), E: []int{}, F: []int{}})
	p(WithZero{Z: Zeroer{0}, T: time.Date(2020, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600))})
	p(map[float64]int{1: 1})
	p(struct{ F func() }{})
	p(complex(1, 2))
	p("\xff<>&\u2029")
	p([]float64{1e-7, 1e21, 123456789, -0.0, 3.0000001})
	p([]float32{1e-7, 3.4e38, 0.1})
	p(json.RawMessage(` { "a" : 1 } `))
	p(Strs(nil))
	p(map[string]any(nil))
	p(struct {
		A int `json:"-,"`
		B int `json:"b,omitempty,string"`
	}{1, 2})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.Encode(map[string]string{"<": ">"})
	fmt.Fprintf(&out, "%q\n", buf.String())
	u := func(s string, v any) {
		err := json.Unmarshal([]byte(s), v)
		b, _ := json.Marshal(v)
		fmt.Fprintf(&out, "%s | %v\n", b, err)
	}
	var d Dec
	u(`{"name":"n","inner":{"v":2},"list":[1,2],"map":{"a":1},"ptr":3,"any":{"x":[1]},"arr":[1],"u8":255,"f32":0.1,"keys":{"5":"five"},"named":["q"]}`, &d)
	u(`{"list":[9],"map":{"b":2},"arr":[7,8,9,10]}`, &d)
	u(`{"u8":256}`, &d)
	u(`{"inner":{"v":"x"}}`, &d)
	u(`{"list":{}}`, &d)
	u(`{"keys":{"x":"y"}}`, &d)
	u(`{"ptr":null,"any":null}`, &d)
	u(`[1,2,3]`, new([]int8))
	u(`[1,2,300]`, new([]int8))
	u(`"x"`, new(int))
	u(`{"a": 1}`, new(map[string]float64))
	u(`{"V":{"N":3}}`, new(struct{ V any }))
	u(``, new(int))
	u(`[1,]`, new(any))
	u(`nul`, new(any))
	u(`1 2`, new(any))
	u(`{"z":"2020-01-02T03:04:05Z","t":"bad"}`, new(WithZero))
	dd := &Dec{Ptr: &seven}
	keep := dd.Ptr
	u(`{"ptr": 8}`, dd)
	fmt.Fprintln(&out, keep == dd.Ptr, seven)
	var iv any = &E1{A: 1}
	u(`{"B": 5}`, &iv)
	fmt.Fprintf(&out, "%T\n", iv)
	if got := out.String(); got != wantTestEdgeCases {
		t.Errorf("got\n%s\nwant\n%s", got, wantTestEdgeCases)
	}
}

const wantTestEdgeCases = `{"B":2,"C":"c","D":4} <nil>
{} <nil>
{"a":5,"B":6,"X":1} <nil>
{"e1":{"a":1,"B":2},"y":7,"z":0.1,"q":"200","b":"aGkA","bn":null,"ar":[false,false],"M":{"a":{"a":0,"B":0},"x":null},"I":[3,"s",{}],"Er":{}} <nil>
{"V":{"N":1},"P":[2],"S":[[3]],"Mv":{"k":{"N":4}}} <nil>
{"V":[1],"P":null,"S":null,"Mv":null} <nil>
 json: error calling MarshalJSON for type jsonmodels.Bad: invalid character 'b' looking for beginning of object key string
 json: error calling MarshalJSON for type jsonmodels.Failing: boom
 json: error calling MarshalJSON for type jsonmodels.Failing: boom
{"t2":"2020-01-02T03:04:05.000000006Z","e":[]} <nil>
{"z":{"N":0},"t":"2020-01-02T03:04:05+01:00","t2":"0001-01-01T00:00:00Z"} <nil>
 json: unsupported type: map[float64]int
 json: unsupported type: func()
 json: unsupported type: complex128
"\ufffd\u003c\u003e\u0026\u2029" <nil>
[1e-7,1e+21,123456789,0,3.0000001] <nil>
[1e-7,3.4e+38,0.1] <nil>
{"a":1} <nil>
null <nil>
null <nil>
{"-":1,"b":"2"} <nil>
"{\"\\u003c\":\"\\u003e\"}\n"
{"Name":"n","Inner":{"V":2},"List":[1,2],"Map":{"a":1},"Ptr":3,"Any":{"x":[1]},"Arr":[1,0,0],"U8":255,"F32":0.1,"Keys":{"5":"five"},"Named":["q"]} | <nil>
{"Name":"n","Inner":{"V":2},"List":[9],"Map":{"a":1,"b":2},"Ptr":3,"Any":{"x":[1]},"Arr":[7,8,9],"U8":255,"F32":0.1,"Keys":{"5":"five"},"Named":["q"]} | <nil>
{"Name":"n","Inner":{"V":2},"List":[9],"Map":{"a":1,"b":2},"Ptr":3,"Any":{"x":[1]},"Arr":[7,8,9],"U8":255,"F32":0.1,"Keys":{"5":"five"},"Named":["q"]} | json: cannot unmarshal number 256 into Go struct field Dec.U8 of type uint8
{"Name":"n","Inner":{"V":2},"List":[9],"Map":{"a":1,"b":2},"Ptr":3,"Any":{"x":[1]},"Arr":[7,8,9],"U8":255,"F32":0.1,"Keys":{"5":"five"},"Named":["q"]} | json: cannot unmarshal string into Go struct field .Inner.V of type int
{"Name":"n","Inner":{"V":2},"List":[9],"Map":{"a":1,"b":2},"Ptr":3,"Any":{"x":[1]},"Arr":[7,8,9],"U8":255,"F32":0.1,"Keys":{"5":"five"},"Named":["q"]} | json: cannot unmarshal object into Go struct field Dec.List of type []int
{"Name":"n","Inner":{"V":2},"List":[9],"Map":{"a":1,"b":2},"Ptr":3,"Any":{"x":[1]},"Arr":[7,8,9],"U8":255,"F32":0.1,"Keys":{"5":"five"},"Named":["q"]} | json: cannot unmarshal number x into Go struct field Dec.Keys of type int
{"Name":"n","Inner":{"V":2},"List":[9],"Map":{"a":1,"b":2},"Ptr":null,"Any":null,"Arr":[7,8,9],"U8":255,"F32":0.1,"Keys":{"5":"five"},"Named":["q"]} | <nil>
[1,2,3] | <nil>
[1,2,0] | json: cannot unmarshal number 300 into Go value of type int8
0 | json: cannot unmarshal string into Go value of type int
{"a":1} | <nil>
{"V":{"N":3}} | <nil>
0 | unexpected end of JSON input
null | invalid character ']' looking for beginning of value
null | invalid character ' ' in literal null (expecting 'l')
null | invalid character '2' after top-level value
{"z":{"N":0},"t2":"0001-01-01T00:00:00Z"} | parsing time "bad" as "2006-01-02T15:04:05Z07:00": cannot parse "bad" as "2006"
{"Name":"","Inner":{"V":0},"List":null,"Map":null,"Ptr":8,"Any":null,"Arr":[0,0,0],"U8":0,"F32":0,"Keys":null,"Named":null} | <nil>
true 8
{"a":1,"B":5} | <nil>
*jsonmodels.E1
`
