package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const dekkerRun = examplesPath + "/dekker.Run"

func find(t *testing.T, p *Program, entry, formula string, fo FindOptions) *FindResult {
	t.Helper()
	e, err := p.Func(entry)
	require.NoError(t, err)
	r, err := p.Find(context.Background(), e, formula, fo)
	require.NoError(t, err)
	if r.Witness != nil {
		t.Logf("%s", r.Witness)
	}
	t.Logf("%s: %s (%d nodes, %d states, bound %q)", formula, r.Verdict(), r.Nodes, r.States, r.Bound)
	return r
}

// stepLabels lists, for each step of the witness, "G:label" of the
// goroutine that moved and its label after the step.
func stepLabels(w *Witness) []string {
	var out []string
	for _, s := range w.States[1:] {
		name := goroutineLabel(w.Goroutines, s.Goroutine)
		name = name[strings.LastIndexByte(name, '.')+1:]
		out = append(out, name+":"+s.At[s.Goroutine])
	}
	return out
}

// TestDekker replays the Dekker searches of the paper's §6, d1–d9 below,
// and asserts every result the paper states.
func TestDekker(t *testing.T) {
	p := loadSpecs(t)

	// D1: "P0 attempts to enter and P1 does not": shortest step; "at this
	// point, c0 = 0 ∧ c1 = 1".
	d1 := find(t, p, dekkerRun, "F(at(P0, m2) && at(P1, n1))", FindOptions{})
	require.Equal(t, "found", d1.Verdict())
	w1 := d1.Witness
	assert.Equal(t, 4, w1.Steps, "P0: m1, m11, m2; P1: n1")
	assert.ElementsMatch(t, []string{"P0:m1", "P0:m11", "P0:m2", "P1:n1"}, stepLabels(w1))
	at := find(t, p, dekkerRun, `"c0 == 0 && c1 == 1"`, FindOptions{After: w1})
	require.Equal(t, "found", at.Verdict())
	assert.Equal(t, 0, at.Witness.Steps, "c0 = 0 and c1 = 1 in D1's last state")

	// D2: "P1 does not move" is satisfiable from there; DFS-max shows P0
	// moving while P1 stays.
	d2 := find(t, p, dekkerRun, "G at(P1, n1)", FindOptions{After: w1, Mode: DFSMax})
	require.Equal(t, "found", d2.Verdict())
	assert.Positive(t, d2.Witness.Steps)

	// D3: P0 can get to its critical section without P1 progressing.
	d3 := find(t, p, dekkerRun, "G at(P1, n1) && F at(P0, m8)", FindOptions{After: w1})
	require.Equal(t, "found", d3.Verdict())
	for _, s := range d3.Witness.States {
		assert.Equal(t, "n1", s.At[d3.Witness.Goroutine("P1")])
	}
	assert.Equal(t, "m8", d3.Witness.States[len(d3.Witness.States)-1].At[d3.Witness.Goroutine("P0")])

	// D4 (cleaned stack): both processes want to enter.
	d4 := find(t, p, dekkerRun, "F(at(P0, m2) && at(P1, n2))", FindOptions{})
	require.Equal(t, "found", d4.Verdict())
	w4 := d4.Witness
	assert.Equal(t, 6, w4.Steps)
	end := find(t, p, dekkerRun, `"c0 == 0 && c1 == 0 && turn == 0"`, FindOptions{After: w4})
	assert.Equal(t, "found", end.Verdict())

	// D5: "This does not succeed in providing any sequence."
	d5 := find(t, p, dekkerRun, "G at(P1, n2) && F at(P0, m8)", FindOptions{After: w4})
	assert.Equal(t, "none", d5.Verdict())

	// D6: with P1 kept at n2, "we obtain only the states m6 and m7".
	d6 := find(t, p, dekkerRun, "G at(P1, n2)", FindOptions{After: w4, Mode: DFSMax})
	require.Equal(t, "found", d6.Verdict())
	w6 := d6.Witness
	assert.Positive(t, w6.Steps)
	for _, l := range w6.Labels(w6.Goroutine("P0")) {
		assert.Contains(t, []string{"m2", "m6", "m7"}, l)
	}
	assert.Subset(t, w6.Labels(w6.Goroutine("P0")), []string{"m6", "m7"})

	// D7: P0 gets in by "P1 progressing to n3, relinquishing its attempt
	// ... by setting c1 = 1. Then P0 may exit the loop on m6 and m7, and
	// enter the critical section at m8".
	d7 := find(t, p, dekkerRun, "F at(P0, m8)", FindOptions{After: w4})
	require.Equal(t, "found", d7.Verdict())
	assert.Equal(t, []string{"P1:n7", "P1:n6", "P1:n3", "P0:m7", "P0:m8"}, stepLabels(d7.Witness))

	// D8: P1 cannot enter first: "will not result in any path".
	d8 := find(t, p, dekkerRun, "!at(P0, m8) U at(P1, n8)", FindOptions{After: w4})
	assert.Equal(t, "none", d8.Verdict())

	// D9: "a path in which P0 gets first to its critical section".
	d9 := find(t, p, dekkerRun, "!at(P1, n8) U at(P0, m8)", FindOptions{After: w4})
	require.Equal(t, "found", d9.Verdict())

	// Mutual exclusion holds for the printed code.
	mutex := find(t, p, dekkerRun, "F(at(P0, m8) && at(P1, n8))", FindOptions{})
	assert.Equal(t, "none", mutex.Verdict())
}

// TestFindBuiltins: deadlock and terminated, shortest witnesses, replay of
// the witness token by Explore and by Find, and complete "none" answers on
// the fixed program.
func TestFindBuiltins(t *testing.T) {
	p := loadSpecs(t)
	r := find(t, p, specsPath+".ABBA", "F deadlock", FindOptions{})
	require.Equal(t, "found", r.Verdict())
	w := r.Witness
	assert.Equal(t, 2, w.Steps, "shortest: each goroutine takes its first lock")
	last := w.States[len(w.States)-1]
	assert.True(t, last.Terminal)
	assert.Equal(t, []string{"deadlock"}, last.Atoms)

	// Explore replays the witness's execution: the deadlock.
	e, err := p.Func(specsPath + ".ABBA")
	require.NoError(t, err)
	rep, err := p.Explore(context.Background(), e, Options{Replay: w.Replay})
	require.NoError(t, err)
	require.NotNil(t, findKind(rep, KindDeadlock))
	// Find replays it to the same witness.
	again, err := p.Find(context.Background(), e, "F deadlock", FindOptions{Replay: w.Replay})
	require.NoError(t, err)
	require.NotNil(t, again.Witness)
	assert.Equal(t, w.States, again.Witness.States)
	assert.Equal(t, w.Trace, again.Witness.Trace)

	term := find(t, p, specsPath+".ABBA", "F terminated", FindOptions{})
	require.Equal(t, "found", term.Verdict())
	assert.Equal(t, []string{"terminated"}, term.Witness.States[len(term.Witness.States)-1].Atoms)

	none := find(t, p, specsPath+".AB", "F deadlock", FindOptions{})
	assert.Equal(t, "none", none.Verdict())
	assert.True(t, none.Complete)

	// "Never" in the sense of ltltest.Never: a bound makes it unknown,
	// not none.
	cut := find(t, p, specsPath+".AB", "F deadlock", FindOptions{MaxDepth: 2})
	assert.Equal(t, "unknown", cut.Verdict())
	assert.Equal(t, "depth", cut.Bound)
}

// TestFindModes: BFS gives the shortest witness; DFS-min a minimal one
// (never longer than needed on its path, but maybe longer than BFS's);
// DFS-max extends G formulas as far as the search goes.
func TestFindModes(t *testing.T) {
	p := loadSpecs(t)
	bfs := find(t, p, dekkerRun, "F at(P0, m8)", FindOptions{})
	dmin := find(t, p, dekkerRun, "F at(P0, m8)", FindOptions{Mode: DFSMin})
	require.Equal(t, "found", bfs.Verdict())
	require.Equal(t, "found", dmin.Verdict())
	assert.LessOrEqual(t, bfs.Witness.Steps, dmin.Witness.Steps)
	// Minimal: no proper prefix of the DFS-min witness is accepted.
	for _, s := range dmin.Witness.States[:len(dmin.Witness.States)-1] {
		assert.NotContains(t, s.Atoms, "at(P0,m8)")
	}
	// Replaying the DFS-min witness with its length gives it back.
	e, err := p.Func(dekkerRun)
	require.NoError(t, err)
	rep, err := p.Find(context.Background(), e, "F at(P0, m8)", FindOptions{Replay: dmin.Witness.Replay, ReplaySteps: dmin.Witness.Steps})
	require.NoError(t, err)
	require.NotNil(t, rep.Witness)
	assert.Equal(t, dmin.Witness.States, rep.Witness.States)

	short := find(t, p, dekkerRun, "G !at(P0, m8)", FindOptions{})
	assert.Equal(t, 0, short.Witness.Steps, "BFS: the one-state path satisfies G")
	long := find(t, p, dekkerRun, "G !at(P0, m8)", FindOptions{Mode: DFSMax})
	assert.Greater(t, long.Witness.Steps, 0)
	for _, s := range long.Witness.States {
		assert.NotEqual(t, "m8", s.At[long.Witness.Goroutine("P0")])
	}
}

// TestFindErrors: bad formulas and atoms are errors naming the problem.
func TestFindErrors(t *testing.T) {
	p := loadSpecs(t)
	e, err := p.Func(dekkerRun)
	require.NoError(t, err)
	for formula, want := range map[string]string{
		"F at(P0, m99)":        "no //ltl:event m99",
		"F (":                  "search formula",
		"F at(P0 m2)":          `offset 8: expected "," in at(G, L), found "m"`, // an offset into the formula as written
		`F "c0 +"`:             "not an atom of the search",
		`F "c0 + 1"`:           "want a boolean",
		"F nosuch":             "not a valid Go expression",
		`F "len(os.Args) > 0"`: "not a valid Go expression",
	} {
		_, err := p.Find(context.Background(), e, formula, FindOptions{})
		assert.ErrorContains(t, err, want, formula)
		assert.ErrorIs(t, err, ErrFormula, formula)
	}
	_, err = p.Find(context.Background(), e, "F at(P0, m2)", FindOptions{Mode: "bogus"})
	assert.ErrorContains(t, err, "unknown search mode")
}

func FuzzFindFormula(f *testing.F) {
	for _, s := range []string{"F at(P0, m8)", `G "c0 == 0"`, "at(1,m2) U deadlock", "F(", `"at(P0,m2)"`, "at(", "F terminated && X X at(P1, n3)"} {
		f.Add(s)
	}
	p := loadSpecs(f)
	e, err := p.Func(dekkerRun)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, formula string) {
		fs, err := p.newFindSpec(context.Background(), e, formula)
		if err == nil && fs == nil {
			t.Fatal("nil spec without error")
		}
	})
}
