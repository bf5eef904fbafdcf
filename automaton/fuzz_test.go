package automaton

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/henceforth-go/henceforth/ltl"
)

// FuzzTranslate translates arbitrary formulas (those ltl.Parse accepts,
// small enough to translate quickly) and checks the monitor against the
// reference evaluator on a trace drawn from the fuzzer's bytes, with the
// past monitored and translated exactly. It must never panic.
func FuzzTranslate(f *testing.F) {
	for _, s := range []string{
		"G(req -> F ack)", "a U b", "X a & N b", "G(ack -> O req)", "F(p & Y X q)",
		"[a, b)s W start(c)", "(p M q) R !r", "H(p B q) <-> end(r)", "true", "X[!] false",
	} {
		f.Add(s, []byte{1, 2, 3, 0, 7})
	}
	atoms := []string{"a", "b", "c", "p", "q", "r", "req", "ack"}
	f.Fuzz(func(t *testing.T, src string, events []byte) {
		g, err := ltl.Parse(src)
		if err != nil || g.Size() > 24 || len(g.Atoms()) > 6 {
			return
		}
		trace := ltl.Sets{}
		for _, e := range events {
			ev := []string{}
			for i, a := range atoms {
				if e>>uint(i)&1 == 1 {
					ev = append(ev, a)
				}
			}
			trace = append(trace, ev)
		}
		for _, exact := range []bool{false, true} {
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			d, err := FromFormula(ctx, g, Options{ExactPast: exact, MaxStates: 20000})
			cancel()
			if errors.Is(err, ErrTooLarge) || errors.Is(err, context.DeadlineExceeded) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", g, err)
			}
			m := d.Monitor()
			for _, ev := range trace {
				m.StepAtoms(ev...)
			}
			if want := ltl.Eval(g, trace, ltl.LTLf); m.Verdict().Holds() != want {
				t.Fatalf("%s (exact past %v) on %v: monitor says %s, Eval %v", g, exact, trace, m.Verdict(), want)
			}
		}
	})
}
