package ltltest_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltltest"
)

// symT is a fakeT with a name and a log, as *testing.T has.
type symT struct {
	fakeT
	name string
	logs []string
}

func (s *symT) Name() string { return s.name }
func (s *symT) Logf(format string, args ...any) {
	s.logs = append(s.logs, fmt.Sprintf(format, args...))
}

type celsius int8

func TestSymbolicNativeIsDeterministic(t *testing.T) {
	t.Setenv(ltltest.SeedEnv, "")
	t.Setenv(ltltest.InputsEnv, "")
	a := &symT{name: "TestA"}
	n1 := ltltest.Symbolic[int](a, "n")
	n2 := ltltest.Symbolic[int](a, "n")
	assert.Equal(t, n1, n2, "one name is one input")
	assert.Equal(t, n1, ltltest.Symbolic[int](&symT{name: "TestA"}, "n"), "same test, same value")
	require.Len(t, a.logs, 2)
	assert.Contains(t, a.logs[0], fmt.Sprintf("ltltest.Symbolic: n = %d (LTLTEST_SEED=0)", n1))
	assert.False(t, a.failed)

	// Other tests, names and seeds draw other values (over many names,
	// not all equal).
	distinct := map[int]bool{}
	for i := range 20 {
		distinct[ltltest.Symbolic[int](&symT{name: fmt.Sprintf("T%d", i)}, "n")] = true
	}
	assert.Greater(t, len(distinct), 10)
	t.Setenv(ltltest.SeedEnv, "7")
	seeded := map[int]bool{}
	for i := range 20 {
		seeded[ltltest.Symbolic[int](&symT{name: fmt.Sprintf("T%d", i)}, "n")] = true
	}
	assert.NotEqual(t, distinct, seeded)
}

func TestSymbolicNativeDrawsBoundaries(t *testing.T) {
	t.Setenv(ltltest.InputsEnv, "")
	seen8 := map[int8]bool{}
	seenU := map[uint16]bool{}
	seenB := map[bool]bool{}
	for i := range 400 {
		st := &symT{name: "TestBoundaries"}
		seen8[ltltest.Symbolic[int8](st, fmt.Sprint("x", i))] = true
		seenU[ltltest.Symbolic[uint16](st, fmt.Sprint("u", i))] = true
		seenB[ltltest.Symbolic[bool](st, fmt.Sprint("b", i))] = true
		_ = ltltest.Symbolic[celsius](st, fmt.Sprint("c", i))
	}
	for _, v := range []int8{0, 1, -1, math.MinInt8, math.MaxInt8} {
		assert.True(t, seen8[v], "int8 boundary %d drawn", v)
	}
	for _, v := range []uint16{0, 1, math.MaxUint16} {
		assert.True(t, seenU[v], "uint16 boundary %d drawn", v)
	}
	assert.Len(t, seenB, 2)
	assert.Greater(t, len(seen8), 100, "uniform values too")
}

func TestSymbolicNativeInputsFromEnv(t *testing.T) {
	t.Setenv(ltltest.InputsEnv, `{"n": -41, "ok": true, "u": 18446744073709551615, "c": -3}`)
	st := &symT{name: "TestInputs"}
	assert.Equal(t, -41, ltltest.Symbolic[int](st, "n"))
	assert.True(t, ltltest.Symbolic[bool](st, "ok"))
	assert.Equal(t, uint64(math.MaxUint64), ltltest.Symbolic[uint64](st, "u"))
	assert.Equal(t, celsius(-3), ltltest.Symbolic[celsius](st, "c"))
	assert.False(t, st.failed, st.output())
	assert.Contains(t, st.logs[0], "n = -41 (from LTLTEST_INPUTS)")

	// Names the variable does not give are drawn as usual.
	_ = ltltest.Symbolic[int](st, "other")
	assert.False(t, st.failed)

	for _, tc := range []struct{ env, want string }{
		{`{"n": 300}`, `ltltest.Symbolic("n"): LTLTEST_INPUTS: 300 is not a int8`},
		{`{"n": true}`, `true is not a int8`},
		{`[1]`, `LTLTEST_INPUTS: not a JSON object`},
	} {
		t.Setenv(ltltest.InputsEnv, tc.env)
		st := &symT{name: "TestBad"}
		ltltest.Symbolic[int8](st, "n")
		assert.True(t, st.failed && st.stopped, tc.env)
		assert.Contains(t, st.output(), tc.want)
	}
}
