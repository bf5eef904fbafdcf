package monitor

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// firstFalse is the first position where φ is false by the reference
// evaluator, or -1.
func firstFalse(phi ltl.Formula, s ltl.Sets, sem ltl.Semantics) int {
	for i, v := range ltl.EvalAll(phi, s, sem) {
		if !v {
			return i
		}
	}
	return -1
}

// TestCheckMatchesReference: Check with every engine gives the reference
// verdict; for G(past) formulas it reports the first violating position, and
// a failed verdict comes with an explanation that starts with the formula
// failing at 0.
func TestCheckMatchesReference(t *testing.T) {
	for _, sem := range semantics {
		t.Run(sem.String(), func(t *testing.T) {
			const seed = 4242
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, uint64(sem)))
			past := ltl.RandomConfig{MaxDepth: 4, Ops: ltl.OpsOf(ltl.PurePast)}
			for k := range randomCases() / 2 {
				f := ltl.Random(rng, ltl.RandomConfig{MaxDepth: 5})
				if k%2 == 0 {
					f = ltl.Always(ltl.Random(rng, past))
				}
				s := ltl.RandomTrace(rng, []string{"p", "q", "r"}, 8)
				tr := traceOf(s)
				ctx := fmt.Sprintf("seed %d case %d: %s on %s", seed, k, f, showSets(s))
				want := ltl.Eval(f, s, sem)
				wantViolation := -1
				if f.IsPastSafety() && !want {
					wantViolation = firstFalse(f.Left(), s, sem)
				}
				for _, engine := range []Engine{EngineAuto, EngineDP, EngineNaive} {
					res, err := Check(f, tr, Options{Engine: engine, Semantics: sem})
					require.NoError(t, err, ctx)
					require.Equal(t, want, res.Holds, "%s: %s", engine, ctx)
					require.Equal(t, wantViolation, res.Violation, "%s: %s", engine, ctx)
					if engine == EngineNaive {
						require.Equal(t, EngineNaive, res.Engine)
					} else {
						require.Equal(t, EngineDP, res.Engine)
					}
					if want {
						require.Nil(t, res.Why, ctx)
						continue
					}
					require.NotEmpty(t, res.Why, ctx)
					require.Equal(t, f, res.Why[0].Formula, ctx)
					require.Equal(t, 0, res.Why[0].Position, ctx)
					require.False(t, res.Why[0].Holds, ctx)
				}
			}
		})
	}
}

// TestCheckFirstViolation: the past-time engine reports the first position
// where G(φ) fails, position 0 included (the paper's code never checks the
// first state, pitfall 10 of dp_ltl.md).
func TestCheckFirstViolation(t *testing.T) {
	cases := []struct {
		formula, trace string
		violation      int
	}{
		{"G(start(p) -> [q, end(r | s)))", "{q} {r} {} {p} {p} {} {p}", 3},
		{"G(start(p) -> [q, end(r | s)))", "{q} {r} {} {q} {p}", -1},
		{"G(start(p) -> [q, end(r | s)))", "{q} {r} {q} {p}", 3}, // end(r | s) at 2 closes the interval q opened there
		{"G p", "{} {p}", 0},
		{"G H p", "{p} {p} {} {p}", 2},
		{"G(Y p)", "{p} {p}", 0}, // LTLf: Y is false at the first position
		{"G true", "", -1},
	}
	for _, c := range cases {
		f := ltl.MustParse(c.formula)
		require.True(t, f.IsPastSafety(), c.formula)
		res, err := Check(f, traceOf(parseStates(c.trace)), Options{})
		require.NoError(t, err)
		assert.Equal(t, c.violation, res.Violation, "%s on %s", c.formula, c.trace)
		assert.Equal(t, c.violation < 0, res.Holds, "%s on %s", c.formula, c.trace)
		assert.Equal(t, EngineDP, res.Engine)
	}
}

// parseEvents reads the future-time paper's traces: one atom per event
// ("p q x"), "eps" for the empty trace.
func parseEvents(s string) ltl.Sets {
	out := ltl.Sets{}
	if s == "eps" {
		return out
	}
	for _, e := range strings.Fields(s) {
		out = append(out, []string{e})
	}
	return out
}

// TestCheckFutureTimePaperVectors: the verdicts of dp_ltl.md §3.1 under the
// future-time paper's semantics (RosuHavelund: F and U may be satisfied by
// the empty suffix, X is false only on it). Events are single atoms; x
// matches no atom of the formula. The paper's example formula holds on
// every trace because F(q -> X r) holds at the empty suffix.
func TestCheckFutureTimePaperVectors(t *testing.T) {
	vectors := []struct {
		formula, trace string
		holds          bool
	}{
		{"G((p U q) -> F(q -> X r))", "eps", true},
		{"G((p U q) -> F(q -> X r))", "q", true},
		{"G((p U q) -> F(q -> X r))", "p q", true},
		{"G((p U q) -> F(q -> X r))", "p p q x", true},
		{"G(p -> F q)", "eps", true},
		{"G(p -> F q)", "p", false},
		{"G(p -> F q)", "p q", true},
		{"G(p -> F q)", "p q p", false},
		{"G(p -> F q)", "x p x q", true},
		{"F p", "eps", false},
		{"F p", "x", false},
		{"F p", "x p", true},
		{"F !p", "eps", true},
		{"F !p", "p p", true},
		{"G p", "eps", true},
		{"G p", "p p", true},
		{"G p", "p x", false},
		{"!F !p", "p p", false},
		{"X true", "eps", false},
		{"X true", "x", true},
		{"X p", "x", false},
		{"X !p", "p", true},
		{"X p", "x p", true},
		{"p U q", "eps", false},
		{"p U q", "p p q", true},
		{"p U q", "p p", false},
		{"p U q", "p x q", false},
		{"p U !q", "q", false},
		{"p U !q", "p q", true},
		{"!p", "eps", true},
		{"p", "eps", false},
		{"p U G false", "eps", true},
		{"p U G false", "p", true},
		{"p U G false", "p p", true},
		{"p U G false", "p x", false},
		{"p U G false", "x", false},
	}
	for _, v := range vectors {
		f := ltl.MustParse(v.formula)
		tr := traceOf(parseEvents(v.trace))
		for _, engine := range []Engine{EngineDP, EngineNaive} {
			res, err := Check(f, tr, Options{Engine: engine, Semantics: ltl.RosuHavelund})
			require.NoError(t, err)
			assert.Equal(t, v.holds, res.Holds, "%s on %s (%s)", v.formula, v.trace, engine)
		}
	}
	// The same exhaustively for the example: every trace of length 0…6
	// over the events p, q, r, x.
	f := ltl.MustParse("G((p U q) -> F(q -> X r))")
	m, err := NewFuture(f, ltl.RosuHavelund)
	require.NoError(t, err)
	assert.True(t, m.Eval(nil))
	forAllTraces(4, 6, func(tr []Letter) {
		events := make([]Letter, len(tr))
		for i, l := range tr {
			events[i] = 1 << l // p, q, r or (bit 3, not an atom of f) x
		}
		if !m.Eval(events) {
			require.Failf(t, "the paper's example must hold on every trace", "%v", tr)
		}
	})
}

// TestCheckLTLfCornerCases: the end-of-trace and empty-trace rules of
// docs/semantics.md under LTLf, and how RosuHavelund differs.
func TestCheckLTLfCornerCases(t *testing.T) {
	cases := []struct {
		formula, trace string
		ltlf, rh       bool
	}{
		// X at the last position: no next position. The operand's value on
		// the empty suffix must not leak in: X !p is false under LTLf.
		{"X true", "{}", false, true},
		{"X !p", "{p}", false, true},
		{"N false", "{}", true, false},
		{"N p", "{p}", true, false},
		{"X X true", "{} {}", false, true},
		{"G(p -> X q)", "{p}", false, false},
		{"G(p -> N q)", "{p}", true, false},
		// F/U/M strong, G/W/R weak at the end.
		{"F !p", "{p}", false, true},
		{"p U !p", "{p} {p}", false, true},
		{"p W q", "{p} {p}", true, true},
		{"q R p", "{p} {p}", true, true},
		{"q M p", "{p} {p}", false, false},
		{"q M p", "{p} {p,q}", true, true},
		{"G p", "{p} {p}", true, true},
		// The first position: Y false, Z true under LTLf; stationary past
		// under RosuHavelund.
		{"Y p", "{p}", false, true},
		{"Z !p", "{p}", true, false},
		{"start(p)", "{p}", false, false},
		// The empty trace: X F U M Y O S start end [)s false; N G W R Z H B
		// [)w true (RosuHavelund evaluates at the empty suffix, where no
		// atom holds).
		{"X p", "", false, false},
		{"F true", "", false, true},
		{"true U true", "", false, true},
		{"true M true", "", false, true},
		{"Y true", "", false, true},
		{"O true", "", false, true},
		{"true S true", "", false, true},
		{"start(!p)", "", false, false},
		{"end(p)", "", false, false},
		{"[true, false)s", "", false, true},
		{"N false", "", true, true},
		{"G false", "", true, true},
		{"false W false", "", true, true},
		{"false R false", "", true, true},
		{"Z false", "", true, false},
		{"H false", "", true, false},
		{"false B false", "", true, false},
		{"[false, true)w", "", true, false},
		{"!p", "", true, true},
		{"p", "", false, false},
	}
	for _, c := range cases {
		f := ltl.MustParse(c.formula)
		tr := traceOf(parseStates(c.trace))
		for sem, want := range map[ltl.Semantics]bool{ltl.LTLf: c.ltlf, ltl.RosuHavelund: c.rh} {
			// The reference agrees with the table, and so does every engine.
			require.Equal(t, want, ltl.Eval(f, tr, sem), "reference: %s on %q under %s", c.formula, c.trace, sem)
			for _, engine := range []Engine{EngineDP, EngineNaive} {
				res, err := Check(f, tr, Options{Engine: engine, Semantics: sem})
				require.NoError(t, err)
				assert.Equal(t, want, res.Holds, "%s on %q under %s (%s)", c.formula, c.trace, sem, engine)
			}
			m, err := NewFuture(f, sem)
			require.NoError(t, err)
			ls, err := tr.Letters(m.Atoms())
			require.NoError(t, err)
			assert.Equal(t, want, m.Eval(ls), "Future: %s on %q under %s", c.formula, c.trace, sem)
			assert.Len(t, m.EvalAll(ls), tr.Len())
		}
	}
}

// TestCheckConformance: the 3000 LTLf verdicts computed by an independent
// implementation of docs/semantics.md (testdata/future_ltlf-verdicts.jsonl:
// verdicts computed independently of this repository).
func TestCheckConformance(t *testing.T) {
	file, err := os.Open("testdata/future_ltlf-verdicts.jsonl")
	require.NoError(t, err)
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	lines := 0
	for sc.Scan() {
		lines++
		var v struct {
			Formula string     `json:"formula"`
			Trace   [][]string `json:"trace"`
			Holds   bool       `json:"holds"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), "line %d", lines)
		f, err := ltl.Parse(v.Formula)
		require.NoError(t, err, "line %d", lines)
		res, err := Check(f, traceOf(v.Trace), Options{Engine: EngineDP})
		require.NoError(t, err, "line %d", lines)
		assert.Equal(t, v.Holds, res.Holds, "line %d: %s on %v", lines, v.Formula, v.Trace)
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, 3000, lines)
}

// TestCheckErrors: invalid input is an error, not a panic or a verdict.
func TestCheckErrors(t *testing.T) {
	_, err := Check(ltl.Formula{}, nil, Options{})
	assert.EqualError(t, err, "monitor: check: invalid (zero) formula")

	_, err = Check(ltl.Atom("p"), nil, Options{Engine: Engine(9)})
	assert.EqualError(t, err, "monitor: check: unknown engine 9")

	f := ltl.Eventually(manyAtoms(65))
	_, err = Check(f, NewTrace(), Options{})
	assert.ErrorContains(t, err, "65 distinct atoms; a monitor watches at most 64")
	_, err = NewFuture(f, ltl.LTLf)
	assert.EqualError(t, err, "monitor: future-time monitor: 65 distinct atoms; a monitor watches at most 64")
	_, err = NewFuture(ltl.Formula{}, ltl.LTLf)
	assert.EqualError(t, err, "monitor: future-time monitor: invalid (zero) formula")

	// The past-time engine of G(φ) has the same limit.
	_, err = Check(ltl.Always(manyAtoms(65)), NewTrace(), Options{})
	assert.ErrorContains(t, err, "65 distinct atoms")

	// A nil trace is the empty trace.
	res, err := Check(ltl.MustParse("G p"), nil, Options{})
	require.NoError(t, err)
	assert.True(t, res.Holds)
}

// TestEngineNames: the CLI's -engine flag values.
func TestEngineNames(t *testing.T) {
	for _, e := range []Engine{EngineAuto, EngineDP, EngineNaive, EngineAutomaton} {
		got, ok := ParseEngine(e.String())
		assert.True(t, ok)
		assert.Equal(t, e, got)
	}
	assert.Equal(t, []string{"auto", "dp", "naive", "automaton"},
		[]string{EngineAuto.String(), EngineDP.String(), EngineNaive.String(), EngineAutomaton.String()})
	_, ok := ParseEngine("dfa")
	assert.False(t, ok)
	assert.Equal(t, "invalid", Engine(7).String())

	_, err := Check(ltl.Atom("p"), NewTrace(), Options{Engine: EngineAutomaton})
	assert.EqualError(t, err, "monitor: check: the automaton engine is run by automaton.Check")
}

// decodeFormula reads a formula from data in prefix order: each byte picks
// a leaf (true, false, p, q, r) or an operator, whose operands follow;
// depth bounds the nesting. It returns the bytes left over.
func decodeFormula(data []byte, depth int) (ltl.Formula, []byte) {
	leaves := []ltl.Formula{ltl.True(), ltl.False(), ltl.Atom("p"), ltl.Atom("q"), ltl.Atom("r")}
	if len(data) == 0 {
		return ltl.Atom("p"), data
	}
	ops := ltl.AllOps()
	b := int(data[0])
	data = data[1:]
	choice := b % (len(leaves) + len(ops))
	if depth <= 1 || choice < len(leaves) {
		return leaves[b%len(leaves)], data
	}
	op := ops[choice-len(leaves)]
	l, data := decodeFormula(data, depth-1)
	if op.Arity() == 1 {
		return ltl.Unary(op, l), data
	}
	r, data := decodeFormula(data, depth-1)
	return ltl.Binary(op, l, r), data
}

// FuzzDPEngines compares the DP engines (past, future, Check, Explain) with
// the reference evaluator on fuzzer-chosen formulas and traces: the first
// byte's low bit picks the semantics, then a formula (decodeFormula), then
// one byte per event (bits 0–2: p, q, r).
func FuzzDPEngines(f *testing.F) {
	f.Add([]byte{0, 30, 2, 3, 1, 2, 4, 0})                // a past formula on a short trace
	f.Add([]byte{1, 17, 2, 3, 5, 1, 0, 2})                // RosuHavelund
	f.Add([]byte{0, 11, 12, 8, 3, 0})                     // nested future
	f.Add([]byte{1, 26, 13, 2, 29, 3, 4, 1, 7, 7, 0, 2})  // past over future
	f.Add([]byte{0, 14, 3})                               // the empty trace
	f.Add([]byte{1, 9, 20, 2, 4, 1, 2, 3, 4, 5, 6, 7, 0}) // longer trace
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		sem := semantics[data[0]&1]
		formula, rest := decodeFormula(data[1:], 6)
		if len(rest) > 16 {
			rest = rest[:16]
		}
		s := make(ltl.Sets, len(rest))
		for i, b := range rest {
			s[i] = []string{}
			for j, a := range []string{"p", "q", "r"} {
				if b>>uint(j)&1 == 1 {
					s[i] = append(s[i], a)
				}
			}
		}
		ctx := fmt.Sprintf("%s on %s under %s", formula, showSets(s), sem)
		want := ltl.EvalAll(formula, s, sem)

		m, err := NewFuture(formula, sem)
		require.NoError(t, err, ctx)
		ls := lettersOf(s, m.Atoms())
		require.Equal(t, want, m.EvalAll(ls), ctx)
		require.Equal(t, want, withoutTables(m).EvalAll(ls), "interpreted: "+ctx)
		require.Equal(t, ltl.Eval(formula, s, sem), m.Eval(ls), ctx)

		if c := formula.Classify(); c == ltl.Propositional || c == ltl.PurePast {
			for _, build := range []func(ltl.Semantics, ...ltl.Formula) (*Past, error){NewPast, NewPastInterpreted} {
				p, err := build(sem, formula)
				require.NoError(t, err, ctx)
				require.Equal(t, want, stepAll(p, lettersOf(s, p.Atoms()), 0), "past: "+ctx)
			}
		}

		res, err := Check(formula, traceOf(s), Options{Engine: EngineDP, Semantics: sem})
		require.NoError(t, err, ctx)
		require.Equal(t, ltl.Eval(formula, s, sem), res.Holds, ctx)

		rs, err := Explain(formula, traceOf(s), 0, sem)
		require.NoError(t, err, ctx)
		require.Equal(t, ltl.Eval(formula, s, sem), rs[0].Holds, ctx)
	})
}
