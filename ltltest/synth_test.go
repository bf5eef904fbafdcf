package ltltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/synth"
)

// trafficSpec is a crossing with a light per direction: cars wait until they
// get green, the lights are never green together, and each waiting
// direction gets green infinitely often. With immediate, every waiting car
// must get green at once, which conflicts with the mutual exclusion.
func trafficSpec(t *testing.T, immediate bool) *synth.Spec {
	t.Helper()
	guarantees := []string{"!greenNS && !greenEW", "G !(greenNS && greenEW)", "G F(carNS -> greenNS)", "G F(carEW -> greenEW)"}
	if immediate {
		guarantees = append(guarantees, "G(carNS -> greenNS)", "G(carEW -> greenEW)")
	}
	spec, err := synth.FromLTL("traffic", synth.Bools("carNS", "carEW"), synth.Bools("greenNS", "greenEW"),
		[]string{"G(carNS && !greenNS -> X carNS)", "G(carEW && !greenEW -> X carEW)"}, guarantees)
	require.NoError(t, err)
	return spec
}

func TestRealizablePasses(t *testing.T) {
	ft := &fakeT{}
	assert.True(t, ltltest.Realizable(ft, trafficSpec(t, false)))
	assert.Empty(t, ft.errors)
	ltltest.RequireRealizable(ft, trafficSpec(t, false))
	assert.False(t, ft.stopped)
}

func TestRealizableFailureShowsCoreAndCounterstrategy(t *testing.T) {
	ft := &fakeT{}
	ok := ltltest.Realizable(ft, trafficSpec(t, true), "crossing %d", 1)
	require.False(t, ok)
	out := ft.output()
	assert.Contains(t, out, "ltltest: specification is unrealizable\n")
	assert.Contains(t, out, "spec: traffic (strict semantics)")
	assert.Contains(t, out, "unrealizable core (with all the assumptions, these guarantees already conflict):\n"+
		"\t  guarantee 2:1:1 SYS_TRANS: G !(greenNS && greenEW)\n"+
		"\t  guarantee 5:1:1 SYS_TRANS: G(carNS -> greenNS)\n"+
		"\t  guarantee 6:1:1 SYS_TRANS: G(carEW -> greenEW)\n")
	assert.NotContains(t, out, "G F(carNS -> greenNS)", "the liveness guarantees are not part of the conflict")
	assert.Contains(t, out, "counterstrategy: the environment wins with a")
	assert.Contains(t, out, "step 0: inputs {carNS=")
	assert.Contains(t, out, "no output is allowed: the system must violate a guarantee")
	assert.Contains(t, out, "message: crossing 1")
	assert.False(t, ft.stopped)

	ft = &fakeT{}
	ltltest.RequireRealizable(ft, trafficSpec(t, true))
	assert.True(t, ft.stopped)
}

func TestRealizableFailureShowsStarvingLoop(t *testing.T) {
	spec, err := synth.FromLTL("starve", synth.Bools("busy"), synth.Bools("serve"), nil,
		[]string{"G(X busy -> X !serve)", "G F serve"})
	require.NoError(t, err)
	ft := &fakeT{}
	require.False(t, ltltest.Realizable(ft, spec))
	out := ft.output()
	assert.Contains(t, out, "guarantee 1:1:1 SYS_TRANS: G(X busy -> X !serve)")
	assert.Contains(t, out, "guarantee 2:1:1 SYS_LIVENESS: G F serve")
	assert.Contains(t, out, "inputs {busy=1} → outputs {serve=0}")
	assert.Contains(t, out, "forever: the assumptions hold, but guarantee 2:1:1 SYS_LIVENESS: G F serve is never met")
}

func TestUnrealizable(t *testing.T) {
	ft := &fakeT{}
	assert.True(t, ltltest.Unrealizable(ft, trafficSpec(t, true)))
	assert.Empty(t, ft.errors, "a passing Unrealizable reports nothing")

	ft = &fakeT{}
	assert.False(t, ltltest.Unrealizable(ft, trafficSpec(t, false), "expected a conflict"))
	out := ft.output()
	assert.Contains(t, out, "ltltest: specification is realizable, but unrealizable was expected")
	assert.Contains(t, out, "a controller exists (symbolic strategy of")
	assert.Contains(t, out, "as a minimized Mealy machine:")
	assert.Contains(t, out, "message: expected a conflict")
	assert.False(t, ft.stopped)

	ft = &fakeT{}
	ltltest.RequireUnrealizable(ft, trafficSpec(t, false))
	assert.True(t, ft.stopped)
}

func TestMalformedSpecFailsTheTest(t *testing.T) {
	spec := &synth.Spec{Name: "dup", Inputs: synth.Bools("a", "a")}
	ft := &fakeT{}
	assert.False(t, ltltest.Realizable(ft, spec))
	assert.Contains(t, ft.output(), "ltltest: malformed specification")
	assert.Contains(t, ft.output(), "variable a declared twice")

	ft = &fakeT{}
	assert.False(t, ltltest.Unrealizable(ft, nil))
	assert.Contains(t, ft.output(), "ltltest: nil specification")

	ft = &fakeT{}
	assert.Nil(t, ltltest.Synthesize(ft, spec))
	assert.Contains(t, ft.output(), "malformed specification")

	ft = &fakeT{}
	assert.False(t, ltltest.Conforms(ft, spec, &mapLight{}))
	assert.Contains(t, ft.output(), "malformed specification")
}

func TestSynthesizeReturnsARunnableController(t *testing.T) {
	spec := trafficSpec(t, false)
	// Both forms of the controller, the checked circuit and the explicit
	// machine, run the same way behind synth.Stepper.
	for _, c := range []struct {
		name string
		run  func(ft *fakeT) func() synth.Stepper
	}{
		{"circuit", func(ft *fakeT) func() synth.Stepper {
			circ := ltltest.Synthesize(ft, spec)
			if circ == nil {
				return nil
			}
			return func() synth.Stepper {
				run, err := circ.Run()
				require.NoError(t, err)
				return run
			}
		}},
		{"explicit", func(ft *fakeT) func() synth.Stepper {
			m := ltltest.SynthesizeExplicit(ft, spec)
			if m == nil {
				return nil
			}
			return func() synth.Stepper { return m.Run() }
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ft := &fakeT{}
			fresh := c.run(ft)
			require.NotNil(t, fresh, ft.output())
			assert.Empty(t, ft.errors)
			// Run it: with cars waiting on both sides the lights never show
			// green together, and each waiting car gets green within a few
			// steps.
			run := fresh()
			waiting := map[string]int{"carNS": 0, "carEW": 0}
			served := map[string]int{}
			for step := range 8 {
				if step == 1 {
					waiting["carNS"], waiting["carEW"] = 1, 1
				}
				out, err := run.Step(map[string]int{"carNS": waiting["carNS"], "carEW": waiting["carEW"]})
				require.NoError(t, err, "step %d", step)
				assert.False(t, out["greenNS"] == 1 && out["greenEW"] == 1, "step %d: both green", step)
				for car, light := range map[string]string{"carNS": "greenNS", "carEW": "greenEW"} {
					if out[light] == 1 && waiting[car] == 1 {
						waiting[car] = 0
						served[car]++
					}
				}
			}
			assert.Equal(t, map[string]int{"carNS": 1, "carEW": 1}, served)
			// And the synthesized controller conforms to its spec.
			assert.True(t, ltltest.Conforms(ft, spec, fresh, ltltest.WithConformDepth(8)), ft.output())
		})
	}

	for _, synthesize := range []func(ltltest.TestingT, *synth.Spec, ...any) bool{
		func(t ltltest.TestingT, s *synth.Spec, args ...any) bool {
			return ltltest.Synthesize(t, s, args...) != nil
		},
		func(t ltltest.TestingT, s *synth.Spec, args ...any) bool {
			return ltltest.SynthesizeExplicit(t, s, args...) != nil
		},
	} {
		ft := &fakeT{}
		assert.False(t, synthesize(ft, trafficSpec(t, true)))
		assert.Contains(t, ft.output(), "ltltest: specification is unrealizable: no controller to synthesize")
		assert.Contains(t, ft.output(), "guarantee 5:1:1 SYS_TRANS: G(carNS -> greenNS)")
	}

	ft := &fakeT{}
	assert.Nil(t, ltltest.SynthesizeExplicit(ft, spec, ltltest.WithMaxControllerStates(2)))
	assert.Contains(t, ft.output(), "ltltest: cannot enumerate the controller")
	assert.Contains(t, ft.output(), "WithMaxControllerStates")

	ft = &fakeT{}
	assert.Nil(t, ltltest.RequireSynthesize(ft, trafficSpec(t, true)))
	assert.True(t, ft.stopped)
	ft = &fakeT{}
	assert.Nil(t, ltltest.RequireSynthesizeExplicit(ft, trafficSpec(t, true)))
	assert.True(t, ft.stopped)
}

// mapLight is a hand-written traffic light with synth.Stepper's map-valued
// Step: it alternates between the directions that have cars waiting. bug
// selects a faulty variant.
type mapLight struct {
	started bool
	nextEW  bool
	bug     string
}

func (l *mapLight) Step(in map[string]int) (map[string]int, error) {
	out := map[string]int{"greenNS": 0, "greenEW": 0}
	if !l.started {
		l.started = true
		return out, nil
	}
	switch {
	case l.bug == "both" && in["carNS"] == 1 && in["carEW"] == 1:
		out["greenNS"], out["greenEW"] = 1, 1
	case l.bug == "starveEW":
		out["greenNS"] = in["carNS"]
	default:
		ew := in["carEW"] == 1 && (l.nextEW || in["carNS"] == 0)
		ns := in["carNS"] == 1 && !ew
		if ew {
			out["greenEW"] = 1
		}
		if ns {
			out["greenNS"] = 1
		}
		if ns || ew {
			l.nextEW = ns
		}
	}
	return out, nil
}

// TrafficInputs and TrafficOutputs are the typed inputs and outputs of
// typedLight, shaped like the structs synth.Mealy.WriteGo generates.
type TrafficInputs struct {
	CarNS bool
	CarEW bool
}

type TrafficOutputs struct {
	GreenNS bool
	Green   bool `synth:"greenEW"`
}

// typedLight is mapLight with typed inputs and outputs; it rejects inputs
// before it has started when reject is set.
type typedLight struct {
	started, nextEW, reject bool
}

func (l *typedLight) Step(in TrafficInputs) (TrafficOutputs, bool) {
	if !l.started {
		l.started = true
		return TrafficOutputs{}, !l.reject || !in.CarNS
	}
	ew := in.CarEW && (l.nextEW || !in.CarNS)
	ns := in.CarNS && !ew
	if ns || ew {
		l.nextEW = ns
	}
	return TrafficOutputs{GreenNS: ns, Green: ew}, true
}

// plainLight is typedLight with a Step that cannot reject inputs.
type plainLight struct{ l typedLight }

func (p *plainLight) Step(in TrafficInputs) TrafficOutputs {
	out, _ := p.l.Step(in)
	return out
}

func TestConformsPasses(t *testing.T) {
	spec := trafficSpec(t, false)
	ft := &fakeT{}
	assert.True(t, ltltest.Conforms(ft, spec, &mapLight{}))
	assert.True(t, ltltest.Conforms(ft, spec, &typedLight{}))
	assert.True(t, ltltest.Conforms(ft, spec, func() *typedLight { return &typedLight{} }))
	assert.True(t, ltltest.Conforms(ft, spec, &plainLight{}))
	assert.Empty(t, ft.errors, ft.output())
	ltltest.RequireConforms(ft, spec, &mapLight{})
	assert.False(t, ft.stopped)
}

func TestConformsShowsShortestViolatingInputs(t *testing.T) {
	spec := trafficSpec(t, false)
	ft := &fakeT{}
	require.False(t, ltltest.Conforms(ft, spec, &mapLight{bug: "both"}, "light %s", "both"))
	out := ft.output()
	assert.Contains(t, out, "ltltest: implementation violates the specification")
	assert.Contains(t, out, "implementation: *ltltest_test.mapLight")
	assert.Contains(t, out, "clause: guarantee 2:1:1 SYS_TRANS: G !(greenNS && greenEW)")
	// Both cars arrive at step 1; the light shows both greens, which the
	// clause (without next) rejects as the source of step 2.
	assert.Contains(t, out, "shortest input sequence (3 steps):\n"+
		"\t  step 0: inputs {carNS=0 carEW=0} → outputs {greenNS=0 greenEW=0}\n"+
		"\t  step 1: inputs {carNS=1 carEW=1} → outputs {greenNS=1 greenEW=1}\n"+
		"\t  step 2: inputs {carNS=")
	assert.Contains(t, out, "message: light both")
	assert.False(t, ft.stopped)

	ft = &fakeT{}
	ltltest.RequireConforms(ft, spec, &mapLight{bug: "both"})
	assert.True(t, ft.stopped)
}

func TestConformsShowsStarvingLoop(t *testing.T) {
	ft := &fakeT{}
	require.False(t, ltltest.Conforms(ft, trafficSpec(t, false), &mapLight{bug: "starveEW"}))
	out := ft.output()
	assert.Contains(t, out, "violation (liveness): a loop keeps every assumption but never meets liveness guarantee")
	assert.Contains(t, out, "never meets liveness guarantee")
	assert.Contains(t, out, "carEW -> greenEW")
	assert.Contains(t, out, "then forever:\n")
	assert.Contains(t, out, "inputs {carNS=0 carEW=1} → outputs {greenNS=0 greenEW=0}")
}

func TestConformsRejectedInput(t *testing.T) {
	ft := &fakeT{}
	require.False(t, ltltest.Conforms(ft, trafficSpec(t, false), &typedLight{reject: true}))
	out := ft.output()
	assert.Contains(t, out, "the implementation rejects inputs {carNS=1 carEW=0} that the assumptions allow: Step returned ok=false")
	assert.Contains(t, out, "shortest input sequence (0 steps)")
}

// echo answers each input a with output b = a, as the spec echoSpec
// demands. It counts its steps, so its states never repeat, or logs its
// inputs in a slice, so its states cannot be compared.
type echo struct {
	steps int
}

func (e *echo) Step(in map[string]int) (map[string]int, error) {
	e.steps++
	return map[string]int{"b": in["a"]}, nil
}

type loggingEcho struct {
	log []int
	bug bool
}

func (e *loggingEcho) Step(in map[string]int) (map[string]int, error) {
	e.log = append(e.log, in["a"])
	if e.bug && len(e.log) == 4 {
		return map[string]int{"b": 1 - in["a"]}, nil
	}
	return map[string]int{"b": in["a"]}, nil
}

func echoSpec(t *testing.T) *synth.Spec {
	spec, err := synth.FromLTL("echo", synth.Bools("a"), synth.Bools("b"), nil, []string{"G(X b <-> X a)", "G F(b || !a)"})
	require.NoError(t, err)
	return spec
}

func TestConformsUnknownIsNotAPass(t *testing.T) {
	spec := echoSpec(t)
	// The state of an implementation with a slice cannot be compared:
	// liveness is unchecked, so the answer is unknown.
	ft := &fakeT{}
	assert.False(t, ltltest.Conforms(ft, spec, func() synth.Stepper { return &loggingEcho{} }))
	out := ft.output()
	assert.Contains(t, out, "ltltest: conformance unknown")
	assert.Contains(t, out, "the liveness guarantees, cannot be checked")
	assert.Contains(t, out, "WithConformDepth")

	// A state that grows with every step: the depth bound is reached.
	ft = &fakeT{}
	assert.False(t, ltltest.Conforms(ft, spec, &echo{}))
	assert.Contains(t, ft.output(), "behaviours longer than 12 steps were not explored")

	// Explicitly bounded, the same checks pass.
	ft = &fakeT{}
	assert.True(t, ltltest.Conforms(ft, spec, &echo{}, ltltest.WithConformDepth(5)))
	assert.True(t, ltltest.Conforms(ft, spec, func() synth.Stepper { return &loggingEcho{} }, ltltest.WithConformDepth(5)))
	assert.Empty(t, ft.errors, ft.output())
	// A bounded check still finds a violation within the bound, and not
	// one beyond it.
	assert.False(t, ltltest.Conforms(ft, spec, func() synth.Stepper { return &loggingEcho{bug: true} }, ltltest.WithConformDepth(5)))
	assert.Contains(t, ft.output(), "G(X b <-> X a)")
	assert.Contains(t, ft.output(), "shortest input sequence (4 steps)")
	ft = &fakeT{}
	assert.True(t, ltltest.Conforms(ft, spec, func() synth.Stepper { return &loggingEcho{bug: true} }, ltltest.WithConformDepth(3)), ft.output())
}

type sharedLight struct {
	log map[string]int
}

func (s *sharedLight) Step(in map[string]int) (map[string]int, error) { return nil, nil }

type badOutputs struct{}

func (badOutputs) Step(in TrafficInputs) (struct{ GreenNS bool }, bool) {
	return struct{ GreenNS bool }{}, true
}

type intForBool struct{}

func (*intForBool) Step(in TrafficInputs) (struct {
	GreenNS int
	GreenEW bool
}, error) {
	return struct {
		GreenNS int
		GreenEW bool
	}{}, nil
}

func TestConformsRejectsUnusableImplementations(t *testing.T) {
	spec := trafficSpec(t, false)
	cases := []struct {
		name string
		impl any
		want string
	}{
		{"shared", &sharedLight{}, "field log would be shared between the copies; pass a constructor func() *ltltest_test.sharedLight instead"},
		{"value", badOutputs{}, "is neither a pointer to a struct nor a constructor"},
		{"nil", nil, "the implementation is nil"},
		{"no step", &struct{ x int }{}, "has no Step method"},
		{"ctor args", func(int) *mapLight { return nil }, "a constructor must be a func() T"},
		{"missing output", func() badOutputs { return badOutputs{} }, "has no field for output greenEW"},
		{"no bool field", &intForBool{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ft := &fakeT{}
			ok := ltltest.Conforms(ft, spec, c.impl)
			if c.want == "" {
				// Integer fields may hold Boolean variables (as 0/1).
				assert.NotContains(t, ft.output(), "cannot run the implementation")
				return
			}
			assert.False(t, ok)
			assert.Contains(t, ft.output(), "ltltest: cannot run the implementation")
			assert.Contains(t, ft.output(), c.want)
		})
	}
}

func TestConformsImplicationUnsupported(t *testing.T) {
	spec := trafficSpec(t, false)
	spec.Semantics = synth.Implication
	ft := &fakeT{}
	assert.False(t, ltltest.Conforms(ft, spec, &mapLight{}))
	assert.Contains(t, ft.output(), "ltltest: cannot check the implementation")
	assert.Contains(t, ft.output(), "Strict semantics only")
}

// panicky panics on its third step when a is given.
type panicky struct{ steps int }

func (p *panicky) Step(in map[string]int) (map[string]int, error) {
	p.steps++
	if p.steps == 3 && in["a"] == 1 {
		panic("boom")
	}
	return map[string]int{"b": in["a"]}, nil
}

func TestConformsReportsAPanicWithItsInputs(t *testing.T) {
	ft := &fakeT{}
	require.False(t, ltltest.Conforms(ft, echoSpec(t), &panicky{}))
	out := ft.output()
	assert.Contains(t, out, "the implementation rejects inputs {a=1} that the assumptions allow: Step panicked: boom")
	assert.Contains(t, out, "shortest input sequence (2 steps):\n\t  step 0: inputs {a=0} → outputs {b=0}\n\t  step 1: inputs {a=0} → outputs {b=0}")
}

func TestConformsStepBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("explores 200000 steps")
	}
	// Sequences of up to 17 steps over one free input are 2^18-2 steps:
	// more than the budget, so even the bounded check is unknown.
	ft := &fakeT{}
	assert.False(t, ltltest.Conforms(ft, echoSpec(t), func() synth.Stepper { return &loggingEcho{} }, ltltest.WithConformDepth(17)))
	assert.Contains(t, ft.output(), "ltltest: conformance unknown")
	assert.Contains(t, ft.output(), "the exploration stopped at 200000 steps before covering every input sequence of up to 17 steps")
}
