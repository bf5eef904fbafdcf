package automaton

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

const (
	cf  = monitor.CurrentlyFalse
	ct  = monitor.CurrentlyTrue
	vio = monitor.Violated
	sat = monitor.Satisfied
)

// verdicts returns the verdict before any event and after each event.
func verdicts(m *Monitor, trace ltl.Sets) []monitor.Verdict {
	m.Reset()
	out := []monitor.Verdict{m.Verdict()}
	for _, ev := range trace {
		out = append(out, m.StepAtoms(ev...))
	}
	return out
}

// TestMonitorVerdicts checks the four verdicts on classic properties:
// decided as soon as every continuation agrees, and final from then on.
func TestMonitorVerdicts(t *testing.T) {
	tests := []struct {
		f     string
		trace ltl.Sets
		want  []monitor.Verdict
	}{
		{"G(req -> F ack)", ltl.Sets{{}, {"req"}, {}, {"ack"}}, []monitor.Verdict{ct, ct, cf, cf, ct}},
		{"F p", ltl.Sets{{}, {"p"}, {}}, []monitor.Verdict{cf, cf, sat, sat}},
		{"G p", ltl.Sets{{"p"}, {}, {"p"}}, []monitor.Verdict{ct, ct, vio, vio}},
		{"X p", ltl.Sets{{}, {}}, []monitor.Verdict{cf, cf, vio}},
		{"N p", ltl.Sets{{}, {"p"}}, []monitor.Verdict{ct, ct, sat}},
		{"p U q", ltl.Sets{{"p"}, {"p"}, {"q"}}, []monitor.Verdict{cf, cf, cf, sat}},
		{"p W q", ltl.Sets{{"p"}, {}}, []monitor.Verdict{ct, ct, vio}},
		{"F p & G !q", ltl.Sets{{"p"}, {}, {"q"}}, []monitor.Verdict{cf, ct, ct, vio}},
		{"true", ltl.Sets{{}}, []monitor.Verdict{sat, sat}},
		{"false", ltl.Sets{{}}, []monitor.Verdict{vio, vio}},
		// Liveness decided at the first step that decides it.
		{"F(a & X b)", ltl.Sets{{"a"}, {"b"}}, []monitor.Verdict{cf, cf, sat}},
	}
	for _, tc := range tests {
		d, err := FromFormula(t.Context(), ltl.MustParse(tc.f), Options{})
		require.NoError(t, err)
		m := d.Monitor()
		assert.Equal(t, tc.want, verdicts(m, tc.trace), "%s on %v", tc.f, tc.trace)
		assert.Equal(t, len(tc.trace), m.Len())
	}
}

// TestMonitorMixedFormulas covers the two ways past subformulas are
// handled: computed by the past-time monitor (the default: final verdicts
// exact, early verdicts sound but possibly late) and translated exactly.
func TestMonitorMixedFormulas(t *testing.T) {
	f := ltl.MustParse("G(ack -> O req)")
	trace := ltl.Sets{{}, {"req"}, {"ack"}, {}}

	d, err := FromFormula(context.Background(), f, Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"ack -> O req"}, d.Atoms(), "the maximal past subformula is one fresh atom")
	assert.Equal(t, []ltl.Formula{ltl.MustParse("ack -> O req")}, d.PastAtoms())
	m := d.Monitor()
	assert.Equal(t, []string{"ack", "req"}, m.Atoms(), "a monitor is fed the formula's own atoms")
	// After req, O req holds forever, so the formula is decided; the DFA
	// over the fresh atom cannot know it.
	assert.Equal(t, []monitor.Verdict{ct, ct, ct, ct, ct}, verdicts(m, trace))
	assert.Equal(t, []monitor.Verdict{ct, vio, vio}, verdicts(m, ltl.Sets{{"ack"}, {"req"}}))

	exact, err := FromFormula(t.Context(), f, Options{ExactPast: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"ack", "req"}, exact.Atoms())
	assert.Empty(t, exact.PastAtoms())
	assert.Equal(t, []monitor.Verdict{ct, ct, sat, sat, sat}, verdicts(exact.Monitor(), trace))

	// A past operator over a future subformula is always exact.
	g := ltl.MustParse("F(p & Y(X q))") // p at some i > 0 with q at i... i.e. F(p & q & Y true)
	d, err = FromFormula(context.Background(), g, Options{})
	require.NoError(t, err)
	assert.Empty(t, d.PastAtoms())
	assert.Equal(t, []monitor.Verdict{cf, cf, sat}, verdicts(d.Monitor(), ltl.Sets{{"q"}, {"p", "q"}}))
}

// TestMonitorLetters checks the letter helpers and that atoms outside the
// formula are ignored.
func TestMonitorLetters(t *testing.T) {
	d, err := FromFormula(t.Context(), ltl.MustParse("G(b -> X a)"), Options{})
	require.NoError(t, err)
	m := d.Monitor()
	assert.Equal(t, []string{"a", "b"}, m.Atoms())
	assert.Equal(t, monitor.Letter(0b10), m.Letter("b", "zzz"))
	assert.Equal(t, cf, m.Step(m.Letter("b")))
	assert.Equal(t, cf, m.Verdict())
	assert.Equal(t, ct, m.StepAtoms("a", "unknown"))
	assert.Equal(t, monitor.Letter(0b01), m.DFA().Letter("a"))
}

// TestMonitorStepDoesNotAllocate checks the zero-allocation contract for
// the flat table, the decision-diagram walk (more than 12 atoms) and a
// mixed formula.
func TestMonitorStepDoesNotAllocate(t *testing.T) {
	var wide []string
	for i := range 7 { // 14 atoms: no flat table
		wide = append(wide, fmt.Sprintf("G(p%d -> F q%d)", i, i))
	}
	for _, src := range []string{"G(req -> F ack)", strings.Join(wide, " & "), "G(ack -> O req) & F done"} {
		d, err := FromFormula(t.Context(), ltl.MustParse(src), Options{})
		require.NoError(t, err)
		m := d.Monitor()
		l := monitor.Letter(0)
		allocs := testing.AllocsPerRun(1000, func() {
			m.Step(l)
			l = l*0x9E3779B97F4A7C15 + 1
		})
		assert.Zero(t, allocs, src)
	}
}

// TestTranslateErrors checks that limits and cancellation are reported as
// errors (an unknown verdict), never as automata.
func TestTranslateErrors(t *testing.T) {
	_, err := FromFormula(context.Background(), ltl.Formula{}, Options{})
	require.Error(t, err)

	var conj []ltl.Formula
	for i := range 12 {
		conj = append(conj, ltl.Eventually(ltl.Atom(fmt.Sprintf("p%d", i))))
	}
	big := ltl.AndAll(conj...)
	_, err = FromFormula(t.Context(), big, Options{MaxStates: 100})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), "more than 100 states")

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = FromFormula(ctx, big, Options{})
	require.ErrorIs(t, err, context.Canceled)

	var many []ltl.Formula
	for i := range 65 {
		many = append(many, ltl.Atom(fmt.Sprintf("a%d", i)))
	}
	_, err = FromFormula(context.Background(), ltl.OrAll(many...), Options{})
	require.True(t, errors.Is(err, ErrTooLarge), "%v", err)
	assert.Contains(t, err.Error(), "65 atoms")
}

// TestTranslateNodeLimit checks that a BDD blow-up inside one step is
// stopped by the node bound, as an error.
func TestTranslateNodeLimit(t *testing.T) {
	var conj []ltl.Formula
	for i := range 10 {
		conj = append(conj, ltl.Always(ltl.Iff(ltl.Atom(fmt.Sprintf("a%d", i)), ltl.WeakNext(ltl.Atom(fmt.Sprintf("b%d", i))))))
	}
	_, err := FromFormula(t.Context(), ltl.AndAll(conj...), Options{MaxNodes: 2000})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), "more than 2000 BDD nodes")
}

// TestMonitorWithExtraAtoms checks a DFA translated over more atoms than
// the formula's: the monitor's input vocabulary includes them.
func TestMonitorWithExtraAtoms(t *testing.T) {
	for _, tc := range []struct {
		f    string
		last monitor.Verdict
	}{
		{"F b", sat},
		{"F b & G(z -> O a)", ct}, // O a is a fresh atom: not known to stay true
	} {
		d, err := FromFormula(t.Context(), ltl.MustParse(tc.f), Options{Atoms: []string{"a", "z"}})
		require.NoError(t, err)
		m := d.Monitor()
		assert.Contains(t, m.Atoms(), "z", tc.f)
		assert.Equal(t, cf, m.StepAtoms("a", "z"), tc.f)
		assert.Equal(t, tc.last, m.StepAtoms("b"), tc.f)
	}
}
