// Package jsonmodels holds tests that use encoding/json and encoding/gob.
// The expected bytes are literals checked by go test natively, so the
// explorer's models must print what the real packages print.
package jsonmodels

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

type Base struct {
	ID   int    `json:"id"`
	Kind string `json:"kind,omitempty"`
}

type inner struct {
	Deep bool `json:"deep"`
}

type Item struct {
	Base
	inner
	Name    string            `json:"name"`
	Price   float64           `json:"price"`
	Tags    []string          `json:"tags,omitempty"`
	Attrs   map[string]string `json:"attrs,omitempty"`
	Count   int64             `json:"count,string"`
	Note    *string           `json:"note"`
	Skip    string            `json:"-"`
	private int
	When    time.Time `json:"when,omitzero"`
}

func check(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestStructRoundTrip(t *testing.T) {
	in := Item{Base: Base{ID: 7}, inner: inner{Deep: true}, Name: "a<b>&\"c\"\u2028", Price: 1e21, Tags: []string{"x"}, Count: 42, Skip: "s", private: 1}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	check(t, string(b), `{"id":7,"deep":true,"name":"a\u003cb\u003e\u0026\"c\"\u2028","price":1e+21,"tags":["x"],"count":"42","note":null}`)
	var out Item
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Name != in.Name || out.ID != 7 || !out.Deep || out.Count != 42 || len(out.Tags) != 1 || out.Note != nil {
		t.Errorf("round trip: %+v", out)
	}
}

// FailStructWrong is TestStructRoundTrip's failing variant (go test does
// not run it): its message shows the bytes Marshal printed.
func FailStructWrong(t *testing.T) {
	b, _ := json.Marshal(Item{Name: "n", Price: 0.5})
	check(t, string(b), `{"id":0,"name":"n","price":0.5}`)
}

func TestMapKeyOrder(t *testing.T) {
	b, _ := json.Marshal(map[string]int{"b": 2, "a": 1, "c": 3, "A": 0})
	check(t, string(b), `{"A":0,"a":1,"b":2,"c":3}`)
	b, _ = json.Marshal(map[int]bool{10: true, 9: false, -1: true})
	check(t, string(b), `{"-1":true,"10":true,"9":false}`)
}

func TestMarshalIndent(t *testing.T) {
	b, err := json.MarshalIndent(map[string]any{"list": []any{1, "two", nil, 3.5}, "obj": struct{ X, Y int }{1, 2}}, ">", "  ")
	if err != nil {
		t.Fatal(err)
	}
	check(t, string(b), "{\n>  \"list\": [\n>    1,\n>    \"two\",\n>    null,\n>    3.5\n>  ],\n>  \"obj\": {\n>    \"X\": 1,\n>    \"Y\": 2\n>  }\n>}")
}

func TestUnmarshalAny(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(`{"n": 1.5, "s": "x", "l": [true, null, 2], "o": {"k": "v"}}`), &v); err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["n"].(float64) != 1.5 || m["s"].(string) != "x" || m["o"].(map[string]any)["k"] != "v" {
		t.Errorf("decoded %v", v)
	}
	check(t, fmt.Sprint(m["l"]), "[true <nil> 2]")
	var n float64
	if _, ok := m["l"].([]any)[2].(float64); !ok {
		t.Errorf("number is %T", m["l"].([]any)[2])
	}
	_ = n
}

func TestSyntaxError(t *testing.T) {
	var v map[string]int
	err := json.Unmarshal([]byte(`{"a": 1,}`), &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error %T %v", err, err)
	}
	check(t, err.Error(), "invalid character '}' looking for beginning of object key string")
	if se.Offset != 9 {
		t.Errorf("offset %d", se.Offset)
	}
	err = json.Unmarshal([]byte(`{"id": "seven"}`), &Base{})
	check(t, err.Error(), "json: cannot unmarshal string into Go struct field Base.id of type int")
	var notPtr any = Base{}
	err = json.Unmarshal([]byte(`[1]`), notPtr)
	check(t, err.Error(), "json: Unmarshal(non-pointer jsonmodels.Base)")
}

type Celsius float64

func (c Celsius) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`{"celsius": %.1f}`, float64(c))), nil
}

func (c *Celsius) UnmarshalJSON(b []byte) error {
	var v struct{ Celsius float64 }
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Celsius(v.Celsius)
	return nil
}

type Level int

func (l Level) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("L<%d>", int(l))), nil }

func (l *Level) UnmarshalText(b []byte) error {
	s, ok := strings.CutPrefix(string(b), "L<")
	s, ok2 := strings.CutSuffix(s, ">")
	n, err := strconv.Atoi(s)
	if !ok || !ok2 || err != nil {
		return fmt.Errorf("bad level %q", b)
	}
	*l = Level(n)
	return nil
}

type Reading struct {
	Temp   Celsius         `json:"temp"`
	Levels map[Level]Level `json:"levels"`
	Opt    *Celsius        `json:"opt,omitempty"`
}

func TestCustomMarshalJSON(t *testing.T) {
	r := Reading{Temp: 21.5, Levels: map[Level]Level{2: 3, 10: 1}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	check(t, string(b), `{"temp":{"celsius":21.5},"levels":{"L\u003c10\u003e":"L\u003c1\u003e","L\u003c2\u003e":"L\u003c3\u003e"}}`)
	var back Reading
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Temp != 21.5 || back.Levels[10] != 1 || back.Levels[2] != 3 || back.Opt != nil {
		t.Errorf("back %+v", back)
	}
}

func TestEncoderToBuffer(t *testing.T) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]string{"html": "<p>"}); err != nil {
		t.Fatal(err)
	}
	enc.SetIndent("", "\t")
	if err := enc.Encode([]int{1, 2}); err != nil {
		t.Fatal(err)
	}
	check(t, buf.String(), "{\"html\":\"<p>\"}\n[\n\t1,\n\t2\n]\n")
}

func TestDecoderStream(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"id": 1} {"id": 2, "kind": "k"}
	[3] 4 "five"`))
	var got []string
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(v))
	}
	var v any
	if err := dec.Decode(&v); err != io.EOF {
		t.Errorf("at the end: %v", err)
	}
	check(t, strings.Join(got, "|"), "map[id:1]|map[id:2 kind:k]|[3]|4|five")
	dec = json.NewDecoder(strings.NewReader(`{"id": 1, "extra": 2}`))
	dec.DisallowUnknownFields()
	err := dec.Decode(&Base{})
	check(t, fmt.Sprint(err), `json: unknown field "extra"`)
	dec = json.NewDecoder(strings.NewReader(`{"n": 12345678901234567890}`))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	check(t, fmt.Sprintf("%T %v", m["n"], m["n"]), "json.Number 12345678901234567890")
}

type Node struct {
	Val  int   `json:"val"`
	Next *Node `json:"next,omitempty"`
}

func TestRecursiveAndErrors(t *testing.T) {
	b, err := json.Marshal(&Node{Val: 1, Next: &Node{Val: 2}})
	check(t, string(b)+fmt.Sprint(err), `{"val":1,"next":{"val":2}}<nil>`)
	var n Node
	if err := json.Unmarshal([]byte(`{"val":1,"next":{"val":2,"next":null}}`), &n); err != nil {
		t.Fatal(err)
	}
	if n.Next == nil || n.Next.Val != 2 || n.Next.Next != nil {
		t.Errorf("decoded %+v", n)
	}
	loop := &Node{Val: 1}
	loop.Next = loop
	_, err = json.Marshal(loop)
	check(t, fmt.Sprint(err), "json: unsupported value: encountered a cycle via *jsonmodels.Node")
	_, err = json.Marshal(map[string]any{"c": make(chan int)})
	check(t, fmt.Sprint(err), "json: unsupported type: chan int")
	_, err = json.Marshal([]float64{1, 0 / zero()})
	check(t, fmt.Sprint(err), "json: unsupported value: NaN")
}

func zero() float64 { return 0 }

func TestRawAndHelpers(t *testing.T) {
	var v struct {
		A json.RawMessage
		B json.Number
	}
	if err := json.Unmarshal([]byte(`{"A": [1, 2 ], "B": 3.25}`), &v); err != nil {
		t.Fatal(err)
	}
	check(t, string(v.A)+" "+v.B.String(), "[1, 2 ] 3.25")
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte("{ \"a\" : [ 1 , 2 ] }")); err != nil {
		t.Fatal(err)
	}
	if err := json.Indent(&buf, []byte(`[1,{"b":2}]`), "", " "); err != nil {
		t.Fatal(err)
	}
	json.HTMLEscape(&buf, []byte(`"<&>"`))
	check(t, buf.String(), "{\"a\":[1,2]}[\n 1,\n {\n  \"b\": 2\n }\n]\"\\u003c\\u0026\\u003e\"")
	if json.Valid([]byte(`{`)) || !json.Valid([]byte(`[]`)) {
		t.Error("Valid")
	}
}

// TestConcurrentEncode encodes from two goroutines into one locked buffer.
func TestConcurrentEncode(t *testing.T) {
	var mu sync.Mutex
	var buf bytes.Buffer
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, _ := json.Marshal(Base{ID: i})
			mu.Lock()
			buf.Write(b)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if s := buf.String(); s != `{"id":0}{"id":1}` && s != `{"id":1}{"id":0}` {
		t.Errorf("buffer %s", s)
	}
}

type Record struct {
	Name  string
	Score float64
	Tags  []string
	Meta  map[string]int
	Inner *Base
}

func TestGobRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	in := []Record{{Name: "a", Score: 1.5, Tags: []string{"x", "y"}, Meta: map[string]int{"k": 1}, Inner: &Base{ID: 3, Kind: "b"}}, {Name: "b"}}
	for _, r := range in {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	dec := gob.NewDecoder(&buf)
	var got []string
	for {
		var r Record
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		inner := "nil"
		if r.Inner != nil {
			inner = fmt.Sprint(*r.Inner)
		}
		got = append(got, fmt.Sprintf("%s %v %v %v %s", r.Name, r.Score, r.Tags, r.Meta, inner))
	}
	check(t, strings.Join(got, "|"), "a 1.5 [x y] map[k:1] {3 b}|b 0 [] map[] nil")
}

// TestGobUnicodeName: a field whose name starts with a non-ASCII
// upper-case letter is exported, and gob sends it.
func TestGobUnicodeName(t *testing.T) {
	type U struct {
		Ñ int
		ñ int
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(U{Ñ: 7, ñ: 8}); err != nil {
		t.Fatal(err)
	}
	var u U
	if err := gob.NewDecoder(&buf).Decode(&u); err != nil {
		t.Fatal(err)
	}
	check(t, fmt.Sprint(u.Ñ, u.ñ), "7 0")
}

// FailDecoderWrong is TestDecoderStream's failing variant (go test does
// not run it): its message shows what Decode decoded.
func FailDecoderWrong(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"id": 1, "kind": "a"} [2.5]`))
	var b Base
	var l []float64
	if err := dec.Decode(&b); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&l); err != nil {
		t.Fatal(err)
	}
	check(t, fmt.Sprintf("%+v %v", b, l), "{ID:1 Kind:b} [2.5]")
}

// FailGobWrong is TestGobRoundTrip's failing variant (go test does not
// run it): its message shows the decoded record.
func FailGobWrong(t *testing.T) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(Record{Name: "r", Meta: map[string]int{"m": 2}}); err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := gob.NewDecoder(&buf).Decode(&r); err != nil {
		t.Fatal(err)
	}
	check(t, fmt.Sprintf("%+v", r), "{Name:r Score:0 Tags:[] Meta:map[m:3] Inner:<nil>}")
}

// UnsupportedShape decodes into a non-empty interface, which the json
// model does not do (go test does not run it).
func UnsupportedShape(t *testing.T) {
	var v struct{ S fmt.Stringer }
	_ = json.Unmarshal([]byte(`{"S": 1}`), &v)
}

// UnsupportedGobInterface encodes an interface value with gob, which the
// gob model does not do (go test does not run it).
func UnsupportedGobInterface(t *testing.T) {
	var buf bytes.Buffer
	_ = gob.NewEncoder(&buf).Encode(struct{ V any }{V: 1})
}

// Counter's MarshalJSON locks a mutex: a scheduling point inside the
// model's call of the method.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) MarshalJSON() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return []byte(strconv.Itoa(c.n)), nil
}

func (c *Counter) inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// TestMarshalerAndPipe marshals a Counter while another goroutine
// increments it, and streams values through an io.Pipe between an
// Encoder and a Decoder on two goroutines.
func TestMarshalerAndPipe(t *testing.T) {
	c := &Counter{}
	done := make(chan struct{})
	go func() {
		c.inc()
		close(done)
	}()
	b, err := json.Marshal(map[string]*Counter{"c": c})
	if err != nil {
		t.Fatal(err)
	}
	<-done
	if s := string(b); s != `{"c":0}` && s != `{"c":1}` {
		t.Errorf("marshalled %s", s)
	}
	pr, pw := io.Pipe()
	go func() {
		enc := json.NewEncoder(pw)
		for i := range 2 {
			enc.Encode(Base{ID: i, Kind: "p"})
		}
		pw.Close()
	}()
	dec := json.NewDecoder(pr)
	var got []string
	for {
		var v Base
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(v))
	}
	check(t, strings.Join(got, " "), "{0 p} {1 p}")
}
