package ltl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/vectors"
	"github.com/henceforth-go/henceforth/ltl"
)

// TestSimplifyForms checks what Simplify rewrites to, per semantics.
func TestSimplifyForms(t *testing.T) {
	tests := []struct {
		src      string
		ltlf, rh string // "" means unchanged
	}{
		{"!!p", "p", "p"},
		{"!!!p", "!p", "!p"},
		{"p && true", "p", "p"},
		{"true && p", "p", "p"},
		{"p && false", "false", "false"},
		{"p || true", "true", "true"},
		{"false || p", "p", "p"},
		{"p && p", "p", "p"},
		{"p || p", "p", "p"},
		{"p && !p", "false", "false"},
		{"!p || p", "true", "true"},
		{"p && (p || q)", "p", "p"},
		{"(q || p) && p", "p", "p"},
		{"p || (q && p)", "p", "p"},
		{"(p && q) && p", "p && q", "p && q"},
		{"q || (p || q)", "p || q", "p || q"},
		{"p ^ p", "false", "false"},
		{"p ^ !p", "true", "true"},
		{"p ^ false", "p", "p"},
		{"true ^ !p", "p", "p"},
		{"p -> p", "true", "true"},
		{"false -> p", "true", "true"},
		{"true -> p", "p", "p"},
		{"p -> false", "!p", "!p"},
		{"!p -> false", "p", "p"},
		{"p <-> true", "p", "p"},
		{"p <-> false", "!p", "!p"},
		{"p <-> !p", "false", "false"},
		{"p <-> p", "true", "true"},
		{"!(p && !false)", "!p", "!p"},
		{"X false", "false", "false"},
		{"N true", "true", "true"},
		{"F false", "false", "false"},
		{"G true", "true", "true"},
		{"F F p", "F p", "F p"},
		{"G G G p", "G p", "G p"},
		{"p U false", "false", "false"},
		{"true U p", "F p", "F p"},
		{"true U F p", "F p", "F p"},
		{"p W true", "true", "true"},
		{"p W false", "G p", "G p"},
		{"p R true", "true", "true"},
		{"false R p", "G p", "G p"},
		{"p M false", "false", "false"},
		{"false M p", "false", "false"},
		{"Y false", "false", "false"},
		{"Z true", "true", "true"},
		{"O false", "false", "false"},
		{"H true", "true", "true"},
		{"O O p", "O p", "O p"},
		{"H H p", "H p", "H p"},
		{"p S false", "false", "false"},
		{"true S p", "O p", "O p"},
		{"p B true", "true", "true"},
		{"p B false", "H p", "H p"},
		{"start(true)", "false", "false"},
		{"end(false)", "false", "false"},
		{"[false, p)s", "false", "false"},
		{"[p, true)s", "false", "false"},
		{"[p, false)s", "O p", "O p"},
		{"[p, false)w", "true", "true"},
		{"[false, !p)w", "H p", "H p"},
		{"G(p -> true) && F(q || false)", "F q", "F q"},
		// Valid only when every range is non-empty (RosuHavelund).
		{"F true", "", "true"},
		{"O true", "", "true"},
		{"H false", "", "false"},
		{"Y true", "", "true"},
		{"Z false", "", "false"},
		{"false U p", "", "p"},
		{"false S p", "", "p"},
		{"p U p", "", "p"},
		{"p M p", "", "p"},
		{"p S p", "", "p"},
		{"[p, true)w", "", "false"},
		// Never valid on finite traces.
		{"X true", "", ""},
		{"G false", "", ""},
		{"p W p", "", ""},
		{"p R p", "", ""},
		{"p B p", "", ""},
		{"true M p", "", ""},
		{"true R p", "", ""},
	}
	traces := allTraces([]string{"p", "q"}, 0, 4)
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f := ltl.MustParse(tt.src)
			for _, c := range []struct {
				sem  ltl.Semantics
				want string
			}{{ltl.LTLf, tt.ltlf}, {ltl.RosuHavelund, tt.rh}} {
				want := c.want
				if want == "" {
					want = f.String()
				}
				got := ltl.Simplify(f, c.sem)
				assert.Equal(t, want, got.String(), "%v", c.sem)
				tr, pos, differ := firstDifference(f, got, traces, c.sem)
				assert.False(t, differ, "%v: %v simplified to %v differs on %v at %d", c.sem, f, got, tr, pos)
			}
		})
	}
}

// TestSimplifyOmittedRules shows, with a counterexample, why the rules that
// look valid but are absent would change verdicts.
func TestSimplifyOmittedRules(t *testing.T) {
	tests := []struct {
		sem      ltl.Semantics
		from, to string
		minLen   int    // shortest trace tried
		trace    string // the first counterexample, in states notation
		pos      int    // where it differs; -1 means nowhere (the rule holds)
	}{
		{ltl.LTLf, "X true", "true", 1, "{}", 0},           // no next position at the end
		{ltl.LTLf, "Y true", "true", 1, "{}", 0},           // Y is false at the first position
		{ltl.LTLf, "F true", "true", 1, "", -1},            // holds on non-empty traces...
		{ltl.LTLf, "F true", "true", 0, "", 0},             // ...but the empty trace has no position
		{ltl.LTLf, "G false", "false", 0, "", 0},           // G holds on the empty trace
		{ltl.LTLf, "p U p", "p", 0, "", -1},                // holds for atoms (false on the empty trace)...
		{ltl.LTLf, "!p U !p", "!p", 0, "", 0},              // ...but not for every f
		{ltl.RosuHavelund, "G false", "false", 1, "{}", 1}, // differs at the virtual end position
		{ltl.RosuHavelund, "p W p", "p", 1, "{}", 1},       // W's G part excludes the virtual end
		{ltl.RosuHavelund, "X true", "true", 1, "{}", 1},   // false at the virtual end
		{ltl.RosuHavelund, "true R p", "p", 1, "{}", 1},    // R's range excludes the virtual end
		{ltl.RosuHavelund, "!F !p", "G p", 1, "{}", 1},     // F and G are not duals
	}
	for _, tt := range tests {
		t.Run(tt.sem.String()+" "+tt.from, func(t *testing.T) {
			f, g := ltl.MustParse(tt.from), ltl.MustParse(tt.to)
			tr, pos, differ := firstDifference(f, g, allTraces([]string{"p"}, tt.minLen, 3), tt.sem)
			if tt.pos < 0 {
				assert.False(t, differ, "differ on %v at %d", tr, pos)
				return
			}
			require.True(t, differ)
			assert.Equal(t, vectors.ParseStates(tt.trace), tr)
			assert.Equal(t, tt.pos, pos)
			assert.Equal(t, f, ltl.Simplify(f, tt.sem), "Simplify must not rewrite %v", f)
		})
	}
}

// TestSimplifyLocalRules checks Simplify on every operator over operands
// that trigger its rules (constants, equal and complementary operands,
// nested temporal operators), on every trace of length 0…3 over two atoms
// (0…2 with -short).
func TestSimplifyLocalRules(t *testing.T) {
	maxLen := 3
	if testing.Short() {
		maxLen = 2
	}
	traces := allTraces([]string{"p", "q"}, 0, maxLen)
	operands := []ltl.Formula{ltl.True(), ltl.False(), p, ltl.Not(p), q, ltl.Eventually(p), ltl.Always(p), ltl.Once(p),
		ltl.Historically(p), ltl.Or(p, q), ltl.And(p, q), ltl.Not(ltl.Not(p))}
	for _, sem := range semantics {
		for _, f := range everyOperator(operands) {
			g := ltl.Simplify(f, sem)
			tr, pos, differ := firstDifference(f, g, traces, sem)
			require.False(t, differ, "%v: %v simplified to %v differs on %v at %d", sem, f, g, tr, pos)
			assert.Equal(t, g, ltl.Simplify(g, sem), "%v: Simplify is idempotent on %v", sem, f)
		}
	}
}

// TestSimplifyRandom checks Simplify on random formulas rich in constants.
func TestSimplifyRandom(t *testing.T) {
	cfg := ltl.RandomConfig{Atoms: []string{"p", "q"}, MaxDepth: 6, ConstWeight: 30}
	forRandomFormulas(t, 11, 4000, cfg, func(f ltl.Formula, sem ltl.Semantics, rng *rand.Rand) {
		g := ltl.Simplify(f, sem)
		require.LessOrEqual(t, treeSize(g), treeSize(f), "%v: %v simplified to %v", sem, f, g)
		require.Equal(t, g, ltl.Simplify(g, sem), "%v: Simplify(%v) is not a fixpoint", sem, f)
		for range 8 {
			tr := ltl.RandomTrace(rng, []string{"p", "q"}, 6)
			require.Equal(t, -1, difference(f, g, tr, sem), "%v: %v simplified to %v, on %v", sem, f, g, tr)
		}
	})
}

// TestSimplifyDeep checks that Simplify handles deep formulas.
func TestSimplifyDeep(t *testing.T) {
	fs := make([]ltl.Formula, 100_000)
	for i := range fs {
		fs[i] = ltl.Or(p, ltl.True())
	}
	assert.Equal(t, ltl.True(), ltl.Simplify(ltl.AndAll(fs...), ltl.LTLf))
}
