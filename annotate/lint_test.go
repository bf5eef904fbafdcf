package annotate

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
)

const lintSrc = `package p

//ltl:prop getSingleton call getSingleton
//ltl:prop lock call Lock
//ltl:prop unlock call Unlock
//ltl:prop hot temp > 100
//ltl:prop unused temp < 0
//ltl:spec singleton [](getSingleton -> [] !getSingleton)
//ltl:spec singletonOnce G(getSingleton -> N G !getSingleton)
//ltl:spec unsat F(hot) && G(!hot)
//ltl:spec valid G(hot || !hot)
//ltl:spec together F(lock && unlock)
//ltl:spec vacuous G(lock && unlock -> F hot)
//ltl:spec nested G(hot -> !hot) && F lock
//ltl:spec never G(false -> hot) && F lock
//ltl:spec lockPairs G(lock -> F unlock)
//ltl:spec apart G(!(lock && unlock))
var temp int

func getSingleton() {}
func Lock()         {}
func Unlock()       {}

func f() {
	//ltl:event unusedEvent
	Lock()
}
`

// lintWant is what Lint reports on lintSrc, with any Checker that decides
// these small formulas correctly.
var lintWant = []string{
	"a.go:7:1: ltl:prop unused: not used by any spec",
	"a.go:8:1: ltl:spec singleton: G(getSingleton -> G !getSingleton) is equivalent to G !getSingleton: G !getSingleton cannot hold at a step where getSingleton holds; to constrain the steps after getSingleton, write G(getSingleton -> N G !getSingleton) (N: from the next step on, if any; X instead requires a next step)",
	"a.go:10:1: ltl:spec unsat: unsatisfiable: no trace satisfies it, so every run violates it",
	"a.go:11:1: ltl:spec valid: valid: it holds on every trace, so it checks nothing",
	"a.go:12:1: ltl:spec together: unsatisfiable: it needs two events at one step, but events happen one at a time",
	"a.go:13:1: ltl:spec vacuous: vacuous: the antecedent lock && unlock of G(lock && unlock -> F hot) needs two events at one step, but events happen one at a time, so it checks nothing",
	"a.go:14:1: ltl:spec nested: G(hot -> !hot) is equivalent to G !hot: !hot cannot hold at a step where hot holds; to constrain the steps after hot, write G(hot -> N !hot) (N: from the next step on, if any; X instead requires a next step)",
	"a.go:15:1: ltl:spec never: vacuous: the antecedent false of G(false -> hot) can never hold, so it checks nothing",
	"a.go:17:1: ltl:spec apart: valid: it holds on every trace where events happen one at a time, as they do, so it checks nothing",
	"a.go:25:2: ltl:event unusedEvent: not used by any spec",
}

func TestLint(t *testing.T) {
	pkg, errs := fromSource(t, map[string]string{"a.go": lintSrc})
	require.Empty(t, errs)
	got := pkg.Lint(context.Background(), automaton.Satisfiability{})
	assert.Equal(t, lintWant, messages(got))
	for _, e := range got {
		if e.Msg == "not used by any spec" {
			assert.Equal(t, KindUnused, e.Kind)
		} else {
			assert.Equal(t, KindMeaning, e.Kind)
		}
	}
}

// The findings do not depend on the automaton: a brute-force Checker over
// short traces, exact for these small formulas, reports the same.
func TestLintWithBruteForceChecker(t *testing.T) {
	pkg, errs := fromSource(t, map[string]string{"a.go": lintSrc})
	require.Empty(t, errs)
	assert.Equal(t, lintWant, messages(pkg.Lint(context.Background(), bruteForce{maxLen: 4})))
}

func TestLintWithoutChecker(t *testing.T) {
	pkg, errs := fromSource(t, map[string]string{"a.go": lintSrc})
	require.Empty(t, errs)
	assert.Equal(t, []string{
		"a.go:7:1: ltl:prop unused: not used by any spec",
		"a.go:25:2: ltl:event unusedEvent: not used by any spec",
	}, messages(pkg.Lint(context.Background(), nil)))
}

// A Checker that cannot decide makes Lint say so, once per spec, and never
// pass the spec silently.
func TestLintUnknown(t *testing.T) {
	pkg, errs := fromSource(t, map[string]string{"a.go": `package p

var x, y bool

//ltl:spec a G(x -> F y)
//ltl:spec b F x
`})
	require.Empty(t, errs)
	tooBig := errors.New("automaton too large")
	got := pkg.Lint(context.Background(), failing{tooBig})
	assert.Equal(t, []string{
		"a.go:5:1: ltl:spec a: meaning not checked: automaton too large",
		"a.go:6:1: ltl:spec b: meaning not checked: automaton too large",
	}, messages(got))
	assert.ErrorIs(t, got[0], tooBig)

	// A canceled context is an unknown answer too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got = pkg.Lint(ctx, automaton.Satisfiability{})
	require.Len(t, got, 2)
	assert.ErrorIs(t, got[0], context.Canceled)
}

// automaton.Satisfiability never calls satisfiable what has no satisfying trace, and never
// calls unsatisfiable what a short trace satisfies.
func TestSatisfiabilityAgreesWithEvaluator(t *testing.T) {
	seed := uint64(20240611)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	n := 300
	if testing.Short() {
		n = 60
	}
	bf := bruteForce{maxLen: 4}
	for i := range n {
		f := ltl.Random(rng, ltl.RandomConfig{Atoms: []string{"p", "q"}, MaxDepth: 4, Ops: ltl.OpsOf(ltl.PureFuture)})
		sat, err := automaton.Satisfiability{}.Satisfiable(context.Background(), f)
		require.NoError(t, err, "formula %d: %s", i, f)
		witness, _ := bf.Satisfiable(context.Background(), f)
		if witness {
			assert.True(t, sat, "formula %d: %s has a short satisfying trace", i, f)
		}
		if !sat {
			assert.False(t, witness, "formula %d: %s", i, f)
		}
	}
}

// bruteForce decides satisfiability by evaluating f on every trace of up to
// maxLen positions over its atoms: exact for formulas whose satisfying
// traces, if any, include one that short.
type bruteForce struct{ maxLen int }

func (b bruteForce) Satisfiable(ctx context.Context, f ltl.Formula) (bool, error) {
	atoms := f.Atoms()
	letters := 1 << len(atoms)
	for n := 0; n <= b.maxLen; n++ {
		idx := make([]int, n)
		for {
			tr := make(ltl.Sets, n)
			for i, l := range idx {
				for a, name := range atoms {
					if l&(1<<a) != 0 {
						tr[i] = append(tr[i], name)
					}
				}
			}
			if ltl.Eval(f, tr, ltl.LTLf) {
				return true, nil
			}
			k := 0
			for k < n && idx[k] == letters-1 {
				idx[k] = 0
				k++
			}
			if k == n {
				break
			}
			idx[k]++
		}
	}
	return false, ctx.Err()
}

type failing struct{ err error }

func (c failing) Satisfiable(context.Context, ltl.Formula) (bool, error) { return false, c.err }
