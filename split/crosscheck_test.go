package split

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/stretchr/testify/require"
)

// randomProgram builds a small random composition of n copies of one
// template: shared x (Boolean) and y (0..2), local loc (0..3).
func randomProgram(rng *rand.Rand, n int) *Program {
	p := NewProgram("random")
	x := p.Bool("x")
	y := p.Int("y", 0, 2)
	p.Init(Ref(x))
	p.Init(Is(y, 0))
	sharedAtom := func(kind, k int) Expr {
		switch kind {
		case 0:
			return Ref(x)
		case 1:
			return Not(Ref(x))
		case 2:
			return Is(y, k%3)
		case 3:
			return Lt(Ref(y), Int(1+k%2))
		}
		return True()
	}
	type cmd struct {
		from, to, to2 int
		guard, k      int // sharedAtom(guard, k)
		setX          int // 0 none, 1 true, 2 false, 3 toggle
		setY          int // 0 none, 1 inc, 2 const self mod 3, 3 zero
	}
	var cmds []cmd
	for range 2 + rng.IntN(4) {
		cmds = append(cmds, cmd{from: rng.IntN(4), to: rng.IntN(4), to2: rng.IntN(5) - 1,
			guard: rng.IntN(5), k: rng.IntN(6), setX: rng.IntN(4), setY: rng.IntN(4)})
	}
	compassion := rng.IntN(2) == 0
	for i := 1; i <= n; i++ {
		pr := p.Process(fmt.Sprintf("P[%d]", i))
		pr.SetTemplate("P")
		loc := pr.Int("loc", 0, 3)
		pr.Init(Is(loc, 0))
		for ci, c := range cmds {
			guard := And(Is(loc, c.from), sharedAtom(c.guard, c.k))
			var val Expr = Int(c.to)
			if c.to2 >= 0 && c.to2 != c.to {
				val = OneOf(Int(c.to), Int(c.to2))
			}
			ups := []Update{Set(loc, val)}
			switch c.setX {
			case 1:
				ups = append(ups, Set(x, True()))
			case 2:
				ups = append(ups, Set(x, False()))
			case 3:
				ups = append(ups, Set(x, Not(Ref(x))))
			}
			switch c.setY {
			case 1:
				ups = append(ups, Set(y, Min(Add(Ref(y), Int(1)), Int(2))))
			case 2:
				ups = append(ups, Set(y, Int(i%3)))
			case 3:
				ups = append(ups, Set(y, Int(0)))
			}
			pr.Command(fmt.Sprintf("c%d", ci), guard, ups...)
		}
		pr.Scheduled()
		if compassion && i == 1 {
			pr.Compassion(Ref(x), Is(loc, 0))
		}
	}
	return p
}

func randomInvariant(rng *rand.Rand, p *Program) *Property {
	ps := p.Processes()
	l1, l2 := ps[0].Locals()[0], ps[1].Locals()[0]
	x, y := p.Lookup("x"), p.Lookup("y")
	var e Expr
	switch rng.IntN(4) {
	case 0:
		e = Not(And(Is(l1, rng.IntN(4)), Is(l2, rng.IntN(4))))
	case 1:
		e = Implies(Ref(x), Ne(Ref(y), Int(rng.IntN(3))))
	case 2:
		e = Implies(Is(l1, rng.IntN(4)), Ref(x))
	default:
		e = Implies(Is(l2, rng.IntN(4)), Is(y, rng.IntN(3)))
	}
	return NewInvariant("random", e)
}

func randomLTL(rng *rand.Rand, p *Program) *Property {
	l1 := p.Processes()[0].Locals()[0]
	x, y := p.Lookup("x"), p.Lookup("y")
	atoms := map[string]Expr{}
	atom := func(e Expr) ltl.Formula {
		atoms[e.String()] = e
		return ltl.QuotedAtom(e.String())
	}
	a, b := rng.IntN(4), rng.IntN(4)
	var f ltl.Formula
	switch rng.IntN(5) {
	case 0:
		f = ltl.Always(ltl.Implies(atom(Is(l1, a)), ltl.Eventually(atom(Is(l1, b)))))
	case 1:
		f = ltl.Always(ltl.Eventually(atom(Ref(x))))
	case 2:
		f = ltl.Eventually(ltl.Always(atom(Is(y, rng.IntN(3)))))
	case 3:
		f = ltl.Always(ltl.Implies(atom(Ref(x)), ltl.Eventually(atom(Not(Ref(x))))))
	default:
		f = ltl.Always(ltl.Eventually(atom(Is(l1, a))))
	}
	return NewLTL("random", f, atoms)
}

// Compositional verdicts agree with monolithic model checking on random
// programs, and counterexamples replay.
func TestCrossCheckRandomPrograms(t *testing.T) {
	seed := uint64(77)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	programs := 60
	if testing.Short() {
		programs = 4 // sequential, rounds, chaotic, sequential
	}
	unknown := 0
	verdicts := map[string]int{}
	for i := range programs {
		n := 2 + rng.IntN(2)
		p := randomProgram(rng, n)
		props := []*Property{randomInvariant(rng, p), randomLTL(rng, p)}
		for _, prop := range props {
			want, _, err := CheckMonolithic(context.Background(), p, prop, 0)
			require.NoError(t, err)
			require.NotEqual(t, Unknown, want.Verdict, want.Reason)
			verdicts[fmt.Sprintf("%s %s", prop.Kind, want.Verdict)]++
			variants := []Variant{VariantB}
			if prop.Kind == KindLTL {
				variants = append(variants, VariantA)
			}
			for _, v := range variants {
				// Sequential, parallel in rounds, parallel chaotic.
				workers, sched := 1+min(i%3, 1), Schedule(max(i%3-1, 0))
				{
					got, err := Check(context.Background(), p, prop, Options{Variant: v, Workers: workers, Schedule: sched})
					require.NoError(t, err, "program %d %s", i, prop)
					if got.Verdict == Unknown {
						unknown++
						t.Logf("program %d %s (%s): unknown: %s", i, prop, v, got.Reason)
						continue
					}
					require.Equal(t, want.Verdict, got.Verdict, "program %d (seed %d) %s variant %s workers %d %s: %s", i, seed, prop, v, workers, sched, got.Reason)
					if got.Counterexample != nil {
						require.NoError(t, p.Replay(got.Counterexample))
					}
				}
			}
		}
	}
	t.Logf("verdicts: %v", verdicts)
	require.LessOrEqual(t, unknown, programs/10, "too many unknown verdicts")
}
