package ltltest

import (
	"errors"

	"github.com/henceforth-go/henceforth/synth"
)

// SynthesizeCircuit returns a checked symbolic controller for spec: the
// synthesized strategy determinized into a decision graph (synth.Circuit),
// which stays small where the explicit machine of Synthesize is
// astronomically large (the AMBA arbiter). Before returning it, the circuit
// is model-checked against spec on the semantics of its and-inverter graph
// (synth.CheckAIG): a circuit that would violate the spec fails the test.
// The test runs it with Run and Step, or prints it with WriteGo, WriteJSON,
// WriteDOT or AIG. When the spec is unrealizable it fails the test like
// Realizable and returns nil. WithSynthOptions passes options (for example
// synth.WithMemoryLimit) to realizability and to the check.
//
//	circ := ltltest.SynthesizeCircuit(t, spec)
//	run, _ := circ.Run()
//	out, err := run.Step(map[string]int{"hbusreq0": 1, "hready": 0})
func SynthesizeCircuit(t TestingT, spec *synth.Spec, args ...any) *synth.Circuit {
	t.Helper()
	c, cfg, msg := synthController(t, spec, args)
	if c == nil {
		return nil
	}
	ctx := synthContext(t)
	circ, err := c.Circuit(ctx)
	if err != nil {
		fail(t, "ltltest: cannot determinize the controller", synthSpecLine(spec)+"error: "+err.Error(), msg)
		return nil
	}
	if err := circ.Check(ctx, spec, cfg.synth.opts...); err != nil {
		headline := "ltltest: cannot check the synthesized controller"
		if errors.Is(err, synth.ErrRefuted) {
			headline = "ltltest: the synthesized controller violates the specification"
		}
		fail(t, headline, synthSpecLine(spec)+"error: "+err.Error(), msg)
		return nil
	}
	return circ
}

// synthController decides spec's realizability and extracts its symbolic
// controller, failing the test (and returning nil) when the spec is
// malformed or unrealizable or the extraction fails.
func synthController(t TestingT, spec *synth.Spec, args []any) (*synth.Controller, config, []any) {
	t.Helper()
	cfg, msg := parseArgs(args)
	res, ok := synthSolve(t, spec, cfg, msg)
	if !ok {
		return nil, cfg, msg
	}
	ctx := synthContext(t)
	if !res.Realizable {
		fail(t, "ltltest: specification is unrealizable: no controller to synthesize", synthUnrealizableReport(ctx, res, cfg), msg)
		return nil, cfg, msg
	}
	c, err := res.Controller(ctx)
	if err != nil {
		fail(t, "ltltest: cannot extract a controller", synthSpecLine(spec)+"error: "+err.Error(), msg)
		return nil, cfg, msg
	}
	return c, cfg, msg
}

// RequireSynthesizeCircuit is SynthesizeCircuit, stopping the test when there
// is no checked controller.
func RequireSynthesizeCircuit(t TestingT, spec *synth.Spec, args ...any) *synth.Circuit {
	t.Helper()
	c := SynthesizeCircuit(t, spec, args...)
	if c == nil {
		t.FailNow()
	}
	return c
}
