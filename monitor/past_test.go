package monitor

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/vectors"
	"github.com/henceforth-go/henceforth/ltl"
)

// stepAll feeds letters to m and returns the value of root j at each
// position.
func stepAll(m *Past, ls []Letter, j int) []bool {
	out := make([]bool, len(ls))
	for i, l := range ls {
		out[i] = m.Step(l).Has(j)
	}
	return out
}

// TestPastMatchesReference: the past-time DP, tabulated and interpreted,
// computes the value of each of several pure-past roots at every position as
// ltl.EvalAll does, under both semantics.
func TestPastMatchesReference(t *testing.T) {
	for _, sem := range semantics {
		t.Run(sem.String(), func(t *testing.T) {
			const seed = 7031
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, uint64(sem)))
			cfg := ltl.RandomConfig{MaxDepth: 5, Ops: ltl.OpsOf(ltl.PurePast), Atoms: []string{"p", "q", "r", "s"}}
			for k := range randomCases() {
				roots := []ltl.Formula{ltl.Random(rng, cfg), ltl.Random(rng, cfg), ltl.Random(rng, cfg)}
				tr := ltl.RandomTrace(rng, cfg.Atoms, 8)
				tabled, err := NewPast(sem, roots...)
				require.NoError(t, err)
				interp, err := NewPastInterpreted(sem, roots...)
				require.NoError(t, err)
				assert.Nil(t, interp.table)
				ls := lettersOf(tr, tabled.Atoms())
				for j, f := range roots {
					ctx := fmt.Sprintf("seed %d case %d root %d: %s on %s", seed, k, j, f, showSets(tr))
					want := ltl.EvalAll(f, tr, sem)
					tabled.Reset()
					interp.Reset()
					require.Equal(t, want, stepAll(tabled, ls, j), ctx)
					require.Equal(t, want, stepAll(interp, ls, j), "interpreted: "+ctx)
					require.Equal(t, len(ls), tabled.Len())
				}
			}
		})
	}
}

// TestPastLargeFormulas: formulas too large to tabulate (many atoms, many
// temporal operators, registers beyond 64) still agree with the reference,
// with NewPast and NewPastInterpreted. The word machine runs them in
// several instructions (lut groups), some of them.
func TestPastLargeFormulas(t *testing.T) {
	atoms := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	multiGroup := 0
	for _, sem := range semantics {
		const seed = 99
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, uint64(sem)))
		cfg := ltl.RandomConfig{MaxDepth: 9, Ops: ltl.OpsOf(ltl.PurePast), Atoms: atoms, LeafWeight: -1}
		for k := range 40 {
			f := ltl.Random(rng, cfg)
			tr := ltl.RandomTrace(rng, atoms, 12)
			ctx := fmt.Sprintf("seed %d case %d (%s): %s on %s", seed, k, sem, f, showSets(tr))
			want := ltl.EvalAll(f, tr, sem)
			m, err := NewPast(sem, f)
			require.NoError(t, err)
			require.Equal(t, want, stepAll(m, lettersOf(tr, m.Atoms()), 0), ctx)
			m, err = NewPastInterpreted(sem, f)
			require.NoError(t, err)
			require.Equal(t, want, stepAll(m, lettersOf(tr, m.Atoms()), 0), "interpreted: "+ctx)
			if m.word != nil && len(m.word.code) > 1 {
				multiGroup++
			}
		}
	}
	assert.Positive(t, multiGroup, "some formulas must need more than one lut group")
}

// TestPastWordMachine: the interpreter's word machine (see wordProgram)
// agrees with the reference on every trace of length 1…5 over two atoms,
// for formulas that make it materialize subformulas: for their previous
// value (Y of a temporal operator, end of start), for their width (more
// than six leaves), and whose inlined value differs at the first position
// (Z Y false is true there, though Y false inlines to false; q ^ end(false)
// inlines to q but is a subformula of its own under Z); and formulas
// too big for it (more than 31 atoms) run the instruction interpreter.
func TestPastWordMachine(t *testing.T) {
	formulas := []string{
		"start(p) -> [q, end(p | q))s",
		"end(Y(p B q)) B end(Z Y false)",
		"end(Z Y false)",
		"Z(q ^ end(false))",
		"Y(!p -> start(true)) <-> q",
		"Y Y Y p && Z Z !q",
		"end(start(p)) || start(end(q))",
		"Y((p S q) && O p)",
		"start(H p || (p && q)) ^ [Y p, start(q))w",
		"start(p && Y q && Y Y p && Y Y Y q && Y p && (q S p) && Y(p S q))",
		"O(H p) <-> !(p B q)",
		"true S (false B p)",
	}
	for _, src := range formulas {
		f := ltl.MustParse(src)
		for _, sem := range semantics {
			m, err := NewPastInterpreted(sem, f)
			require.NoError(t, err)
			require.NotNil(t, m.word, src)
			atoms := m.Atoms()
			forAllTraces(1<<len(atoms), 5, func(ls []Letter) {
				tr := make(ltl.Sets, len(ls))
				for i, l := range ls {
					tr[i] = []string{}
					for k, a := range atoms {
						if l.Has(k) {
							tr[i] = append(tr[i], a)
						}
					}
				}
				m.Reset()
				if got, want := stepAll(m, ls, 0), ltl.EvalAll(f, tr, sem); !assert.Equal(t, want, got) {
					require.FailNow(t, "word machine disagrees", "%s under %s on %s", src, sem, showSets(tr))
				}
			})
		}
	}

	const seed = 5
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	f := manyAtoms(40)
	m, err := NewPastInterpreted(ltl.LTLf, f)
	require.NoError(t, err)
	assert.Nil(t, m.word, "40 atoms do not fit a word")
	tr := ltl.RandomTrace(rng, m.Atoms(), 10)
	assert.Equal(t, ltl.EvalAll(f, tr, ltl.LTLf), stepAll(m, lettersOf(tr, m.Atoms()), 0), showSets(tr))
}

// TestPastStepDoesNotAllocate: Step allocates nothing, tabulated or not.
func TestPastStepDoesNotAllocate(t *testing.T) {
	f := ltl.MustParse("start(p) -> [q, end(r | s))")
	for _, build := range []func(ltl.Semantics, ...ltl.Formula) (*Past, error){NewPast, NewPastInterpreted} {
		m, err := build(ltl.LTLf, f)
		require.NoError(t, err)
		letters := []Letter{0, 1, 2, 4, 8, 3, 5, 15}
		allocs := testing.AllocsPerRun(100, func() {
			for _, l := range letters {
				m.Step(l)
			}
		})
		assert.Zero(t, allocs)
	}
}

// TestPastTabulatesTheBenchmarkFormula: the benchmark formula is
// small enough to run as one table lookup per event.
func TestPastTabulatesTheBenchmarkFormula(t *testing.T) {
	m, err := NewPast(ltl.LTLf, ltl.MustParse("start(p) -> [q, end(r | s))"))
	require.NoError(t, err)
	require.NotNil(t, m.table)
	assert.Equal(t, []string{"p", "q", "r", "s"}, m.Atoms())
	// One state bit per temporal operator (dp_ltl.md §2.3): p's previous
	// value for start, the interval's, and r | s's previous value for end.
	assert.Len(t, m.prog.state, 3)
}

// TestPastPaperVectors: the per-prefix verdicts of dp_ltl.md §3.2.6, under
// the past-time paper's own semantics (RosuHavelund: the past before the
// first state is stationary). The first verdict is the one the paper's
// code computes but never reports (pitfall 10).
func TestPastPaperVectors(t *testing.T) {
	const example = "start(p) -> [q, end(r | s))s"
	cases := []struct{ formula, states, verdicts string }{
		{example, "{} {q} {p}", "T T T"},
		{example, "{q} {r} {} {p}", "T T T F"},
		{example, "{p}", "T"},
		{example, "{p} {} {p}", "T T F"},
		{example, "{q,r} {p,r}", "T T"},
		{example, "{q} {s} {p}", "T T F"},
		{example, "{q} {s} {p,s}", "T T T"},
		{example, "{p} {p} {p}", "T T T"},
		{example, "{} {p,q}", "T T"},
		{example, "{} {p}", "T F"},
		{example, "{q} {} {p} {} {p}", "T T T T T"},
		{example, "{r} {p,q}", "T F"},
		{"Y a", "{a}", "T"},
		{"Y a", "{} {a}", "F F"},
		{"Y a", "{a} {}", "T T"},
		{"Y a", "{a} {} {}", "T T F"},
		{"start(a)", "{a}", "F"},
		{"start(a)", "{} {a}", "F T"},
		{"start(a)", "{a} {a}", "F F"},
		{"end(a)", "{}", "F"},
		{"end(a)", "{a} {}", "F T"},
		{"end(a)", "{} {}", "F F"},
		{"O a", "{}", "F"},
		{"O a", "{} {a} {}", "F T T"},
		{"H a", "{a}", "T"},
		{"H a", "{a} {} {a}", "T F F"},
		{"a S b", "{a}", "F"},
		{"a S b", "{b}", "T"},
		{"a S b", "{b} {a} {a}", "T T T"},
		{"a S b", "{b} {} {a}", "T F F"},
		{"a S b", "{a} {a}", "F F"},
		{"a B b", "{a}", "T"},
		{"a B b", "{a} {a}", "T T"},
		{"a B b", "{a} {} {a}", "T F F"},
		{"a B b", "{b} {a} {a}", "T T T"},
		{"[a, b)s", "{a}", "T"},
		{"[a, b)s", "{a,b}", "F"},
		{"[a, b)s", "{} {a} {} {b} {}", "F T T F F"},
		{"[a, b)s", "{}", "F"},
		{"[a, b)w", "{}", "T"},
		{"[a, b)w", "{} {}", "T T"},
		{"[a, b)w", "{} {b} {}", "T F F"},
		{"[a, b)w", "{a} {} {b} {a}", "T T F T"},
		{"!Y !a", "{}", "F"},
		{"!Y !a", "{a} {}", "T T"},
	}
	for _, v := range cases {
		f := ltl.MustParse(v.formula)
		m, err := NewPast(ltl.RosuHavelund, f)
		require.NoError(t, err)
		tr := vectors.ParseStates(v.states)
		assert.Equal(t, vectors.ParseBools(v.verdicts), stepAll(m, lettersOf(tr, m.Atoms()), 0),
			"%s on %s", v.formula, v.states)
	}
}

// paperMonitor is the algorithm the past-time paper generates for
// start(p) -> [q, end(r | s))s (dp_ltl.md §3.2.2), transcribed line by
// line, except that the first state's verdict pre[0] is returned too.
type paperMonitor struct {
	pre, now [9]bool
	started  bool
}

func (m *paperMonitor) step(p, q, r, s bool) bool {
	pre, now := &m.pre, &m.now
	if !m.started {
		m.started = true
		pre[8] = s
		pre[7] = r
		pre[6] = pre[7] || pre[8]
		pre[5] = false
		pre[4] = q
		pre[3] = pre[4] && !pre[5]
		pre[2] = p
		pre[1] = false
		pre[0] = !pre[1] || pre[3]
		return pre[0]
	}
	now[8] = s
	now[7] = r
	now[6] = now[7] || now[8]
	now[5] = !now[6] && pre[6]
	now[4] = q
	now[3] = (pre[3] || now[4]) && !now[5]
	now[2] = p
	now[1] = now[2] && !pre[2]
	now[0] = !now[1] || now[3]
	*pre = *now
	return now[0]
}

// TestPastPaperGeneratedAlgorithm: the monitor agrees with the paper's
// generated algorithm at every prefix of every trace of length 1…4 over the
// 16 states of {p, q, r, s}. The formula has no Y, so both semantics agree
// with the paper.
func TestPastPaperGeneratedAlgorithm(t *testing.T) {
	f := ltl.MustParse("start(p) -> [q, end(r | s))s")
	for _, sem := range semantics {
		for _, build := range []func(ltl.Semantics, ...ltl.Formula) (*Past, error){NewPast, NewPastInterpreted} {
			m, err := build(sem, f)
			require.NoError(t, err)
			require.Equal(t, []string{"p", "q", "r", "s"}, m.Atoms())
			traces := 0
			forAllTraces(16, 4, func(tr []Letter) {
				traces++
				m.Reset()
				var paper paperMonitor
				for i, l := range tr {
					want := paper.step(l.Has(0), l.Has(1), l.Has(2), l.Has(3))
					if got := m.Step(l).Has(0); got != want {
						require.Failf(t, "disagrees with the paper's algorithm",
							"%s at %d of %v: monitor %v, paper %v", sem, i, tr, got, want)
					}
				}
			})
			assert.Equal(t, 16+16*16+16*16*16+16*16*16*16, traces)
		}
	}
}

// forAllTraces calls visit with every trace of length 1…maxLen over
// letters 0…nLetters-1.
func forAllTraces(nLetters, maxLen int, visit func([]Letter)) {
	tr := make([]Letter, 0, maxLen)
	var rec func()
	rec = func() {
		if len(tr) > 0 {
			visit(tr)
		}
		if len(tr) == maxLen {
			return
		}
		for l := range nLetters {
			tr = append(tr, Letter(l))
			rec()
			tr = tr[:len(tr)-1]
		}
	}
	rec()
}

// TestPastProposition1: the equivalences of the past-time paper's
// Proposition 1 (dp_ltl.md §5) hold at every position of every trace of
// length 1…6 over two atoms, under the paper's semantics, with the
// formulas F, F1, F2 instantiated by atoms and by a past formula.
func TestPastProposition1(t *testing.T) {
	equivalences := []string{
		"O F1 <-> true S F1",
		"H F1 <-> F1 B false",
		"H F1 <-> !O !F1",
		"O F1 <-> !H !F1",
		"F1 B F2 <-> H F1 || F1 S F2",
		"F1 S F2 <-> O F2 && F1 B F2",
		"start(F1) <-> F1 && !Y F1",
		"end(F1) <-> !F1 && Y F1",
		"[F1, F2)s <-> !F2 && (Y !F2) S F1",
		"[F1, F2)w <-> !F2 && (Y !F2) B F1",
		"end(F1) <-> start(!F1)",
		"start(F1) <-> end(!F1)",
		"[F1, F2)w <-> H !F2 || [F1, F2)s",
		"[F1, F2)s <-> O F1 && [F1, F2)w",
		"Y F1 <-> (F1 -> !start(F1)) && (!F1 -> end(F1))",
		"F1 S F2 <-> F2 || [Y F2, !F1)s",
	}
	instances := [][2]string{{"a", "b"}, {"(a || Y b)", "(b && !Y a)"}}
	for _, eq := range equivalences {
		for _, inst := range instances {
			src := strings.NewReplacer("F1", inst[0], "F2", inst[1]).Replace(eq)
			f := ltl.MustParse(src)
			require.Equal(t, ltl.OpIff, f.Op(), src)
			m, err := NewPast(ltl.RosuHavelund, f.Left(), f.Right())
			require.NoError(t, err)
			forAllTraces(1<<len(m.Atoms()), 6, func(tr []Letter) {
				m.Reset()
				for i, l := range tr {
					if out := m.Step(l); out.Has(0) != out.Has(1) {
						require.Failf(t, "equivalence fails", "%s at %d of %v", src, i, tr)
					}
				}
			})
		}
	}
}

// TestPastFirstPosition: the conventions at the first position differ
// between the semantics exactly as docs/semantics.md says.
func TestPastFirstPosition(t *testing.T) {
	cases := []struct {
		formula   string
		ltlf, rh  bool
		atFirst   Letter
		atomsNote string
	}{
		{"Y p", false, true, 1, "p holds"},
		{"Z !p", true, false, 1, "p holds"},
		{"start(p)", false, false, 1, "p holds"},
		{"end(!p)", false, false, 1, "p holds"},
		{"H p", true, true, 1, "p holds"},
		{"O !p", false, false, 1, "p holds"},
	}
	for _, c := range cases {
		f := ltl.MustParse(c.formula)
		for sem, want := range map[ltl.Semantics]bool{ltl.LTLf: c.ltlf, ltl.RosuHavelund: c.rh} {
			m, err := NewPast(sem, f)
			require.NoError(t, err)
			assert.Equal(t, want, m.Step(c.atFirst).Has(0), "%s at 0 under %s when %s", c.formula, sem, c.atomsNote)
		}
	}
}

// TestPastResetAndLen: Len counts events; Reset restarts the monitor,
// including the first-position conventions.
func TestPastResetAndLen(t *testing.T) {
	m, err := NewPast(ltl.LTLf, ltl.MustParse("Y p"), ltl.MustParse("start(p)"))
	require.NoError(t, err)
	assert.Equal(t, Letter(0b00), m.Step(1))
	assert.Equal(t, Letter(0b01), m.Step(0))
	assert.Equal(t, Letter(0b10), m.Step(1))
	assert.Equal(t, 3, m.Len())
	m.Reset()
	assert.Equal(t, 0, m.Len())
	assert.Equal(t, Letter(0b00), m.Step(1), "first position again after Reset")
	assert.Equal(t, Letter(0b01), m.Step(1))
	assert.Equal(t, []ltl.Formula{ltl.MustParse("Y p"), ltl.MustParse("start(p)")}, m.Roots())
}

// TestNewPastErrors: formulas the past-time DP cannot run are errors that
// say why.
func TestNewPastErrors(t *testing.T) {
	_, err := NewPast(ltl.LTLf, ltl.MustParse("p -> F q"))
	assert.EqualError(t, err, "monitor: past-time monitor: p -> F q uses the future operator F; the past-time DP takes propositional and past formulas only")

	_, err = NewPast(ltl.LTLf, ltl.MustParse("H p"), ltl.MustParse("Y (q U r)"))
	assert.ErrorContains(t, err, "Y(q U r) uses the future operator U")

	_, err = NewPast(ltl.LTLf, manyAtoms(65))
	assert.EqualError(t, err, "monitor: past-time monitor: 65 distinct atoms; a monitor watches at most 64")
	_, err = NewPast(ltl.LTLf, manyAtoms(64))
	assert.NoError(t, err)

	_, err = NewPast(ltl.LTLf)
	assert.EqualError(t, err, "monitor: past-time monitor: no formula")

	_, err = NewPast(ltl.LTLf, ltl.Atom("p"), ltl.Formula{})
	assert.EqualError(t, err, "monitor: past-time monitor: formula 1 is invalid (zero)")

	roots := make([]ltl.Formula, 65)
	for i := range roots {
		roots[i] = ltl.Atom("p")
	}
	_, err = NewPast(ltl.LTLf, roots...)
	assert.EqualError(t, err, "monitor: past-time monitor: 65 formulas; at most 64 per monitor")
}

// manyAtoms is H(a0 || a1 || …) over n atoms.
func manyAtoms(n int) ltl.Formula {
	fs := make([]ltl.Formula, n)
	for i := range fs {
		fs[i] = ltl.Atom(fmt.Sprintf("a%d", i))
	}
	return ltl.Historically(ltl.OrAll(fs...))
}
