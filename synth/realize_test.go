package synth

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The benchmark inputs: the Slugs distribution's examples and the AMBA
// AHB arbiter for n masters in three formats.
const slugsDir = "testdata/bench/slugs"
const ambaDir = "testdata/bench/amba"

// benchmarkPath returns the path of a benchmark input, failing the test
// if it is missing.
func benchmarkPath(t testing.TB, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("benchmark input %s: %v", p, err)
	}
	return p
}

func TestSlugsExamples(t *testing.T) {
	cases := []struct {
		file string
		want bool
	}{
		{"simple_safety_example.slugsin", true},
		{"unrealizable1.slugsin", false},
		{"firefighting.slugsin", true},
		{"water_reservoir.structuredslugs", true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			spec, err := ParseFile(benchmarkPath(t, slugsDir, c.file))
			require.NoError(t, err)
			checkAnswer(t, spec, c.want)
		})
	}
}

func TestOwnSpecs(t *testing.T) {
	cases := []struct {
		file string
		want bool
		core []string // texts of the expected core
	}{
		{"arbiter.structuredslugs", true, nil},
		{"counter.structuredslugs", true, nil},
		{"conflict.slugsin", false, []string{"| ! a' x'", "| ! b' y'", "! & x' y'"}},
		{"starve.structuredslugs", false, []string{"busy' -> !serve'", "serve"}},
		{"handshake.tlsf", true, nil},
		{"e1_strict.tlsf", false, []string{"X x <-> X y", "!y"}},
		{"e1_implication.tlsf", true, nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			spec, err := ParseFile(filepath.Join("testdata", "specs", c.file))
			require.NoError(t, err)
			res := checkAnswer(t, spec, c.want)
			if c.core != nil {
				core, err := res.Core(context.Background())
				require.NoError(t, err)
				var texts []string
				for _, cl := range core.Clauses {
					texts = append(texts, cl.Text)
				}
				assert.Equal(t, c.core, texts)
			}
		})
	}
}

func TestUnrealizableOutputs(t *testing.T) {
	spec, err := ParseFile(filepath.Join("testdata", "specs", "conflict.slugsin"))
	require.NoError(t, err)
	ctx := context.Background()
	res, err := spec.Realizable(ctx)
	require.NoError(t, err)
	require.False(t, res.Realizable)
	_, err = res.Controller(ctx)
	require.ErrorIs(t, err, ErrUnrealizable)
	// The counterstrategy forces a and b, after which no answer is legal:
	// replay it against a system that answers x whenever a holds.
	cs, err := res.Counterstrategy(ctx)
	require.NoError(t, err)
	m, err := cs.Moore(ctx, 0)
	require.NoError(t, err)
	run := m.Run()
	lost := false
	for range 10 {
		in := run.Inputs()
		out := map[string]int{"x": in["a"], "y": 1 - in["a"]}
		if err := run.Step(out); err != nil {
			lost = true
			assert.Contains(t, err.Error(), "violate the guarantees")
			break
		}
	}
	assert.True(t, lost, "the counterstrategy defeats the system within 10 steps")
}

func TestRealizableOutputs(t *testing.T) {
	spec, err := ParseFile(filepath.Join("testdata", "specs", "arbiter.structuredslugs"))
	require.NoError(t, err)
	ctx := context.Background()
	res, err := spec.Realizable(ctx)
	require.NoError(t, err)
	_, err = res.Counterstrategy(ctx)
	require.ErrorIs(t, err, ErrRealizable)
	_, err = res.Core(ctx)
	require.ErrorIs(t, err, ErrRealizable)
	c, err := res.Controller(ctx)
	require.NoError(t, err)
	assert.Positive(t, c.Nodes())
	m, err := c.Mealy(ctx, 0)
	require.NoError(t, err)
	run := m.Run()
	_, err = run.Step(map[string]int{"req0": 1, "req1": 0})
	require.Error(t, err, "ENV_INIT says no request initially")
	out, err := run.Step(map[string]int{"req0": 0, "req1": 0})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"grant0": 0, "grant1": 0, "owner": 2}, out)
	_, err = run.Step(map[string]int{"req0": 0})
	require.ErrorContains(t, err, "no value for req1")
	_, err = c.Mealy(ctx, 2)
	require.ErrorIs(t, err, ErrTooLarge)
}

func TestLift(t *testing.T) {
	for n := 2; n <= 4; n++ {
		if n == 4 && testing.Short() {
			continue
		}
		t.Run(liftSpec(t, n).Name, func(t *testing.T) {
			checkAnswer(t, liftSpec(t, n), true)
		})
	}
}

// TestStrictVersusImplication is the pair of examples of §3.1.3.3: strictly
// unrealizable, realizable as a plain implication.
func TestStrictVersusImplication(t *testing.T) {
	e1 := `[INPUT]
x
[OUTPUT]
y
[ENV_TRANS]
x'
[ENV_LIVENESS]
x <-> y
[SYS_TRANS]
x' <-> y'
[SYS_LIVENESS]
!y
`
	e2 := func(xmax, ymax string) string {
		return `[INPUT]
x: 0...` + xmax + `
[OUTPUT]
y: 0...` + ymax + `
[ENV_INIT]
x = 0
[ENV_TRANS]
x' > x
[SYS_INIT]
y = 0
[SYS_TRANS]
y' > y
`
	}
	cases := []struct {
		name             string
		text             string
		strict, implicit bool
	}{
		{"E1", e1, false, true},
		{"E2", e2("10", "5"), false, true},
		{"E2-dual", e2("5", "10"), true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := mustParse(t, c.name+".structuredslugs", c.text)
			checkAnswer(t, spec, c.strict)
			imp := spec.Clone()
			imp.Semantics = Implication
			checkAnswer(t, imp, c.implicit)
		})
	}
}

func trafficLight(t testing.TB, immediate bool) *Spec {
	spec := &Spec{Name: "traffic", Inputs: Bools("carNS", "carEW"), Outputs: Bools("greenNS", "greenEW")}
	for _, f := range []string{
		"G(carNS && !greenNS -> X carNS)",
		"G(carEW && !greenEW -> X carEW)",
	} {
		require.NoError(t, spec.Assume(f))
	}
	gs := []string{"!greenNS && !greenEW", "G !(greenNS && greenEW)"}
	if immediate {
		gs = append(gs, "G(carNS -> greenNS)", "G(carEW -> greenEW)")
	}
	gs = append(gs, "G F(carNS -> greenNS)", "G F(carEW -> greenEW)")
	for _, f := range gs {
		require.NoError(t, spec.Guarantee(f))
	}
	return spec
}

func TestTrafficLight(t *testing.T) {
	checkAnswer(t, trafficLight(t, false), true)
	res := checkAnswer(t, trafficLight(t, true), false)
	core, err := res.Core(context.Background())
	require.NoError(t, err)
	var texts []string
	for _, c := range core.Clauses {
		texts = append(texts, c.Text)
	}
	assert.Equal(t, []string{"G !(greenNS && greenEW)", "G(carNS -> greenNS)", "G(carEW -> greenEW)"}, texts)
	assert.Positive(t, core.Checks)
}

// TestAgainstExplicitSolver compares the BDD solver with an explicit-state
// one on random small specs, and checks every controller and
// counterstrategy.
func TestAgainstExplicitSolver(t *testing.T) {
	seed := uint64(20261122)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	count := 150
	if testing.Short() {
		count = 40
	}
	ctx := context.Background()
	realizable := 0
	for k := range count {
		spec := randomSpec(r, k)
		require.NoError(t, spec.Check(), "spec %d", k)
		eg := newExplicitGame(spec)
		win, want := eg.winning()
		res, err := spec.Realizable(ctx, WithoutEarlyTermination())
		require.NoError(t, err)
		require.Equal(t, want, res.Realizable, "seed %d spec %d:\n%s", seed, k, specText(spec))
		for s, vals := range eg.states {
			require.Equal(t, win[s], res.g.member(res.win, vals), "seed %d spec %d: winning state %v", seed, k, vals)
		}
		// With early termination and the other options the answer is the same.
		for _, opts := range [][]Option{nil, {WithoutFixpointReuse()}, {WithVarOrder(OrderDeclared)}, {WithMemoryLimit(64 << 20)}} {
			again, err := spec.Realizable(ctx, opts...)
			require.NoError(t, err)
			require.Equal(t, want, again.Realizable, "seed %d spec %d", seed, k)
		}
		if want {
			realizable++
			checkController(t, res)
		} else {
			checkCounterstrategy(t, res)
		}
		// Implication semantics: WriteSlugsin states it as the game of
		// Theorem 3.5, which the explicit solver then decides.
		imp := spec.Clone()
		imp.Semantics = Implication
		var buf bytes.Buffer
		require.NoError(t, WriteSlugsin(&buf, imp))
		written, err := ParseSlugsin("written.slugsin", &buf)
		require.NoError(t, err, "seed %d spec %d", seed, k)
		_, wantImp := newExplicitGame(written).winning()
		resImp, err := imp.Realizable(ctx)
		require.NoError(t, err)
		require.Equal(t, wantImp, resImp.Realizable, "seed %d spec %d (implication):\n%s", seed, k, specText(spec))
		if want {
			require.True(t, wantImp, "strict realizability implies realizability of the implication")
		}
		if resImp.Realizable {
			checkController(t, resImp)
		} else {
			checkCounterstrategy(t, resImp)
		}
	}
	t.Logf("%d of %d random specs realizable", realizable, count)
	assert.Greater(t, realizable, count/10)
	assert.Less(t, realizable, count-count/10)
}

func specText(s *Spec) string {
	var b []byte
	for _, c := range s.Clauses {
		b = append(b, c.Section.String()+": "+c.Expr.String()+"\n"...)
	}
	return string(b)
}

func TestOptionsAgreeOnLift(t *testing.T) {
	spec := liftSpec(t, 3)
	ctx := context.Background()
	base, err := spec.Realizable(ctx)
	require.NoError(t, err)
	for _, opts := range [][]Option{{WithoutFixpointReuse()}, {WithoutEarlyTermination()}, {WithVarOrder(OrderDeclared)}, {WithNodeTable(1 << 10)}, {WithNodeTable(1 << 10), WithMemoryLimit(8 << 20)}} {
		res, err := spec.Realizable(ctx, opts...)
		require.NoError(t, err)
		assert.Equal(t, base.Realizable, res.Realizable)
		assert.Equal(t, base.Stats.WinningNodes > 0, res.Stats.WinningNodes > 0)
	}
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := liftSpec(t, 3).Realizable(ctx)
	require.ErrorIs(t, err, context.Canceled)
}

// TestThesisReduction compares the controller with and without the thesis's
// merging of states that differ only in the goal counter: both realize the
// spec, and the reduced one is smaller.
func TestThesisReduction(t *testing.T) {
	ctx := context.Background()
	spec := liftSpec(t, 3)
	res, err := spec.Realizable(ctx)
	require.NoError(t, err)
	c, err := res.Controller(ctx)
	require.NoError(t, err)
	reduced, err := c.Mealy(ctx, 0)
	require.NoError(t, err)
	c.reduced = false
	plain, err := c.Mealy(ctx, 0)
	c.reduced = true
	require.NoError(t, err)
	require.NoError(t, plain.Verify(ctx, spec))
	require.NoError(t, reduced.Verify(ctx, spec))
	assert.Less(t, len(reduced.States), len(plain.States))
	assert.Less(t, len(reduced.Minimize().States), len(plain.Minimize().States))
}
