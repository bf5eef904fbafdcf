package ltltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/split"
	"github.com/henceforth-go/henceforth/split/smv"
)

// semaphore is MUX-SEM (Fig 4.1 of the JTLV thesis) for n processes:
// mutual exclusion holds (after refinement exposes who holds x),
// starvation freedom of P[1] does not under unconditional fairness.
func semaphore(t *testing.T, n int) *split.Program {
	t.Helper()
	p, err := smv.ParseFile("../split/smv/testdata/muxsem.smv", n)
	require.NoError(t, err)
	return p
}

// bad is an invariant the semaphore violates: nobody enters.
const bad = "INVARSPEC forall i in 1..N : P[i].loc != 2"

func TestSplitProvesByName(t *testing.T) {
	for _, workers := range []int{1, 2} {
		ft := &fakeT{}
		ok := ltltest.Split(ft, semaphore(t, 6), "mutex", ltltest.WithSplitOptions(split.Options{Workers: workers}))
		assert.True(t, ok, "workers %d: %s", workers, ft.output())
		assert.False(t, ft.failed, ft.output())
	}
}

func TestSplitAcceptsPropertyValuesAndText(t *testing.T) {
	p := semaphore(t, 4)
	ft := &fakeT{}
	assert.True(t, ltltest.Split(ft, p, "INVARSPEC !(P[1].crit & P[2].crit)"), ft.output())

	// A program built with the Go API and a property value.
	g := split.NewProgram("two flags")
	a, b := g.Bool("a"), g.Bool("b")
	g.Init(split.And(split.Not(split.Ref(a)), split.Not(split.Ref(b))))
	pr := g.Process("P")
	pr.Command("raise", split.Not(split.Ref(b)), split.Set(a, split.True()))
	q := g.Process("Q")
	q.Command("raise", split.Not(split.Ref(a)), split.Set(b, split.True()))
	prop := split.NewInvariant("never both", split.Not(split.And(split.Ref(a), split.Ref(b))))
	assert.True(t, ltltest.Split(ft, g, prop), ft.output())
	assert.False(t, ft.failed, ft.output())
}

// A violated invariant fails with the interleaving that reaches the bad
// state; SplitViolated returns it instead.
func TestSplitReportsSafetyCounterexample(t *testing.T) {
	p := semaphore(t, 3)
	ft := &fakeT{}
	ok := ltltest.Split(ft, p, bad, "semaphore with %d users", 3)
	require.False(t, ok)
	assert.False(t, ft.stopped)
	out := ft.output()
	assert.Contains(t, out, "ltltest: split: property violated")
	assert.Contains(t, out, "property: invariant P[1].loc != 2 & ")
	assert.Contains(t, out, "verdict:  violated")
	assert.Contains(t, out, "moves to a state that violates the property")
	assert.Contains(t, out, "state 0: x=TRUE P[1].loc=0 P[2].loc=0 P[3].loc=0")
	assert.Regexp(t, `state 1: P\[\d\] noncritical: P\[\d\]\.loc=1`, out)
	assert.Regexp(t, `state 2: P\[\d\] request: x=FALSE P\[\d\]\.loc=2`, out)
	assert.Contains(t, out, "message: semaphore with 3 users")

	ft = &fakeT{}
	cex := ltltest.SplitViolated(ft, p, bad)
	require.NotNil(t, cex, ft.output())
	assert.False(t, ft.failed, ft.output())
	assert.Equal(t, -1, cex.Loop)
	assert.Len(t, cex.Steps, 2)
	require.NoError(t, p.Replay(cex))
}

// A liveness counterexample is a lasso: the report says where it loops.
func TestSplitReportsLivenessLasso(t *testing.T) {
	p := semaphore(t, 3)
	ft := &fakeT{}
	require.False(t, ltltest.Split(ft, p, "starvation"))
	out := ft.output()
	assert.Contains(t, out, "ltltest: split: property violated")
	assert.Contains(t, out, "property: LTL starvation:")
	assert.Regexp(t, `counterexample: a lasso of \d+ moves, looping back to state \d+ forever`, out)
	assert.Contains(t, out, "[loop starts]")
	assert.Regexp(t, `\[= state \d+\]`, out)

	ft = &fakeT{}
	cex := ltltest.SplitViolated(ft, p, "starvation")
	require.NotNil(t, cex, ft.output())
	assert.GreaterOrEqual(t, cex.Loop, 0)
	require.NoError(t, p.Replay(cex))
	// P[1] requests and then never enters while the loop repeats.
	loc, ok := cex.Value(len(cex.States)-1, "P[1].loc")
	require.True(t, ok)
	assert.Equal(t, 1, loc)
}

func TestSplitViolatedFailsOnProof(t *testing.T) {
	ft := &fakeT{}
	assert.Nil(t, ltltest.SplitViolated(ft, semaphore(t, 3), "mutex"))
	assert.Contains(t, ft.output(), "ltltest: split: property proved, but a violation was expected")
	assert.Contains(t, ft.output(), "verdict:  proved")
	assert.Contains(t, ft.output(), "refined:  2 predicates exposed:")
}

// No verdict is a failure that says unknown and why, for Split and for
// SplitViolated alike.
func TestSplitUnknownIsAFailure(t *testing.T) {
	p := semaphore(t, 4)
	noRefinement := ltltest.WithSplitOptions(split.Options{MaxRefinements: -1})
	for name, check := range map[string]func(ft *fakeT) bool{
		"Split":         func(ft *fakeT) bool { return ltltest.Split(ft, p, "mutex", noRefinement) },
		"SplitViolated": func(ft *fakeT) bool { return ltltest.SplitViolated(ft, p, "mutex", noRefinement) != nil },
	} {
		ft := &fakeT{}
		assert.False(t, check(ft), name)
		assert.True(t, ft.failed, name)
		assert.Contains(t, ft.output(), "ltltest: split: unknown: no verdict, which is not a pass", name)
		assert.Contains(t, ft.output(), "why:      refinement limit (0) reached", name)
	}

	// Past operators are unsupported over infinite computations: unknown.
	ft := &fakeT{}
	loc := p.Lookup("P[1].loc")
	past := split.NewLTL("past", ltl.MustParse("G(crit -> O req)"),
		map[string]split.Expr{"crit": split.Is(loc, 2), "req": split.Is(loc, 1)})
	assert.False(t, ltltest.Split(ft, p, past))
	assert.Contains(t, ft.output(), "ltltest: split: unknown")
	assert.Contains(t, ft.output(), "unsupported")
}

func TestSplitBadPropertyIsPositioned(t *testing.T) {
	ft := &fakeT{}
	assert.False(t, ltltest.Split(ft, semaphore(t, 2), "INVARSPEC P[1].lock = 2"))
	out := ft.output()
	assert.Contains(t, out, "ltltest: split: bad property")
	assert.Regexp(t, `error: +1:\d+: type error: .*lock`, out)

	ft = &fakeT{}
	assert.False(t, ltltest.Split(ft, nil, "mutex"))
	assert.Contains(t, ft.output(), "ltltest: split: nil program")

	ft = &fakeT{}
	assert.False(t, ltltest.Split(ft, semaphore(t, 2), (*split.Property)(nil)))
	assert.Contains(t, ft.output(), "nil property")

	// A Go-API program with a building error cannot be checked.
	g := split.NewProgram("broken")
	g.Int("x", 3, 1)
	g.Process("P")
	ft = &fakeT{}
	assert.False(t, ltltest.Split(ft, g, split.NewInvariant("x", split.True())))
	assert.Contains(t, ft.output(), "ltltest: split: cannot check")
}

func TestRequireSplitStops(t *testing.T) {
	p := semaphore(t, 2)
	ft := &fakeT{}
	ltltest.RequireSplit(ft, p, bad)
	assert.True(t, ft.failed)
	assert.True(t, ft.stopped)

	ft = &fakeT{}
	ltltest.RequireSplit(ft, p, "mutex")
	assert.False(t, ft.stopped, ft.output())

	ft = &fakeT{}
	assert.Nil(t, ltltest.RequireSplitViolated(ft, p, "mutex"))
	assert.True(t, ft.stopped)

	ft = &fakeT{}
	assert.NotNil(t, ltltest.RequireSplitViolated(ft, p, bad))
	assert.False(t, ft.stopped, ft.output())
}
