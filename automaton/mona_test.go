package automaton

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file runs MONA (Debian package mona) on the standard LTLf →
// first-order translation that LTLf2DFA uses, for the comparison tests and
// benchmarks: positions are first-order variables, atom a is the
// second-order variable of the positions where a holds, the formula is
// asserted at position 0, and the future operators quantify over
// positions up to max($).

// monaFormula returns the MONA program (m2l-str) for a pure future formula.
func monaFormula(f ltl.Formula) (string, error) {
	atoms := f.Atoms()
	vars := map[string]string{}
	for i, a := range atoms {
		vars[a] = fmt.Sprintf("A%d", i)
	}
	fresh := 0
	newVar := func() string {
		fresh++
		return fmt.Sprintf("v%d", fresh)
	}
	var tr func(f ltl.Formula, v string) (string, error)
	tr = func(f ltl.Formula, v string) (string, error) {
		var l, r string
		var err error
		if f.Op().Arity() >= 1 && f.Op().IsBoolean() {
			if l, err = tr(f.Left(), v); err != nil {
				return "", err
			}
			if f.Op().Arity() == 2 {
				if r, err = tr(f.Right(), v); err != nil {
					return "", err
				}
			}
		}
		w, u := newVar(), newVar()
		sub := func(g ltl.Formula, at string) string {
			s, e := tr(g, at)
			if e != nil {
				err = e
			}
			return s
		}
		var s string
		switch f.Op() {
		case ltl.OpTrue:
			return "true", nil
		case ltl.OpFalse:
			return "false", nil
		case ltl.OpAtom:
			return fmt.Sprintf("(%s in %s)", v, vars[f.Name()]), nil
		case ltl.OpNot:
			return "~" + l, nil
		case ltl.OpAnd:
			return "(" + l + " & " + r + ")", nil
		case ltl.OpOr:
			return "(" + l + " | " + r + ")", nil
		case ltl.OpImplies:
			return "(" + l + " => " + r + ")", nil
		case ltl.OpIff:
			return "(" + l + " <=> " + r + ")", nil
		case ltl.OpXor:
			return "~(" + l + " <=> " + r + ")", nil
		case ltl.OpNext:
			s = fmt.Sprintf("(ex1 %s: %s = %s + 1 & %s <= max($) & %s)", w, w, v, w, sub(f.Left(), w))
		case ltl.OpWeakNext:
			s = fmt.Sprintf("(%s = max($) | (ex1 %s: %s = %s + 1 & %s <= max($) & %s))", v, w, w, v, w, sub(f.Left(), w))
		case ltl.OpEventually:
			s = fmt.Sprintf("(ex1 %s: %s <= %s & %s <= max($) & %s)", w, v, w, w, sub(f.Left(), w))
		case ltl.OpAlways:
			s = fmt.Sprintf("(all1 %s: (%s <= %s & %s <= max($)) => %s)", w, v, w, w, sub(f.Left(), w))
		case ltl.OpUntil, ltl.OpWeakUntil:
			s = fmt.Sprintf("(ex1 %s: %s <= %s & %s <= max($) & %s & (all1 %s: (%s <= %s & %s < %s) => %s))",
				w, v, w, w, sub(f.Right(), w), u, v, u, u, w, sub(f.Left(), u))
			if f.Op() == ltl.OpWeakUntil {
				s = fmt.Sprintf("(%s | (all1 %s: (%s <= %s & %s <= max($)) => %s))", s, u, v, u, u, sub(f.Left(), u))
			}
		case ltl.OpRelease, ltl.OpStrongRelease:
			s = fmt.Sprintf("(ex1 %s: %s <= %s & %s <= max($) & %s & (all1 %s: (%s <= %s & %s <= %s) => %s))",
				w, v, w, w, sub(f.Left(), w), u, v, u, u, w, sub(f.Right(), u))
			if f.Op() == ltl.OpRelease {
				s = fmt.Sprintf("(%s | (all1 %s: (%s <= %s & %s <= max($)) => %s))", s, u, v, u, u, sub(f.Right(), u))
			}
		default:
			return "", fmt.Errorf("no MONA translation for %s", f.Op())
		}
		return s, err
	}
	body, err := tr(f, "0")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\nm2l-str;\n", f)
	if len(atoms) > 0 {
		names := make([]string, len(atoms))
		for i, a := range atoms {
			names[i] = vars[a]
		}
		fmt.Fprintf(&b, "var2 %s;\n", strings.Join(names, ", "))
	}
	b.WriteString(body + ";\n")
	return b.String(), nil
}

// monaResult is what one MONA run reports.
type monaResult struct {
	states int // states of MONA's DFA, its dummy initial state included
	// acceptsEmpty: the state after MONA's dummy initial step accepts,
	// that is MONA's verdict on the empty string.
	acceptsEmpty bool
	elapsed      time.Duration // wall time of the mona process
	cpu          time.Duration // CPU time (user and system) of the mona process
}

var (
	monaStates    = regexp.MustCompile(`Automaton has (\d+) states?`)
	monaAccepting = regexp.MustCompile(`(?m)^Accepting states: ([\d ]*)$`)
	monaInitial   = regexp.MustCompile(`(?m)^Initial state: (\d+)$`)
)

// errMONATimeout is returned when MONA exceeds its time limit.
var errMONATimeout = errors.New("MONA timed out")

// runMONA writes f's MONA program to dir and runs `mona -q -u -w` on it.
func runMONA(ctx context.Context, dir string, f ltl.Formula, timeout time.Duration) (monaResult, error) {
	prog, err := monaFormula(f)
	if err != nil {
		return monaResult{}, err
	}
	path := filepath.Join(dir, "f.mona")
	if err := os.WriteFile(path, []byte(prog), 0o644); err != nil {
		return monaResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "mona", "-q", "-u", "-w", path)
	start := time.Now()
	out, err := cmd.Output()
	elapsed := time.Since(start)
	if ctx.Err() == context.DeadlineExceeded {
		return monaResult{elapsed: elapsed}, errMONATimeout
	}
	if err != nil {
		return monaResult{}, fmt.Errorf("mona: %w", err)
	}
	m := monaStates.FindSubmatch(out)
	acc := monaAccepting.FindSubmatch(out)
	ini := monaInitial.FindSubmatch(out)
	if m == nil || acc == nil || ini == nil {
		return monaResult{}, fmt.Errorf("mona: no automaton in the output: %.200s", out)
	}
	res := monaResult{elapsed: elapsed, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	res.states, _ = strconv.Atoi(string(m[1]))
	// The dummy initial state's single transition: "State I: X… -> state K".
	step := regexp.MustCompile(`(?m)^State ` + string(ini[1]) + `: [X01]* -> state (\d+)$`).FindSubmatch(out)
	if step == nil {
		return monaResult{}, fmt.Errorf("mona: no transition from the initial state: %.300s", out)
	}
	for _, a := range strings.Fields(string(acc[1])) {
		if a == string(step[1]) {
			res.acceptsEmpty = true
		}
	}
	return res, nil
}

// monaExpected is the number of states MONA reports for d's formula, given
// MONA's own verdict on the empty string (an M2L-Str artefact: it need not
// be LTLf's): MONA's DFA starts with a dummy state that reads one
// don't-care symbol and enters the initial state of the minimal DFA of
// L∖{ε}, plus ε when MONA accepts it. The dummy is rejecting and all its
// transitions enter that initial state, so minimization merges it with
// another state only when the language is empty (then MONA has one state,
// the sink).
func monaExpected(d *DFA, acceptsEmpty bool) int {
	n, empty := statesWithEmpty(d, acceptsEmpty)
	if n == 1 && empty {
		return 1
	}
	return n + 1
}

// statesWithEmpty returns the number of states of the minimal DFA of d's
// language with the empty trace's membership set to accept, and whether
// that language is empty. A fresh initial state with the initial state's
// transitions and the requested acceptance does it.
func statesWithEmpty(d *DFA, accept bool) (int, bool) {
	e := &DFA{}
	*e = *d
	e.roots = append(append([]int32{}, d.roots...), d.roots[d.initial])
	e.accept = append(append([]bool{}, d.accept...), accept)
	e.initial = int32(len(d.roots))
	m := minimize(e)
	return m.NumStates(), m.IsEmpty()
}

func requireMONA(t testing.TB) {
	if _, err := exec.LookPath("mona"); err != nil {
		t.Skip("mona is not installed (Debian package mona); skipping the MONA comparison")
	}
}

// TestMONAAgreesOnRandomFormulas compares minimal DFA sizes with MONA's on
// random pure future formulas (see monaExpected for how MONA's count
// relates to the minimal DFA).
func TestMONAAgreesOnRandomFormulas(t *testing.T) {
	requireMONA(t)
	const seed = 13
	n := 300
	if testing.Short() {
		n = 40
	}
	t.Logf("seed %d, %d formulas", seed, n)
	dir := t.TempDir()
	for _, f := range randomFormulas(seed, n, ltl.PureFuture) {
		if len(f.Atoms()) == 0 {
			continue // MONA prints no automaton for a closed formula
		}
		d, err := FromFormula(context.Background(), f, Options{})
		require.NoError(t, err)
		res, err := runMONA(t.Context(), dir, f, time.Minute)
		require.NoError(t, err, "%s", f)
		assert.Equal(t, res.states, monaExpected(d, res.acceptsEmpty), "seed %d: %s", seed, f)
	}
}

// TestMONAProgram pins the translation of one formula with every operator
// kind.
func TestMONAProgram(t *testing.T) {
	p, err := monaFormula(ltl.MustParse("a U N b"))
	require.NoError(t, err)
	assert.Equal(t, `# a U N b
m2l-str;
var2 A0, A1;
(ex1 v1: 0 <= v1 & v1 <= max($) & (v1 = max($) | (ex1 v3: v3 = v1 + 1 & v3 <= max($) & (v3 in A1))) & (all1 v2: (0 <= v2 & v2 < v1) => (v2 in A0)));
`, p)
}
