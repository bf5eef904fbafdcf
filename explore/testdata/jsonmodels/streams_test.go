package jsonmodels

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:1]) }

type failW struct{ n int }

func (f *failW) Write(p []byte) (int, error) {
	f.n++
	if f.n > 1 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

type K struct{ A, B int }

type G struct {
	M   map[K][]string
	Arr [2]float32
	P   **int
	C   complex128
	U   uint16
	S   []*K
	E   struct{ X int }
	Ch  chan int
	low int
}

// TestStreamsAndGob reads json streams through readers (one byte at a
// time, truncated, with a syntax error), writes to a failing writer, and
// round-trips gob values; want is what the real packages print.
func TestStreamsAndGob(t *testing.T) {
	var out strings.Builder
	decodeAll := func(name string, r io.Reader) {
		dec := json.NewDecoder(r)
		for i := 0; i < 6; i++ {
			var v any
			err := dec.Decode(&v)
			fmt.Fprintf(&out, "%s %d: %v %v (%d)\n", name, i, v, err, dec.InputOffset())
			if err != nil && i > 3 {
				break
			}
		}
	}
	decodeAll("ok", strings.NewReader(`1 "a" [true] {"k": null} 12`))
	decodeAll("bytes", oneByte{strings.NewReader(`{"a": [1, 2]} 3.5 null`)})
	decodeAll("trunc", strings.NewReader(`{"a": 1} {"b": `))
	decodeAll("syntax", strings.NewReader(`{"a": 1} {"b" 2} 3`))
	decodeAll("empty", strings.NewReader("  \n "))
	dec := json.NewDecoder(strings.NewReader(`[1,2] [3]`))
	fmt.Fprintln(&out, dec.More())
	var s []int
	fmt.Fprintln(&out, dec.Decode(&s), s, dec.More())
	fmt.Fprintln(&out, dec.Decode(&s), s, dec.More())
	fw := &failW{}
	enc := json.NewEncoder(fw)
	fmt.Fprintln(&out, enc.Encode(1), enc.Encode(2), enc.Encode(3))

	var buf bytes.Buffer
	genc := gob.NewEncoder(&buf)
	two := 2
	pp := &two
	in := G{M: map[K][]string{{1, 2}: {"x"}, {3, 4}: nil}, Arr: [2]float32{1.5, 2}, P: &pp, C: 1i, U: 9, S: []*K{{5, 6}}, E: struct{ X int }{7}, low: 3}
	fmt.Fprintln(&out, genc.Encode(in), genc.Encode(&in), genc.Encode(42), genc.Encode("s"))
	gdec := gob.NewDecoder(&buf)
	var g1, g2 G
	var n int
	var str string
	fmt.Fprintln(&out, gdec.Decode(&g1), gdec.Decode(&g2), gdec.Decode(&n), gdec.Decode(&str), gdec.Decode(&n))
	fmt.Fprintln(&out, g1.M[K{1, 2}], len(g1.M), g1.Arr, **g1.P, g1.C, g1.U, *g1.S[0], g1.E, g1.low, n, str, g2.U)
	fmt.Fprintln(&out, gob.NewEncoder(&buf).Encode(nil))
	var x G
	fmt.Fprintln(&out, gob.NewDecoder(strings.NewReader("")).Decode(&x))
	if got := out.String(); got != wantTestStreamsAndGob {
		t.Errorf("got\n%s\nwant\n%s", got, wantTestStreamsAndGob)
	}
}

const wantTestStreamsAndGob = `ok 0: 1 <nil> (1)
ok 1: a <nil> (5)
ok 2: [true] <nil> (12)
ok 3: map[k:<nil>] <nil> (24)
ok 4: 12 <nil> (27)
ok 5: <nil> EOF (27)
bytes 0: map[a:[1 2]] <nil> (13)
bytes 1: 3.5 <nil> (17)
bytes 2: <nil> <nil> (22)
bytes 3: <nil> EOF (22)
bytes 4: <nil> EOF (22)
trunc 0: map[a:1] <nil> (8)
trunc 1: <nil> unexpected EOF (8)
trunc 2: <nil> unexpected EOF (8)
trunc 3: <nil> unexpected EOF (8)
trunc 4: <nil> unexpected EOF (8)
syntax 0: map[a:1] <nil> (8)
syntax 1: <nil> invalid character '2' after object key (8)
syntax 2: <nil> invalid character '2' after object key (8)
syntax 3: <nil> invalid character '2' after object key (8)
syntax 4: <nil> invalid character '2' after object key (8)
empty 0: <nil> EOF (0)
empty 1: <nil> EOF (0)
empty 2: <nil> EOF (0)
empty 3: <nil> EOF (0)
empty 4: <nil> EOF (0)
true
<nil> [1 2] true
<nil> [3] false
<nil> disk full disk full
<nil> <nil> <nil> <nil>
<nil> <nil> <nil> <nil> EOF
[x] 2 [1.5 2] 2 (0+1i) 9 {5 6} {7} 0 42 s 9
gob: cannot encode nil value
EOF
`
