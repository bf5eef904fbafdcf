package explore

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newSession(t *testing.T, p *Program, entry string) *Session {
	t.Helper()
	e, err := p.Func(entry)
	require.NoError(t, err)
	// The programs never end: a low steps bound keeps short the
	// executions that record a step's replay token.
	s := p.NewSession(e, Options{MaxSteps: 300})
	t.Cleanup(s.Clear) // release the steps' suspended searches
	return s
}

// push pushes a step and logs the outcome.
func push(t *testing.T, s *Session, formula string, o StepOptions) *StepResult {
	t.Helper()
	r, err := s.Push(context.Background(), formula, o)
	require.NoError(t, err)
	logStep(t, formula, r)
	return r
}

func logStep(t *testing.T, what string, r *StepResult) {
	t.Helper()
	if r.Step != nil {
		t.Logf("%s", r.Step.Witness)
	}
	t.Logf("%s: %s (%d nodes, %d states, bound %q, chain %v)", what, r.Verdict, r.Nodes, r.States, r.Bound, r.InfiniteChain)
}

func backtrack(t *testing.T, s *Session) *StepResult {
	t.Helper()
	r, err := s.Backtrack(context.Background())
	require.NoError(t, err)
	logStep(t, "backtrack", r)
	return r
}

func eval(t *testing.T, s *Session, expr string) string {
	t.Helper()
	v, err := s.Eval(expr)
	require.NoError(t, err)
	return v
}

// atLabel is the last label of the goroutine started with fn in the
// session's current state.
func atLabel(t *testing.T, s *Session, fn string) string {
	t.Helper()
	cur := s.Current()
	require.NoError(t, cur.Err)
	for _, g := range cur.Goroutines {
		if matchGoroutineName(g.Name, fn) {
			return g.Label
		}
	}
	t.Fatalf("no goroutine %s in %+v", fn, cur)
	return ""
}

// TestSessionDekker is the paper's Dekker session (§6), D1–D9 as one
// temporal stack: each step starts where the previous one ended, D2 and
// D6 are popped, the stack is cleared before D4.
func TestSessionDekker(t *testing.T) {
	p := loadSpecs(t)
	s := newSession(t, p, dekkerRun)
	init := s.Current()
	require.NoError(t, init.Err)
	assert.Equal(t, 0, init.Depth)

	// D1: shortest step where P0 attempts to enter and P1 does not.
	d1 := push(t, s, "F(at(P0, m2) && at(P1, n1))", StepOptions{})
	require.Equal(t, Found, d1.Verdict)
	assert.ElementsMatch(t, []string{"P0:m1", "P0:m11", "P0:m2", "P1:n1"}, stepLabels(d1.Step.Witness))
	assert.Equal(t, "0", eval(t, s, "c0"))
	assert.Equal(t, "1", eval(t, s, "c1"))
	afterD1 := s.Current()

	// D2: P1 does not move; stepping through every end state.
	d2 := push(t, s, "G at(P1, n1)", StepOptions{Size: EveryEnd})
	require.Equal(t, Found, d2.Verdict)
	ends := 0
	seen := map[string]bool{}
	for r := d2; r.Verdict == Found; r = backtrack(t, s) {
		ends++
		key := fmt.Sprint(r.Step.choices)
		assert.False(t, seen[key], "alternative %d repeats an earlier one", r.Step.Alternative)
		seen[key] = true
		assert.Equal(t, "n1", atLabel(t, s, "P1"))
		require.Less(t, ends, 200, "the end states of a finite state space")
	}
	assert.Greater(t, ends, 1)
	assert.Equal(t, afterD1.Step, s.Current().Step, "the exhausted step D2 is popped")
	assert.Len(t, s.Steps(), 1)

	// D3: P0 reaches its critical section without P1 progressing.
	d3 := push(t, s, "G at(P1, n1) && F at(P0, m8)", StepOptions{})
	require.Equal(t, Found, d3.Verdict)
	assert.Equal(t, "m8", atLabel(t, s, "P0"))
	assert.Equal(t, "n1", atLabel(t, s, "P1"))

	// D4, on a cleaned stack: both processes want to enter.
	s.Clear()
	assert.Equal(t, init.Step, s.Current().Step)
	d4 := push(t, s, "F(at(P0, m2) && at(P1, n2))", StepOptions{})
	require.Equal(t, Found, d4.Verdict)
	assert.Equal(t, 6, d4.Step.Steps)
	assert.Equal(t, "true", eval(t, s, "c0 == 0 && c1 == 0 && turn == 0"))

	// D5: no sequence.
	d5 := push(t, s, "G at(P1, n2) && F at(P0, m8)", StepOptions{})
	assert.Equal(t, None, d5.Verdict)
	assert.Len(t, s.Steps(), 1, "nothing pushed")

	// D6: with P1 kept at n2, P0 moves only through m6 and m7, under a
	// maximal step (the m7/m6 spin is an accepting cycle: an infinite
	// chain) and under every-end-state steps.
	d6 := push(t, s, "G at(P1, n2)", StepOptions{Size: Maximal})
	require.Equal(t, Found, d6.Verdict)
	assert.True(t, d6.InfiniteChain)
	w6 := d6.Step.Witness
	assert.Subset(t, []string{"m2", "m6", "m7"}, w6.Labels(w6.Goroutine("P0")))
	assert.Subset(t, w6.Labels(w6.Goroutine("P0")), []string{"m6", "m7"})
	require.NoError(t, s.Pop())
	every := push(t, s, "G at(P1, n2)", StepOptions{Size: EveryEnd})
	p0 := map[string]bool{}
	for r := every; r.Verdict == Found; r = backtrack(t, s) {
		p0[atLabel(t, s, "P0")] = true
	}
	assert.Equal(t, map[string]bool{"m2": true, "m6": true, "m7": true}, p0)
	assert.Len(t, s.Steps(), 1)

	// D7: P1 relinquishes (n7, n6, n3), then P0 enters (m7, m8).
	d7 := push(t, s, "F at(P0, m8)", StepOptions{})
	require.Equal(t, Found, d7.Verdict)
	assert.Equal(t, []string{"P1:n7", "P1:n6", "P1:n3", "P0:m7", "P0:m8"}, stepLabels(d7.Step.Witness))
	require.NoError(t, s.Pop())

	// D8: P1 cannot enter first.
	d8 := push(t, s, "!at(P0, m8) U at(P1, n8)", StepOptions{})
	assert.Equal(t, None, d8.Verdict)

	// D9: P0 enters first.
	d9 := push(t, s, "!at(P1, n8) U at(P0, m8)", StepOptions{})
	require.Equal(t, Found, d9.Verdict)
	assert.Equal(t, "m8", atLabel(t, s, "P0"))
	for _, st := range d9.Step.States {
		assert.NotEqual(t, "n8", st.At[d9.Step.Goroutine("P1")])
	}
	assert.Len(t, s.Path(), 1+d4.Step.Steps+d9.Step.Steps)
}

const (
	sessionPath = testdataPath + "/session"
	sessCommute = sessionPath + ".Commute"
	sessLoop    = sessionPath + ".Loop"
)

// alternatives pushes formula and backtracks until the step is popped,
// returning every alternative; the last result must say None.
func alternatives(t *testing.T, s *Session, formula string, o StepOptions) []*TemporalStep {
	t.Helper()
	depth := len(s.Steps())
	var out []*TemporalStep
	r := push(t, s, formula, o)
	for ; r.Verdict == Found; r = backtrack(t, s) {
		out = append(out, r.Step)
		require.Less(t, len(out), 100)
	}
	require.Equal(t, None, r.Verdict)
	if len(out) > 0 {
		assert.True(t, r.Popped)
	}
	assert.Len(t, s.Steps(), depth)
	return out
}

// TestSessionOptions: each option on a program where it changes the
// outcome of a step.
func TestSessionOptions(t *testing.T) {
	p := loadSpecs(t)

	// Commute: both orders reach y = z = 1. The visited set merges the
	// two paths at their common end state; AllPaths reports both;
	// DistinctEnd refuses the second, DistinctSequences does not (their
	// sequences differ).
	s := newSession(t, p, sessCommute)
	both := `F "y == 1 && z == 1"`
	assert.Len(t, alternatives(t, s, both, StepOptions{}), 1)
	all := alternatives(t, s, both, StepOptions{AllPaths: true})
	require.Len(t, all, 2)
	assert.NotEqual(t, stepLabels(all[0].Witness), stepLabels(all[1].Witness))
	assert.Len(t, alternatives(t, s, both, StepOptions{AllPaths: true, DistinctEnd: true}), 1)
	assert.Len(t, alternatives(t, s, both, StepOptions{AllPaths: true, DistinctSequences: true}), 2)

	// Minimal and maximal: G z == 0 holds on the one-state step; the
	// maximal step runs SetY, whose yield loop is then a cycle of
	// accepting states: an infinite chain.
	short := push(t, s, `G "z == 0"`, StepOptions{})
	require.Equal(t, Found, short.Verdict)
	assert.Equal(t, 0, short.Step.Steps)
	require.NoError(t, s.Pop())
	long := push(t, s, `G "z == 0"`, StepOptions{Size: Maximal})
	require.Equal(t, Found, long.Verdict)
	assert.True(t, long.InfiniteChain)
	assert.Equal(t, 1, long.Step.LoopFrom, "the state after sety repeats")
	assert.Equal(t, []string{"SetY:sety", "SetY:sety"}, stepLabels(long.Step.Witness))
	assert.Equal(t, "1", eval(t, s, "y"))
	assert.Equal(t, "0", eval(t, s, "z"))
	require.NoError(t, s.Pop())
	// Every end state: the initial state, then y set.
	every := alternatives(t, s, `G "z == 0"`, StepOptions{Size: EveryEnd})
	require.Len(t, every, 2)
	assert.Equal(t, 0, every[0].Steps)
	assert.Equal(t, 1, every[1].Steps)

	// Iterative deepening: the shortest step, as BFS, keeping only the
	// current path; and a complete "none" on the finite program.
	bfs := push(t, s, both, StepOptions{})
	require.NoError(t, s.Pop())
	id := push(t, s, both, StepOptions{Search: IterativeDeepening})
	require.Equal(t, Found, id.Verdict)
	assert.Equal(t, bfs.Step.Steps, id.Step.Steps)
	assert.Less(t, id.Stored, bfs.Stored, "only the current path")
	require.NoError(t, s.Pop())
	assert.Len(t, alternatives(t, s, `F "y == 2"`, StepOptions{Search: IterativeDeepening}), 0)
	// Depth-first minimal: a step whose proper prefixes do not accept.
	dfs := push(t, s, `F "z == 1"`, StepOptions{Search: DepthFirst})
	require.Equal(t, Found, dfs.Verdict)
	last := dfs.Step.States[len(dfs.Step.States)-1]
	assert.Equal(t, "setz", last.At[dfs.Step.Goroutine("SetZ")])
	for _, st := range dfs.Step.States[:len(dfs.Step.States)-1] {
		assert.NotEqual(t, "setz", st.At[dfs.Step.Goroutine("SetZ")])
	}
	s.Clear()

	// Loop: once A and B have each run, every move is a self-loop. Two
	// steps from there: the visited set gives one path, AllPaths four
	// (AA, AB, BA, BB), all the same state sequence: DistinctSequences
	// reports one of them.
	s = newSession(t, p, sessLoop)
	require.Equal(t, Found, push(t, s, "F(at(A, a) && at(B, b))", StepOptions{}).Verdict)
	assert.Len(t, alternatives(t, s, "X X true", StepOptions{}), 1)
	assert.Len(t, alternatives(t, s, "X X true", StepOptions{AllPaths: true}), 4)
	assert.Len(t, alternatives(t, s, "X X true", StepOptions{AllPaths: true, DistinctSequences: true}), 1)
	// G true on the self-loop: a maximal step meets the accepting cycle
	// and reports an infinite chain.
	chain := push(t, s, "G true", StepOptions{Size: Maximal})
	require.Equal(t, Found, chain.Verdict)
	assert.True(t, chain.InfiniteChain)
	assert.Equal(t, 0, chain.Step.LoopFrom)
	assert.Equal(t, 1, chain.Step.Steps)
	// A search cut by a bound ends unknown, never none.
	require.NoError(t, s.Pop())
	cut := push(t, s, "F false", StepOptions{AllPaths: true, MaxLength: 3})
	assert.Equal(t, None, cut.Verdict, "F false: the automaton is dead at once")
	cut = push(t, s, `F "x == 2"`, StepOptions{AllPaths: true})
	assert.Equal(t, None, cut.Verdict, "no simple path sets x to 2")
	cut = push(t, s, `F "x == 2"`, StepOptions{AllPaths: true, MaxNodes: 2})
	assert.Equal(t, Unknown, cut.Verdict)
	assert.Equal(t, "nodes", cut.Bound)
	cut = push(t, newSession(t, p, sessCommute), `F "y == 2"`, StepOptions{MaxLength: 1})
	assert.Equal(t, Unknown, cut.Verdict)
	assert.Equal(t, "length", cut.Bound)
}

// TestSessionStack: Pop, Clear and Backtrack on the stack, Single, the
// state views, replay tokens of the stack's states, Eval.
func TestSessionStack(t *testing.T) {
	p := loadSpecs(t)
	s := newSession(t, p, sessCommute)
	ctx := context.Background()
	_, err := s.Backtrack(ctx)
	assert.ErrorIs(t, err, ErrNoStep)
	assert.ErrorIs(t, s.Pop(), ErrNoStep)
	init := s.Current()
	require.NoError(t, init.Err)
	assert.Equal(t, 0, init.Step)
	assert.Len(t, s.Path(), 1)
	assert.Equal(t, map[int]string{1: "session.Commute", 2: "session.SetY", 3: "session.SetZ"}, s.Goroutines())

	// Single: one move of a goroutine by name or number.
	r, err := s.Single(ctx, "SetZ")
	require.NoError(t, err)
	require.Equal(t, Found, r.Verdict)
	assert.Equal(t, "single SetZ", r.Step.Formula)
	assert.Equal(t, []string{"SetZ:setz"}, stepLabels(r.Step.Witness))
	cur := s.Current()
	assert.Equal(t, 1, cur.Depth)
	var setz GoroutineState
	for _, g := range cur.Goroutines {
		if g.Name == "session.SetZ" {
			setz = g
		}
	}
	assert.Equal(t, "setz", setz.Label)
	assert.Contains(t, setz.LabelPos, "session.go:")
	assert.True(t, setz.CanMove)
	r, err = s.Single(ctx, "2")
	require.NoError(t, err)
	require.Equal(t, Found, r.Verdict)
	assert.Equal(t, "1", eval(t, s, "y"))
	assert.Len(t, s.Path(), 3)
	// Backtrack on a single step: goroutine 2 has one move only.
	r = backtrack(t, s)
	assert.Equal(t, None, r.Verdict)
	assert.True(t, r.Popped)
	assert.Equal(t, "0", eval(t, s, "y"))
	_, err = s.Single(ctx, "Nobody")
	assert.ErrorContains(t, err, `no goroutine "Nobody" (goroutines: 1 session.Commute, 2 session.SetY, 3 session.SetZ)`)
	// The entry is blocked in select{}: it cannot move.
	r, err = s.Single(ctx, "1")
	require.NoError(t, err)
	assert.Equal(t, None, r.Verdict)

	// A request stopped by its context leaves the step and its search:
	// the next Backtrack continues where it stopped.
	s.Clear()
	first := push(t, s, `F "y == 1 && z == 1"`, StepOptions{AllPaths: true})
	require.Equal(t, Found, first.Verdict)
	done, cancel := context.WithCancel(ctx)
	cancel()
	r, err = s.Backtrack(done)
	require.NoError(t, err)
	assert.Equal(t, Unknown, r.Verdict)
	assert.Equal(t, "time", r.Bound)
	assert.False(t, r.Popped)
	require.Len(t, s.Steps(), 1)
	second := backtrack(t, s)
	require.Equal(t, Found, second.Verdict)
	assert.Equal(t, 2, second.Step.Alternative)
	assert.NotEqual(t, stepLabels(first.Step.Witness), stepLabels(second.Step.Witness))
	s.Clear()

	// Replay tokens: each state of the stack replays to itself.
	r, err = s.Single(ctx, "SetZ")
	require.NoError(t, err)
	require.Equal(t, Found, r.Verdict)
	require.Equal(t, Found, push(t, s, `F "y == 1"`, StepOptions{}).Verdict)
	e, err := p.Func(sessCommute)
	require.NoError(t, err)
	for i, st := range s.Steps() {
		end := st.States[len(st.States)-1]
		back, err := p.Find(ctx, e, "true", FindOptions{Replay: st.Replay, ReplayStart: end.Step})
		require.NoError(t, err)
		require.NotNil(t, back.Witness, "step %d", i)
		assert.Equal(t, end.At, back.Witness.States[0].At, "step %d", i)
	}
	assert.Equal(t, s.Steps()[1].Replay, s.Replay())

	// Pop returns to the previous state; Clear to the initial one.
	require.NoError(t, s.Pop())
	assert.Equal(t, "0", eval(t, s, "y"))
	assert.Equal(t, "1", eval(t, s, "z"))
	s.Clear()
	assert.Empty(t, s.Steps())
	assert.Equal(t, init.Step, s.Current().Step)
	assert.Equal(t, "0", eval(t, s, "z"))
	// The initial state's token (no step on the stack) replays too.
	tok := s.Replay()
	require.NotEmpty(t, tok)
	back, err := p.Find(ctx, e, "true", FindOptions{Replay: tok})
	require.NoError(t, err)
	require.NotNil(t, back.Witness)
	assert.Equal(t, tok, back.Witness.Replay)
	assert.Equal(t, s.Path()[0].At, back.Witness.States[0].At)

	// Eval: any basic type; errors name the problem.
	assert.Equal(t, "true", eval(t, s, "y == 0 && z == 0"))
	assert.Equal(t, "1", eval(t, s, "y + 1"))
	_, err = s.Eval("nosuch")
	assert.ErrorContains(t, err, "undefined: nosuch")
	_, err = s.Eval("y +")
	assert.ErrorContains(t, err, `eval "y +"`)

	// Bad formulas and options are errors; nothing is pushed.
	_, err = s.Push(ctx, "F (", StepOptions{})
	assert.ErrorIs(t, err, ErrFormula)
	_, err = s.Push(ctx, "F true", StepOptions{Search: BFS, Size: Maximal})
	assert.ErrorContains(t, err, "maximal step needs the depth-first search")
	_, err = s.Push(ctx, "F true", StepOptions{Size: "huge"})
	assert.ErrorContains(t, err, `unknown step size "huge"`)
	assert.Empty(t, s.Steps())
}

// FuzzSessionEval: an expression to watch never panics when prepared.
func FuzzSessionEval(f *testing.F) {
	for _, s := range []string{"y", "y + 1", "y == 0 && z == 1", "y +", `"s"`, "len(nosuch)", "x.f[1]"} {
		f.Add(s)
	}
	p := loadSpecs(f)
	e, err := p.Func(sessCommute)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, expr string) {
		pr, err := p.exprValue(e.Fn.Pkg.Pkg, expr)
		if err == nil && pr == nil {
			t.Fatal("nil expression without error")
		}
	})
}
