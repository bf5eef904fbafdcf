// Command synth is a runnable tour of GR(1) synthesis with henceforth's synth
// package: it specifies a traffic light in LTL, asks whether a controller
// exists, runs the synthesized one, shows the unrealizable core of a
// conflicting variant with the environment's winning play, and checks a
// hand-written controller against the specification.
//
//	go run ./examples/synth
//
// The same crossing is in traffic.structuredslugs (and, with the conflicting
// guarantees, traffic_strict.structuredslugs) for the command line:
//
//	go run ./cmd/ltl synth examples/synth/traffic.structuredslugs
//
// traffic_test.go checks it the way a test would, with ltltest.Realizable,
// Synthesize and Conforms; packages trafficcircuit (a circuit, ltl synth's
// default) and trafficctl (an explicit machine, ltl synth -explicit) hold
// the controllers that ltl synth generated from it.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/henceforth-go/henceforth/synth"
)

// trafficSpec is a crossing with a light per direction. Cars keep waiting
// until they get green; the lights never show green together, and every
// waiting direction gets green infinitely often. With strict, every car must
// get green at once, which cannot be met when cars arrive from both sides.
func trafficSpec(strict bool) (*synth.Spec, error) {
	guarantees := []string{
		"!greenNS && !greenEW",
		"G !(greenNS && greenEW)",
		"G F(carNS -> greenNS)",
		"G F(carEW -> greenEW)",
	}
	if strict {
		guarantees = append(guarantees, "G(carNS -> greenNS)", "G(carEW -> greenEW)")
	}
	return synth.FromLTL("traffic",
		synth.Bools("carNS", "carEW"), synth.Bools("greenNS", "greenEW"),
		[]string{
			"G(carNS && !greenNS -> X carNS)",
			"G(carEW && !greenEW -> X carEW)",
		},
		guarantees)
}

// Light is a hand-written controller: it alternates between the directions
// that have cars waiting.
type Light struct {
	started bool
	nextEW  bool
}

// Step answers one step's inputs.
func (l *Light) Step(in map[string]int) (map[string]int, error) {
	out := map[string]int{"greenNS": 0, "greenEW": 0}
	if !l.started {
		l.started = true
		return out, nil
	}
	ew := in["carEW"] == 1 && (l.nextEW || in["carNS"] == 0)
	ns := in["carNS"] == 1 && !ew
	out["greenNS"], out["greenEW"] = b2i(ns), b2i(ew)
	if ns || ew {
		l.nextEW = ns
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func run(ctx context.Context, w io.Writer) error {
	spec, err := trafficSpec(false)
	if err != nil {
		return err
	}
	res, err := spec.Realizable(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "traffic:", res)
	ctrl, err := res.Controller(ctx)
	if err != nil {
		return err
	}
	m, err := ctrl.Mealy(ctx, 0)
	if err != nil {
		return err
	}
	m = m.Minimize()
	if err := m.Verify(ctx, spec); err != nil {
		return err
	}
	fmt.Fprintf(w, "controller: %d states, verified\n", len(m.States))
	// Cars arrive on this schedule and wait until they get green.
	r := m.Run()
	waiting := map[string]int{"carNS": 0, "carEW": 0}
	arrivals := []map[string]int{{}, {"carNS": 1, "carEW": 1}, {}, {}, {"carEW": 1}, {}, {}}
	for _, arrive := range arrivals {
		for car := range arrive {
			waiting[car] = 1
		}
		in := map[string]int{"carNS": waiting["carNS"], "carEW": waiting["carEW"]}
		out, err := r.Step(in)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  cars NS=%d EW=%d -> green NS=%d EW=%d\n", in["carNS"], in["carEW"], out["greenNS"], out["greenEW"])
		if out["greenNS"] == 1 {
			waiting["carNS"] = 0
		}
		if out["greenEW"] == 1 {
			waiting["carEW"] = 0
		}
	}

	strict, err := trafficSpec(true)
	if err != nil {
		return err
	}
	res, err = strict.Realizable(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "strict traffic:", res)
	core, err := res.Core(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "conflicting guarantees:")
	for _, c := range core.Clauses {
		fmt.Fprintln(w, "  "+c.Text)
	}
	cs, err := res.Counterstrategy(ctx)
	if err != nil {
		return err
	}
	env, err := cs.Moore(ctx, 0)
	if err != nil {
		return err
	}
	play := env.Run()
	for step := 0; ; step++ {
		in := play.Inputs()
		fmt.Fprintf(w, "  environment: cars NS=%d EW=%d\n", in["carNS"], in["carEW"])
		// A system that favours north-south.
		out := map[string]int{"greenNS": in["carNS"], "greenEW": in["carEW"] * (1 - in["carNS"])}
		if err := play.Step(out); err != nil {
			fmt.Fprintln(w, "  the system loses:", err)
			break
		}
	}

	check, err := synth.Conforms(ctx, spec, func() synth.Stepper { return &Light{} }, synth.ConformOptions{
		State: func(s synth.Stepper) any { return *s.(*Light) },
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "hand-written Light conforms: %v (complete: %v)\n", check.Violation == nil, check.Complete)
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
