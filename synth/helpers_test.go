package synth

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// mustParse parses a spec given as text in the format named by name's
// extension.
func mustParse(t testing.TB, name, text string) *Spec {
	t.Helper()
	spec, err := Parse(name, FormatOf(name), strings.NewReader(text))
	require.NoError(t, err)
	return spec
}

// maxTestStates bounds the explicit machines the tests enumerate.
const maxTestStates = 20000

// checkAnswer decides realizability, compares it with want, and checks
// what follows from the answer:
//
//   - realizable: the controller, as an explicit machine (when small) and
//     minimized, realizes the spec by exhaustive verification; its
//     symbolic run agrees with the machine along random lasso-shaped
//     environment behaviours;
//   - unrealizable: the counterstrategy defeats every system (verified
//     exhaustively), and the core is unrealizable and minimal.
func checkAnswer(t *testing.T, spec *Spec, want bool) *Result {
	t.Helper()
	ctx := context.Background()
	res, err := spec.Realizable(ctx)
	require.NoError(t, err)
	require.Equal(t, want, res.Realizable, "%s: realizability", spec.Name)
	if res.Realizable {
		checkController(t, res)
	} else {
		checkCounterstrategy(t, res)
		checkCore(t, res)
	}
	return res
}

func checkController(t *testing.T, res *Result) {
	t.Helper()
	ctx := context.Background()
	c, err := res.Controller(ctx)
	require.NoError(t, err)
	m, err := c.Mealy(ctx, maxTestStates)
	require.NoError(t, err)
	require.NoError(t, m.Verify(ctx, res.Spec), "%s: controller", res.Spec.Name)
	min := m.Minimize()
	require.LessOrEqual(t, len(min.States), len(m.States))
	require.NoError(t, min.Verify(ctx, res.Spec), "%s: minimized controller", res.Spec.Name)
	// The symbolic run and the explicit machine answer alike.
	seed := uint64(len(m.States))
	r := rand.New(rand.NewPCG(seed, 7))
	for range 5 {
		sym, exp := c.Run(), m.Run()
		for step := range 30 {
			var legal [][]int
			sym.LegalInputs(func(in []int) bool {
				legal = append(legal, in)
				return len(legal) < 64
			})
			if len(legal) == 0 {
				break
			}
			in := legal[r.IntN(len(legal))]
			a, err := sym.StepValues(in)
			require.NoError(t, err, "seed %d step %d", seed, step)
			b, err := exp.StepValues(in)
			require.NoError(t, err, "seed %d step %d", seed, step)
			require.Equal(t, b, a, "seed %d step %d", seed, step)
		}
	}
}

func checkCounterstrategy(t *testing.T, res *Result) {
	t.Helper()
	ctx := context.Background()
	cs, err := res.Counterstrategy(ctx)
	require.NoError(t, err)
	m, err := cs.Moore(ctx, maxTestStates)
	require.NoError(t, err)
	require.NoError(t, m.Verify(ctx, res.Spec), "%s: counterstrategy", res.Spec.Name)
}

func checkCore(t *testing.T, res *Result) {
	t.Helper()
	ctx := context.Background()
	core, err := res.Core(ctx)
	require.NoError(t, err)
	sub, err := core.Spec.Realizable(ctx)
	require.NoError(t, err)
	require.False(t, sub.Realizable, "%s: the core is unrealizable", res.Spec.Name)
	for i := range core.Clauses {
		smaller := core.Spec.Clone()
		smaller.Clauses = nil
		for _, c := range core.Spec.Clauses {
			if c.Pos == core.Clauses[i].Pos && c.Text == core.Clauses[i].Text && c.Section == core.Clauses[i].Section {
				continue
			}
			smaller.Clauses = append(smaller.Clauses, c)
		}
		r, err := smaller.Realizable(ctx)
		require.NoError(t, err)
		require.True(t, r.Realizable, "%s: the core without %s is realizable", res.Spec.Name, core.Clauses[i])
	}
}

// liftSpec is the thesis's lift controller for n floors (§3.1.3.4).
func liftSpec(t testing.TB, n int) *Spec {
	t.Helper()
	var ins, outs []string
	for j := 1; j <= n; j++ {
		ins = append(ins, fmt.Sprintf("b%d", j))
		outs = append(outs, fmt.Sprintf("f%d", j))
	}
	spec := &Spec{Name: fmt.Sprintf("lift%d", n), Inputs: Bools(ins...), Outputs: Bools(outs...)}
	var noButton []string
	for j := 1; j <= n; j++ {
		noButton = append(noButton, fmt.Sprintf("!b%d", j))
	}
	must := func(err error) {
		t.Helper()
		require.NoError(t, err)
	}
	must(spec.Assume(strings.Join(noButton, " && ")))
	for j := 1; j <= n; j++ {
		must(spec.Assume(fmt.Sprintf("G(b%[1]d && f%[1]d -> X !b%[1]d)", j)))
		must(spec.Assume(fmt.Sprintf("G(b%[1]d && !f%[1]d -> X b%[1]d)", j)))
	}
	var start, up, sb []string
	for j := 1; j <= n; j++ {
		if j == 1 {
			start = append(start, "f1")
		} else {
			start = append(start, fmt.Sprintf("!f%d", j))
		}
		if j < n {
			up = append(up, fmt.Sprintf("(f%d && X f%d)", j, j+1))
		}
		sb = append(sb, fmt.Sprintf("b%d", j))
	}
	must(spec.Guarantee(strings.Join(start, " && ")))
	upF := "false"
	if len(up) > 0 {
		upF = strings.Join(up, " || ")
	}
	sbF := strings.Join(sb, " || ")
	must(spec.Guarantee(fmt.Sprintf("G((%s) -> (%s))", upF, sbF)))
	for j := 1; j <= n; j++ {
		for k := j + 1; k <= n; k++ {
			must(spec.Guarantee(fmt.Sprintf("G !(f%d && f%d)", j, k)))
		}
		moves := []string{fmt.Sprintf("f%d", j)}
		if j > 1 {
			moves = append(moves, fmt.Sprintf("f%d", j-1))
		}
		if j < n {
			moves = append(moves, fmt.Sprintf("f%d", j+1))
		}
		must(spec.Guarantee(fmt.Sprintf("G(f%d -> X(%s))", j, strings.Join(moves, " || "))))
	}
	for j := 1; j <= n; j++ {
		must(spec.Guarantee(fmt.Sprintf("G F(b%[1]d -> f%[1]d)", j)))
	}
	must(spec.Guarantee(fmt.Sprintf("G F(f1 || %s)", sbF)))
	return spec
}

// randomSpec builds a small random spec (two Boolean inputs, one Boolean
// and one integer output) with random clauses in every section.
func randomSpec(r *rand.Rand, k int) *Spec {
	spec := &Spec{
		Name:    fmt.Sprintf("random%d", k),
		Inputs:  []Var{Bool("a"), Bool("b")},
		Outputs: []Var{Bool("x"), Int("n", 0, 2)},
	}
	atom := func(next, inputsOnly bool) *Expr {
		names := []string{"a", "b", "x", "n"}
		if inputsOnly {
			names = names[:2]
		}
		name := names[r.IntN(len(names))]
		v := mk(ExprVar, Pos{})
		v.Name = name
		var e *Expr
		if name == "n" {
			c := mk(ExprInt, Pos{})
			c.Val = r.IntN(3)
			e = mk([]ExprOp{ExprEq, ExprLt, ExprNe}[r.IntN(3)], Pos{}, v, c)
		} else {
			e = v
		}
		if next {
			e = mk(ExprNext, Pos{}, e)
		}
		if r.IntN(3) == 0 {
			e = mk(ExprNot, Pos{}, e)
		}
		return e
	}
	var formula func(depth int, next, nextInputsOnly, inputsOnly bool) *Expr
	formula = func(depth int, next, nextInputsOnly, inputsOnly bool) *Expr {
		if depth == 0 || r.IntN(3) == 0 {
			useNext := next && r.IntN(2) == 0
			return atom(useNext, inputsOnly || useNext && nextInputsOnly)
		}
		op := []ExprOp{ExprAnd, ExprOr, ExprImp, ExprIff}[r.IntN(4)]
		return mk(op, Pos{}, formula(depth-1, next, nextInputsOnly, inputsOnly), formula(depth-1, next, nextInputsOnly, inputsOnly))
	}
	add := func(sec Section, e *Expr) {
		spec.Clauses = append(spec.Clauses, Clause{Section: sec, Expr: e, Text: e.String()})
	}
	if r.IntN(2) == 0 {
		add(EnvInit, formula(1, false, false, true))
	}
	for range r.IntN(2) {
		add(EnvTrans, formula(2, true, true, false))
	}
	for range r.IntN(3) {
		add(EnvLiveness, formula(1, r.IntN(4) == 0, false, false))
	}
	if r.IntN(2) == 0 {
		add(SysInit, formula(1, false, false, false))
	}
	for range 1 + r.IntN(2) {
		add(SysTrans, formula(2, true, false, false))
	}
	for range r.IntN(3) {
		add(SysLiveness, formula(1, r.IntN(4) == 0, false, false))
	}
	return spec
}
