package gen_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
	"github.com/henceforth-go/henceforth/monitor/internal/gen"
)

type parsed struct {
	gen.Spec
	f     ltl.Formula
	sem   ltl.Semantics
	atoms []string
}

func specs(t *testing.T) []parsed {
	var out []parsed
	for _, s := range gen.Specs() {
		f, err := ltl.Parse(s.Formula)
		require.NoError(t, err, s.File)
		sem, ok := ltl.ParseSemantics(s.Semantics)
		require.True(t, ok, s.File)
		require.True(t, (s.NewPast == nil) != (s.Eval == nil), "%s: exactly one of NewPast and Eval", s.File)
		out = append(out, parsed{Spec: s, f: f, sem: sem, atoms: f.Atoms()})
	}
	return out
}

// sets converts letters (bit i = atoms[i]) to a trace for the reference
// evaluator.
func sets(trace []monitor.Letter, atoms []string) ltl.Sets {
	out := make(ltl.Sets, len(trace))
	for i, l := range trace {
		out[i] = []string{}
		for k, a := range atoms {
			if l.Has(k) {
				out[i] = append(out[i], a)
			}
		}
	}
	return out
}

// randomTrace draws letters over n atoms; atoms keep their value with
// probability 3/4 from one position to the next, so that start, end and
// intervals see both stable stretches and changes.
func randomTrace(rng *rand.Rand, n, maxLen int) []monitor.Letter {
	tr := make([]monitor.Letter, rng.IntN(maxLen+1))
	var l monitor.Letter
	for i := range tr {
		for k := 0; k < n; k++ {
			if rng.IntN(4) == 0 {
				l ^= 1 << k
			}
		}
		tr[i] = l
	}
	return tr
}

// TestPastAgainstInterpreted steps every generated past-time monitor and
// monitor.Past side by side on random traces, reusing the generated monitor
// across traces with Reset, and checks both against the reference
// evaluator.
func TestPastAgainstInterpreted(t *testing.T) {
	seed := uint64(201) // fixed: the test is deterministic
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, s := range specs(t) {
		if s.NewPast == nil {
			continue
		}
		body := s.f
		if s.f.IsPastSafety() {
			body = s.f.Left()
		}
		interp, err := monitor.NewPast(s.sem, body)
		require.NoError(t, err, s.File)
		require.Equal(t, s.atoms, interp.Atoms(), s.File)
		m := s.NewPast()
		for k := 0; k < 300; k++ {
			tr := randomTrace(rng, len(s.atoms), 30)
			m.Reset()
			interp.Reset()
			ref := ltl.EvalAll(body, sets(tr, s.atoms), s.sem)
			for i, l := range tr {
				got := m.StepLetter(uint64(l))
				require.Equal(t, interp.Step(l)&1 != 0, got, "%s (%s) on %v at %d", s.Name, s.Formula, tr, i)
				require.Equal(t, ref[i], got, "%s (%s) on %v at %d: reference", s.Name, s.Formula, tr, i)
			}
		}
	}
}

// TestFutureAgainstInterpreted runs every generated future-time monitor,
// monitor.Future and the reference evaluator on random traces, the empty
// trace included.
func TestFutureAgainstInterpreted(t *testing.T) {
	seed := uint64(202) // fixed: the test is deterministic
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	for _, s := range specs(t) {
		if s.Eval == nil {
			continue
		}
		interp, err := monitor.NewFuture(s.f, s.sem)
		require.NoError(t, err, s.File)
		require.Equal(t, s.atoms, interp.Atoms(), s.File)
		holds := 0
		for k := 0; k < 500; k++ {
			tr := randomTrace(rng, len(s.atoms), 12)
			raw := make([]uint64, len(tr))
			for i, l := range tr {
				raw[i] = uint64(l)
			}
			got := s.Eval(raw)
			require.Equal(t, interp.Eval(tr), got, "%s (%s) on %v", s.Name, s.Formula, tr)
			require.Equal(t, ltl.Eval(s.f, sets(tr, s.atoms), s.sem), got, "%s (%s) on %v: reference", s.Name, s.Formula, tr)
			if got {
				holds++
			}
		}
		// The traces exercise both verdicts.
		assert.Greater(t, holds, 0, s.Name)
		assert.Less(t, holds, 500, s.Name)
	}
}

// TestPaperVectors: the generated monitor of the past-time paper's example
// gives the per-prefix verdicts of ltl/testdata/paper-past.jsonl (computed
// from the paper's semantics; the formula has no Y, so both semantics agree).
func TestPaperVectors(t *testing.T) {
	vectors := []struct{ states, want string }{
		{"{} {q} {p}", "T T T"},
		{"{q} {r} {} {p}", "T T T F"},
		{"{p}", "T"},
		{"{p} {} {p}", "T T F"},
		{"{q,r} {p,r}", "T T"},
		{"{q} {s} {p}", "T T F"},
		{"{q} {s} {p,s}", "T T T"},
		{"{p} {p} {p}", "T T T"},
		{"{} {p,q}", "T T"},
		{"{} {p}", "T F"},
		{"{q} {} {p} {} {p}", "T T T T T"},
		{"{r} {p,q}", "T F"},
	}
	bit := map[string]uint64{"p": 1, "q": 2, "r": 4, "s": 8}
	for _, m := range []gen.PastMonitor{new(gen.Paper), new(gen.PaperRosuHavelund)} {
		for _, v := range vectors {
			m.Reset()
			var got []string
			for _, st := range strings.Fields(v.states) {
				var l uint64
				for _, a := range strings.Split(strings.Trim(st, "{}"), ",") {
					l |= bit[a]
				}
				if m.StepLetter(l) {
					got = append(got, "T")
				} else {
					got = append(got, "F")
				}
			}
			assert.Equal(t, v.want, strings.Join(got, " "), "%T on %s", m, v.states)
		}
	}
	// Step and StepLetter agree on the atoms' order p, q, r, s.
	var a, b gen.Paper
	for l := uint64(0); l < 16; l++ {
		assert.Equal(t, a.StepLetter(l), b.Step(l&1 != 0, l&2 != 0, l&4 != 0, l&8 != 0))
	}
}

// TestLockPairs: under LTLf nothing precedes the first position, so an
// unlock there is a violation.
func TestLockPairs(t *testing.T) {
	const lock, unlock = 1, 2 // atoms sorted: lock, unlock
	for _, v := range []struct {
		trace []uint64
		want  []bool
	}{
		{[]uint64{unlock}, []bool{false}},
		{[]uint64{lock | unlock}, []bool{false}},
		{[]uint64{lock, unlock}, []bool{true, true}},
		{[]uint64{lock, 0, 0, unlock}, []bool{true, true, true, true}},
		{[]uint64{lock, unlock, unlock}, []bool{true, true, false}},
		{[]uint64{lock, unlock, lock | unlock}, []bool{true, true, false}},
		{[]uint64{lock, unlock, lock, unlock}, []bool{true, true, true, true}},
	} {
		var m gen.LockPairs
		got := make([]bool, len(v.trace))
		for i, l := range v.trace {
			got[i] = m.StepLetter(l)
		}
		assert.Equal(t, v.want, got, "%v", v.trace)
	}
}
