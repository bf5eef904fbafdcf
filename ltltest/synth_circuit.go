package ltltest

import (
	"github.com/henceforth-go/henceforth/synth"
)

// Synthesize returns a checked controller for spec: the synthesized strategy
// determinized symbolically into a decision graph (synth.Circuit), which
// stays small where an explicit machine is astronomically large (the AMBA
// arbiter; SynthesizeExplicit enumerates the explicit machine of a small
// spec). Before returning it, the circuit is model-checked against spec on
// the semantics of its and-inverter graph (synth.Circuit.Check, which does
// not reuse the synthesis fixpoint): a circuit that would violate the spec
// fails the test. The test runs it with Run and Step, or prints it with
// WriteGo (the generated Go has the Step(In) (Out, bool) API Conforms
// accepts), WriteJSON, WriteDOT or AIG.
//
// When the spec is unrealizable it fails the test like Realizable and
// returns nil. Every phase (realizability, extraction, determinization,
// check) stops at the bounds of WithTimeout and WithMaxMemory, and shortly
// before the test binary's deadline: the test then fails as "unknown" and
// Synthesize returns nil. WithSynthOptions passes options (variable order,
// synth.WithMemoryLimit…) to realizability and to the check.
//
//	circ := ltltest.Synthesize(t, spec)
//	run, _ := circ.Run()
//	out, err := run.Step(map[string]int{"hbusreq0": 1, "hready": 0})
func Synthesize(t TestingT, spec *synth.Spec, args ...any) *synth.Circuit {
	t.Helper()
	return synthesize(t, spec, args, nil)
}

// synthesize is Synthesize; a non-nil alter changes the circuit between
// its determinization and its check (the tests break circuits with it).
func synthesize(t TestingT, spec *synth.Spec, args []any, alter func(*synth.Circuit)) *synth.Circuit {
	t.Helper()
	r, c := synthController(t, spec, args)
	if c == nil {
		return nil
	}
	defer r.cancel()
	r.enter(phaseDeterminize)
	circ, err := c.Circuit(r.ctx)
	if err != nil {
		if !r.unknown(t, phaseDeterminize, err) {
			fail(t, "ltltest: cannot determinize the controller", synthSpecLine(spec)+"error: "+err.Error(), r.msg)
		}
		return nil
	}
	if alter != nil {
		alter(circ)
	}
	r.enter(phaseCheckCircuit)
	if err := circ.Check(r.ctx, spec, r.opts...); err != nil {
		if !r.unknown(t, phaseCheckCircuit, err) {
			r.checkFailed(t, err)
		}
		return nil
	}
	return circ
}

// RequireSynthesize is Synthesize, stopping the test when there is no
// checked controller.
func RequireSynthesize(t TestingT, spec *synth.Spec, args ...any) *synth.Circuit {
	t.Helper()
	c := Synthesize(t, spec, args...)
	if c == nil {
		t.FailNow()
	}
	return c
}

// synthController decides spec's realizability and extracts its symbolic
// controller, failing the test (and returning a nil controller) when the
// spec is malformed or unrealizable, a bound is reached or the extraction
// fails. When the controller is not nil, the caller cancels r.
func synthController(t TestingT, spec *synth.Spec, args []any) (*synthRun, *synth.Controller) {
	t.Helper()
	r := newSynthRun(t, spec, args)
	res, ok := synthSolve(t, r)
	if !ok {
		r.cancel()
		return r, nil
	}
	if !res.Realizable {
		fail(t, "ltltest: specification is unrealizable: no controller to synthesize", synthUnrealizableReport(r.ctx, res, r.cfg), r.msg)
		r.cancel()
		return r, nil
	}
	r.enter(phaseExtraction)
	c, err := res.Controller(r.ctx)
	if err != nil {
		if !r.unknown(t, phaseExtraction, err) {
			fail(t, "ltltest: cannot extract a controller", synthSpecLine(spec)+"error: "+err.Error(), r.msg)
		}
		r.cancel()
		return r, nil
	}
	return r, c
}
