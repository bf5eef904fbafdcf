package annotate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRangeBinds(t *testing.T) {
	pkg, errs := fromSource(t, map[string]string{"a.go": `package p

//ltl:range count 0..7
var count int

var small uint8 //ltl:range small 1..3

//ltl:range ch -2..2
var ch chan int

func f(n int) { //ltl:range n 0..1
	//ltl:range k 0..3
	k := 0
	j := 2 //ltl:range j 2..4
	_, _ = k, j
}
`})
	require.Empty(t, errs)
	var got []string
	for _, r := range pkg.Ranges {
		got = append(got, short(pkg.Fset, r.Pos)+" "+r.Var.Name())
		assert.LessOrEqual(t, r.Lo, r.Hi)
	}
	assert.Equal(t, []string{"a.go:3:1 count", "a.go:6:17 small", "a.go:8:1 ch", "a.go:11:17 n", "a.go:12:2 k", "a.go:14:9 j"}, got)
	count := pkg.Ranges[0]
	assert.Equal(t, int64(0), count.Lo)
	assert.Equal(t, int64(7), count.Hi)
	assert.Same(t, count, pkg.Range(count.Var))
	assert.Equal(t, int64(-2), pkg.Ranges[2].Lo)
}

func TestRangeErrors(t *testing.T) {
	_, errs := fromSource(t, map[string]string{"a.go": `package p

import "sync"

var x, y int
var b bool
var mu sync.Mutex
var u uint8
const c = 3

//ltl:range
//ltl:range x
//ltl:range x 0..
//ltl:range x 3..1
//ltl:range nope 0..1
//ltl:range c 0..1
//ltl:range b 0..1
//ltl:range mu 0..1
//ltl:range u -1..3
//ltl:range u 0..300
//ltl:range y 0..1
//ltl:range y 0..2
//ltl:range x.f 0..1
//ltl:range x 0..1 2
`})
	assert.Equal(t, []string{
		"a.go:11:12: ltl:range: missing variable and range (want //ltl:range NAME LO..HI)",
		"a.go:12:13: ltl:range: want a variable and a range, as in //ltl:range NAME LO..HI",
		`a.go:13:18: ltl:range: invalid upper bound "" (want LO..HI, as in 0..7)`,
		"a.go:14:15: ltl:range: empty range 3..1",
		`a.go:15:13: ltl:range: unknown variable "nope"`,
		"a.go:16:13: ltl:range: c is a constant, not a variable",
		"a.go:17:13: ltl:range: b has type bool: a range bounds an integer variable or a channel of integers (booleans and mutexes are finite already)",
		"a.go:18:13: ltl:range: mu has type sync.Mutex: a range bounds an integer variable or a channel of integers (booleans and mutexes are finite already)",
		"a.go:19:15: ltl:range: values of u cannot be -1..3: type uint8 holds 0..255",
		"a.go:20:15: ltl:range: values of u cannot be 0..300: type uint8 holds 0..255",
		"a.go:22:13: ltl:range: y already has a range by the directive at a.go:21:1",
		`a.go:23:13: ltl:range: invalid variable name "x.f": want an identifier`,
		"a.go:24:13: ltl:range: want a variable and a range, as in //ltl:range NAME LO..HI",
	}, messages(errs))
}

func TestRangeInSpecFile(t *testing.T) {
	_, errs := fromSource(t, map[string]string{
		"a.go":  "package p\n\nvar x int\n\n//ltl:specfile s.ltl\n",
		"s.ltl": "range x 0..1\n",
	})
	assert.Equal(t, []string{"s.ltl:1:1: ltl:range: not allowed in a spec file: a range bounds a variable in Go source"}, messages(errs))
}
