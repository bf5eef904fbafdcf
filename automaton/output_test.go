package automaton

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// hoaAut is a parsed HOA automaton (the subset of HOA v1 WriteHOA uses).
type hoaAut struct {
	header map[string]string
	aps    []string
	start  int
	states []hoaState
}

type hoaState struct {
	acc   bool
	edges []hoaEdge
}

type hoaEdge struct {
	label string
	to    int
	acc   bool
}

var (
	hoaStateLine = regexp.MustCompile(`^State: (\d+)( "[^"]*")?( \{0\})?$`)
	hoaEdgeLine  = regexp.MustCompile(`^\[([^\]]+)\] (\d+)( \{0\})?$`)
	hoaAPString  = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
)

// parseHOA parses and validates text: header before --BODY--, States and
// AP counts consistent, states numbered in order, edges to existing states.
func parseHOA(t *testing.T, text string) *hoaAut {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	require.Equal(t, "HOA: v1", lines[0])
	require.Equal(t, "--END--", lines[len(lines)-1])
	a := &hoaAut{header: map[string]string{}}
	i := 1
	for ; lines[i] != "--BODY--"; i++ {
		k, v, ok := strings.Cut(lines[i], ": ")
		require.True(t, ok, "header line %q", lines[i])
		a.header[k] = v
	}
	n, err := strconv.Atoi(a.header["States"])
	require.NoError(t, err)
	a.start, err = strconv.Atoi(a.header["Start"])
	require.NoError(t, err)
	for _, m := range hoaAPString.FindAllStringSubmatch(a.header["AP"], -1) {
		a.aps = append(a.aps, strings.ReplaceAll(m[1], `\"`, `"`))
	}
	require.Equal(t, strconv.Itoa(len(a.aps)), strings.Fields(a.header["AP"])[0], "AP count: %s", a.header["AP"])
	for _, l := range lines[i+1 : len(lines)-1] {
		if m := hoaStateLine.FindStringSubmatch(l); m != nil {
			require.Equal(t, strconv.Itoa(len(a.states)), m[1], "states in order")
			a.states = append(a.states, hoaState{acc: m[3] != ""})
			continue
		}
		m := hoaEdgeLine.FindStringSubmatch(l)
		require.NotNil(t, m, "body line %q", l)
		to, _ := strconv.Atoi(m[2])
		require.Less(t, to, n)
		a.states[len(a.states)-1].edges = append(a.states[len(a.states)-1].edges, hoaEdge{m[1], to, m[3] != ""})
	}
	require.Len(t, a.states, n)
	return a
}

// evalLabel evaluates a HOA label (t, f, AP indices, !, &, |, parentheses)
// on a valuation of the APs.
func evalLabel(t *testing.T, label string, val func(int) bool) bool {
	t.Helper()
	toks := regexp.MustCompile(`\d+|[tf!&|()]`).FindAllString(label, -1)
	pos := 0
	var or, and, unary func() bool
	or = func() bool {
		v := and()
		for pos < len(toks) && toks[pos] == "|" {
			pos++
			w := and()
			v = v || w
		}
		return v
	}
	and = func() bool {
		v := unary()
		for pos < len(toks) && toks[pos] == "&" {
			pos++
			w := unary()
			v = v && w
		}
		return v
	}
	unary = func() bool {
		tok := toks[pos]
		pos++
		switch tok {
		case "!":
			return !unary()
		case "(":
			v := or()
			pos++
			return v
		case "t":
			return true
		case "f":
			return false
		}
		i, err := strconv.Atoi(tok)
		require.NoError(t, err)
		return val(i)
	}
	v := or()
	require.Equal(t, len(toks), pos, "label %q", label)
	return v
}

// step follows the unique edge of s enabled by val, or returns -1; it fails
// the test if two edges are enabled (the automaton claims determinism).
func (a *hoaAut) step(t *testing.T, s int, val func(int) bool) (int, bool) {
	t.Helper()
	to, acc := -1, false
	for _, e := range a.states[s].edges {
		if evalLabel(t, e.label, val) {
			require.Equal(t, -1, to, "two edges of state %d enabled", s)
			to, acc = e.to, e.acc
		}
	}
	return to, acc
}

// TestHOAAliveEncodesTheLanguage parses the default HOA output of random
// formulas' DFAs and checks that the ω-automaton accepts w·{!alive}^ω
// exactly when the DFA accepts the finite trace w.
func TestHOAAliveEncodesTheLanguage(t *testing.T) {
	const seed = 5
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, f := range randomFormulas(seed, 150, ltl.PureFuture, ltl.Mixed) {
		d, err := FromFormula(t.Context(), f, Options{ExactPast: true})
		require.NoError(t, err)
		var b strings.Builder
		require.NoError(t, d.WriteHOA(&b, HOAAlive))
		a := parseHOA(t, b.String())
		assert.Equal(t, "Buchi", a.header["acc-name"])
		assert.Equal(t, "1 Inf(0)", a.header["Acceptance"])
		assert.Contains(t, a.header["properties"], "state-acc")
		require.Equal(t, append(append([]string{}, d.Atoms()...), "alive"), a.aps)
		alive := len(d.Atoms())
		for range 20 {
			trace := ltl.RandomTrace(rng, []string{"p", "q", "r"}, 6)
			s := a.start
			for _, ev := range trace {
				s, _ = a.step(t, s, func(i int) bool { return i == alive || (i < alive && contains(ev, d.Atoms()[i])) })
				require.GreaterOrEqual(t, s, 0, "the DFA is complete on alive letters")
			}
			// Then !alive forever: accepted iff we reach the accepting
			// end state, which loops.
			end, _ := a.step(t, s, func(int) bool { return false })
			accepted := end >= 0 && a.states[end].acc
			if end >= 0 {
				loop, _ := a.step(t, end, func(int) bool { return false })
				require.Equal(t, end, loop)
			}
			assert.Equal(t, ltl.Eval(f, trace, ltl.LTLf), accepted, "seed %d: %s on %v", seed, f, trace)
		}
	}
}

func contains(ev []string, a string) bool {
	for _, x := range ev {
		if x == a {
			return true
		}
	}
	return false
}

// TestHOASpotDFA checks the ltlf2dfa -H style: a non-empty trace is
// accepted exactly when its last transition is marked; the rejecting sink
// is left out.
func TestHOASpotDFA(t *testing.T) {
	const seed = 6
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, f := range randomFormulas(seed, 150, ltl.PureFuture) {
		d, err := FromFormula(context.Background(), f, Options{})
		require.NoError(t, err)
		var b strings.Builder
		require.NoError(t, d.WriteHOA(&b, HOASpotDFA))
		a := parseHOA(t, b.String())
		assert.Contains(t, a.header["properties"], "trans-acc")
		require.Equal(t, d.Atoms(), a.aps)
		for range 20 {
			trace := ltl.RandomTrace(rng, []string{"p", "q", "r"}, 6)
			if len(trace) == 0 {
				continue
			}
			s, acc := a.start, false
			for _, ev := range trace {
				s, acc = a.step(t, s, func(i int) bool { return contains(ev, d.Atoms()[i]) })
				if s < 0 {
					break // into the omitted rejecting sink
				}
			}
			assert.Equal(t, ltl.Eval(f, trace, ltl.LTLf), s >= 0 && acc, "seed %d: %s on %v", seed, f, trace)
		}
	}
}

// TestHOAGolden pins the two HOA styles for a small automaton.
func TestHOAGolden(t *testing.T) {
	d, err := FromFormula(context.Background(), ltl.MustParse("a U b"), Options{})
	require.NoError(t, err)
	var alive, spot strings.Builder
	require.NoError(t, d.WriteHOA(&alive, HOAAlive))
	require.NoError(t, d.WriteHOA(&spot, HOASpotDFA))
	assert.Equal(t, `HOA: v1
name: "a U b"
States: 4
Start: 0
AP: 3 "a" "b" "alive"
acc-name: Buchi
Acceptance: 1 Inf(0)
properties: trans-labels explicit-labels state-acc deterministic
--BODY--
State: 0
[2&0&!1] 0
[2&!0&!1] 1
[2&1] 2
State: 1
[2] 1
State: 2
[2] 2
[!2] 3
State: 3 "end" {0}
[!2] 3
--END--
`, alive.String())
	assert.Equal(t, `HOA: v1
name: "a U b"
States: 2
Start: 0
AP: 2 "a" "b"
acc-name: Buchi
Acceptance: 1 Inf(0)
properties: trans-labels explicit-labels trans-acc deterministic
--BODY--
State: 0
[0&!1] 0
[1] 1 {0}
State: 1
[t] 1 {0}
--END--
`, spot.String())
}

// TestDOTAndStats checks the DOT drawing against the stats and the golden
// text of G(req -> F ack).
func TestDOTAndStats(t *testing.T) {
	d, err := FromFormula(context.Background(), ltl.MustParse("G(req -> F ack)"), Options{})
	require.NoError(t, err)
	assert.Equal(t, Stats{States: 2, Transitions: 4}, d.Stats())
	assert.Equal(t, "states: 2\ntransitions: 4\n", d.Stats().String())
	var b strings.Builder
	require.NoError(t, d.WriteDOT(&b))
	assert.Equal(t, `digraph "G(req -> F ack)" {
  rankdir=LR;
  node [shape=circle];
  init [shape=point, label=""];
  init -> 0;
  0 [label="0", shape=doublecircle];
  1 [label="1"];
  0 -> 0 [label="!req || ack"];
  0 -> 1 [label="!ack && req"];
  1 -> 0 [label="ack"];
  1 -> 1 [label="!ack"];
}
`, b.String())

	// On random formulas: one DOT edge per transition, and the
	// accepting states drawn double.
	for _, f := range randomFormulas(8, 200, ltl.PureFuture) {
		d, err := FromFormula(context.Background(), f, Options{})
		require.NoError(t, err)
		var b strings.Builder
		require.NoError(t, d.WriteDOT(&b))
		st := d.Stats()
		assert.Len(t, regexp.MustCompile(`(?m)^  \d+ -> \d+ `).FindAllString(b.String(), -1), st.Transitions, "%s", f)
		accepting := 0
		for s := range st.States {
			if d.Accepting(s) {
				accepting++
			}
		}
		assert.Equal(t, accepting, strings.Count(b.String(), "doublecircle"), "%s", f)
	}
}

// TestStatsOfFamilies pins sizes that are known in closed form.
func TestStatsOfFamilies(t *testing.T) {
	for n := 1; n <= 6; n++ {
		var fs []ltl.Formula
		for i := range n {
			fs = append(fs, ltl.Eventually(ltl.Atom(fmt.Sprintf("p%d", i))))
		}
		d, err := FromFormula(context.Background(), ltl.AndAll(fs...), Options{})
		require.NoError(t, err)
		// One state per subset of the p_i seen; from a state with k
		// atoms pending, 2^k successors (which pending atoms hold).
		tr := 1
		for range n {
			tr *= 3
		}
		assert.Equal(t, Stats{States: 1 << n, Transitions: tr}, d.Stats(), "F p1 & … & F p%d", n)
	}
}

// TestDFAPromela pins the never claim of a DFA: the rejecting sink and the
// edges into it are left out, as the thesis's claims block instead.
func TestDFAPromela(t *testing.T) {
	d, err := FromFormula(context.Background(), ltl.MustParse("a U b"), Options{})
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, d.WritePromela(&b, "a U b"))
	assert.Equal(t, `never { /* a U b */
S0:
    if
    :: (a && !b) -> goto S0
    :: (b) -> goto accept_S1
    fi;

accept_S1:
    if
    :: (1) -> goto accept_S1
    fi;
}
`, b.String())
}

// TestDOTIsValidGraphviz runs Graphviz's dot on the output (skipped when
// dot is not installed), quoted atoms and formulas with quotes included.
func TestDOTIsValidGraphviz(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("graphviz dot is not installed; skipping")
	}
	for _, src := range []string{`"field == 0" U "myMethod(int).z > 0"`, `G("a\"b" -> F "c\\d")`, "false", "X X p"} {
		d, err := FromFormula(context.Background(), ltl.MustParse(src), Options{})
		require.NoError(t, err)
		var b strings.Builder
		require.NoError(t, d.WriteDOT(&b))
		cmd := exec.Command("dot", "-Tplain")
		cmd.Stdin = strings.NewReader(b.String())
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s:\n%s\n%s", src, b.String(), out)
		assert.Equal(t, d.NumStates()+1, strings.Count(string(out), "\nnode "), "%s", src)
	}
}
