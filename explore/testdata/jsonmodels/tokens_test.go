package jsonmodels

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

type tokP struct{ A int }

// TestTokens reads streams token by token (Decoder.Token) mixed with
// Decode and More, including the token errors; want is what the real
// package prints.
func TestTokens(t *testing.T) {
	var out strings.Builder
	run := func(in string, decodeAt int) {
		dec := json.NewDecoder(strings.NewReader(in))
		for i := 0; i < 20; i++ {
			if i == decodeAt || i == decodeAt+1 {
				var p tokP
				err := dec.Decode(&p)
				fmt.Fprintf(&out, "D%v %v %d|", p, err, dec.InputOffset())
				continue
			}
			tok, err := dec.Token()
			fmt.Fprintf(&out, "%T:%v %v %d %v|", tok, tok, err, dec.InputOffset(), dec.More())
			if err != nil {
				break
			}
		}
		out.WriteString("\n")
	}
	run(`[{"A": 1}, {"A": 2}, 3] {"k": [true, null, "s"], "n": {"x": 1.5}}`, 100)
	run(`[{"A": 1}, {"A": 2}, {"A": "x"}, {"A": 4}]`, 1)
	run(`{"a" 1}`, 100)
	run(`[1 2]`, 100)
	run(`{"a": [1, }`, 100)
	run(`]`, 100)
	run(`{"a": 1}`, 0)
	dec := json.NewDecoder(strings.NewReader(`[{"A":1},{"A":2}]`))
	dec.Token()
	for dec.More() {
		var p tokP
		dec.Decode(&p)
		fmt.Fprint(&out, p)
	}
	tok, err := dec.Token()
	fmt.Fprintln(&out, tok, err)
	if got := out.String(); got != wantTokens {
		t.Errorf("got\n%s\nwant\n%s", got, wantTokens)
	}
}

const wantTokens = `json.Delim:[ <nil> 1 true|json.Delim:{ <nil> 2 true|string:A <nil> 5 true|float64:1 <nil> 8 false|json.Delim:} <nil> 9 true|json.Delim:{ <nil> 12 true|string:A <nil> 15 true|float64:2 <nil> 18 false|json.Delim:} <nil> 19 true|float64:3 <nil> 22 false|json.Delim:] <nil> 23 true|json.Delim:{ <nil> 25 true|string:k <nil> 28 true|json.Delim:[ <nil> 31 true|bool:true <nil> 35 true|<nil>:<nil> <nil> 41 true|string:s <nil> 46 false|json.Delim:] <nil> 47 true|string:n <nil> 52 true|json.Delim:{ <nil> 55 true|
json.Delim:[ <nil> 1 true|D{1} <nil> 9|D{2} <nil> 19|json.Delim:{ <nil> 22 true|string:A <nil> 25 true|string:x <nil> 30 false|json.Delim:} <nil> 31 true|json.Delim:{ <nil> 34 true|string:A <nil> 37 true|float64:4 <nil> 40 false|json.Delim:} <nil> 41 false|json.Delim:] <nil> 42 false|<nil>:<nil> EOF 42 false|
json.Delim:{ <nil> 1 true|string:a <nil> 4 true|<nil>:<nil> invalid character '1' after object key 5 true|
json.Delim:[ <nil> 1 true|float64:1 <nil> 2 true|<nil>:<nil> invalid character '2' after array element 3 true|
json.Delim:{ <nil> 1 true|string:a <nil> 4 true|json.Delim:[ <nil> 7 true|float64:1 <nil> 8 true|<nil>:<nil> invalid character '}' looking for beginning of value 10 false|
<nil>:<nil> invalid character ']' looking for beginning of value 0 false|
D{1} <nil> 8|D{0} EOF 8|<nil>:<nil> EOF 8 false|
{1}{2}] <nil>
`

// TestBuffered reads what a Decoder buffered after a value.
func TestBuffered(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"A": 1} rest`))
	var p tokP
	if err := dec.Decode(&p); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(dec.Buffered())
	if err != nil || string(b) != " rest" || p.A != 1 {
		t.Errorf("buffered %q %v %v", b, err, p)
	}
}
