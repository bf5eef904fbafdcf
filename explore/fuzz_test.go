package explore

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ssa"
)

// FuzzDecodeToken: decoding never panics, and encoded paths decode to
// the same seed and choices.
func FuzzDecodeToken(f *testing.F) {
	f.Add("")
	f.Add("v1:")
	f.Add("v1:AQAAElk")
	f.Add("v2:AQAAElk")
	f.Add("v1:!!!")
	f.Add(encodeToken("p.TestX", 42, []choice{{n: 3, c: 2}, {n: 2, c: 1}, {n: 300, c: 299}}))
	f.Add(encodeToken("p.TestX", -7, nil))
	f.Add(encodeToken("p.TestX", 3, longRun(500)))
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := decodeToken(s)
		if err != nil {
			require.ErrorIs(t, err, ErrBadToken)
			return
		}
		path := make([]choice, len(tok.choices))
		for i, c := range tok.choices {
			path[i] = choice{n: c + 1, c: c}
		}
		again, err := decodeToken(encodeToken("e", tok.seed, path))
		require.NoError(t, err)
		require.Equal(t, tok.seed, again.seed)
		require.Equal(t, tok.choices, again.choices)
	})
}

// longRun is a path that ends in a long run of first choices, as a
// witness continued to its end has.
func longRun(n int) []choice {
	path := []choice{{n: 2, c: 1}, {n: 3, c: 2}}
	for range n {
		path = append(path, choice{n: 2, c: 0})
	}
	return path
}

// Long runs of equal choices are run-length encoded ("v2:"), short paths
// keep the plain "v1:" form; both decode to the same path.
func TestTokenRunLength(t *testing.T) {
	path := longRun(5000)
	tok := encodeToken("p.TestX", 9, path)
	require.True(t, strings.HasPrefix(tok, "v2:"), tok)
	assert.Less(t, len(tok), 40, "5002 choices in a short token: %s", tok)
	d, err := decodeToken(tok)
	require.NoError(t, err)
	assert.Equal(t, int64(9), d.seed)
	require.Len(t, d.choices, len(path))
	for i, c := range path {
		require.Equal(t, c.c, d.choices[i], "choice %d", i)
	}
	assert.Equal(t, pathCheck("p.TestX", path), d.check)

	short := encodeToken("p.TestX", 9, path[:2])
	require.True(t, strings.HasPrefix(short, "v1:"), short)
	d, err = decodeToken(short)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, d.choices)
}

// FuzzFormat compares the fmt model with the real fmt on basic operands:
// formatting never panics and prints what fmt prints (argument indexes
// "[n]" are only partly supported and not compared).
func FuzzFormat(f *testing.F) {
	for _, s := range []string{"%d", "%5.2f|%-8s|%x", "%v %q %T", "%%", "%!", "%", "%*d", "%.*f", "%+v %#v", "%[2]d %[1]d",
		"%08.3e", "%-010d", "%c%U", "%s %s %s %s", "%b %o %O", "% x", "%6.3v", "%t"} {
		f.Add(s, int64(-42), "str", 3.25)
	}
	// Basic operands need no loaded packages.
	p := &Program{Fset: token.NewFileSet(), SSA: ssa.NewProgram(token.NewFileSet(), 0), interpreted: map[*types.Package]bool{}}
	f.Fuzz(func(t *testing.T, format string, i int64, s string, x float64) {
		m := newMachine(p, &Options{})
		x0 := &execution{m: m, opts: &Options{}}
		m.x = x0
		g := &goroutine{x: x0}
		args := []Value{
			ifaceV(m.intType, intV(i)),
			ifaceV(m.stringType, strV(s)),
			ifaceV(m.rtypeOf(types.Typ[types.Float64]), floatV(x)),
		}
		got, cc := x0.sprintf(g, format, args)
		require.Equal(t, ctrlNext, cc)
		if strings.Contains(format, "[") {
			return
		}
		require.Equal(t, fmt.Sprintf(format, int(i), s, x), got, "format %q", format)
	})
}
