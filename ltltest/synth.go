package ltltest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"github.com/henceforth-go/henceforth/synth"
)

// This file holds the GR(1) synthesis helpers: Realizable, Unrealizable,
// Synthesize and Conforms, over specifications of package synth (parsed
// with synth.ParseFile or built in Go with synth.FromLTL / Spec.Assume /
// Spec.Guarantee).

// synthConfig holds the options of the synthesis helpers.
type synthConfig struct {
	opts         []synth.Option // for Spec.Realizable
	maxStates    int            // bound on explicit machines (0: synth's default)
	conformDepth int            // Conforms' explicit bound (0: default, unknown beyond)
	stopAt       string         // tests: the phase at which the helper's context ends
}

// Conforms' bounds: the default length of the explored input sequences, and
// the number of steps it explores at most.
const (
	synthConformDepth = 12
	synthConformSteps = 200000
)

// synthPlaySteps bounds the sample play of a counterstrategy shown in a
// failure report.
const synthPlaySteps = 12

// WithSynthOptions passes options (variable order, memory bound…) to the
// realizability check of Realizable, Unrealizable, Synthesize and
// SynthesizeExplicit, and to Synthesize's check of the circuit.
func WithSynthOptions(opts ...synth.Option) Option {
	return func(c *config) { c.synth.opts = append(c.synth.opts, opts...) }
}

// WithMaxControllerStates bounds the explicit machines the synthesis helpers
// enumerate: the controller SynthesizeExplicit returns and the
// counterstrategy a report shows (default synth.DefaultMaxStates).
func WithMaxControllerStates(n int) Option {
	return func(c *config) { c.synth.maxStates = n }
}

// WithConformDepth makes Conforms a bounded check: it explores the input
// sequences of up to n steps and passes when none of them shows a
// violation, even if longer behaviours were not explored and, for an
// implementation whose state cannot be compared, without checking the
// liveness guarantees (but not when the budget of 200000 explored steps ran
// out first). Without it, Conforms explores up to 12 steps and reports a
// check that could not cover every behaviour as unknown, which fails the
// test.
func WithConformDepth(n int) Option {
	return func(c *config) { c.synth.conformDepth = n }
}

// Realizable asserts that some system meets spec against every environment
// (GR(1) realizability under the spec's semantics). When it does not, the
// failure shows the unrealizable core — a minimal set of guarantees that
// already conflict — and a play of the environment's winning strategy.
//
//	spec, err := synth.ParseFile("testdata/arbiter.structuredslugs")
//	require.NoError(t, err)
//	ltltest.Realizable(t, spec)
func Realizable(t TestingT, spec *synth.Spec, args ...any) bool {
	t.Helper()
	return synthExpect(t, true, spec, args)
}

// RequireRealizable is Realizable, stopping the test when the spec is not
// realizable.
func RequireRealizable(t TestingT, spec *synth.Spec, args ...any) {
	t.Helper()
	if !Realizable(t, spec, args...) {
		t.FailNow()
	}
}

// Unrealizable asserts that no system meets spec against every
// environment: use it to test that a specification rejects conflicting
// requirements. When the spec is realizable after all, the failure says so
// and gives the size of a controller.
func Unrealizable(t TestingT, spec *synth.Spec, args ...any) bool {
	t.Helper()
	return synthExpect(t, false, spec, args)
}

// synthExpect decides spec's realizability and reports an answer other
// than want.
func synthExpect(t TestingT, want bool, spec *synth.Spec, args []any) bool {
	t.Helper()
	r := newSynthRun(t, spec, args)
	defer r.cancel()
	res, ok := synthSolve(t, r)
	if !ok {
		return false
	}
	switch {
	case res.Realizable == want:
		return true
	case want:
		fail(t, "ltltest: specification is unrealizable", synthUnrealizableReport(r.ctx, res, r.cfg), r.msg)
	default:
		fail(t, "ltltest: specification is realizable, but unrealizable was expected", synthRealizableReport(r.ctx, res), r.msg)
	}
	return false
}

// RequireUnrealizable is Unrealizable, stopping the test when the spec is
// realizable.
func RequireUnrealizable(t TestingT, spec *synth.Spec, args ...any) {
	t.Helper()
	if !Unrealizable(t, spec, args...) {
		t.FailNow()
	}
}

// SynthesizeExplicit returns a controller that meets spec as an explicit,
// minimized Mealy machine (for small specs: Synthesize's circuit stays small
// where this machine is astronomically large), which the test runs with Run
// and Step (or prints with WriteGo, WriteDOT, WriteJSON). Before returning
// it, the machine is checked against spec by exhaustive exploration
// (synth.Mealy.Verify). When the spec is unrealizable it fails the test like
// Realizable and returns nil; when the machine would have more states than
// WithMaxControllerStates allows, or a bound of WithTimeout or WithMaxMemory
// is reached, it fails and returns nil.
//
//	ctrl := ltltest.SynthesizeExplicit(t, spec)
//	run := ctrl.Run()
//	out, err := run.Step(map[string]int{"carNS": 1, "carEW": 0})
func SynthesizeExplicit(t TestingT, spec *synth.Spec, args ...any) *synth.Mealy {
	t.Helper()
	r, c := synthController(t, spec, args)
	if c == nil {
		return nil
	}
	defer r.cancel()
	r.enter(phaseEnumerate)
	m, err := c.Mealy(r.ctx, r.cfg.synth.maxStates)
	if err != nil {
		if r.unknown(t, phaseEnumerate, err) {
			return nil
		}
		details := synthSpecLine(spec) + "error: " + err.Error()
		if errors.Is(err, synth.ErrTooLarge) {
			details += "\nraise the bound with ltltest.WithMaxControllerStates, or use ltltest.Synthesize for a symbolic controller"
		}
		fail(t, "ltltest: cannot enumerate the controller", details, r.msg)
		return nil
	}
	m = m.Minimize()
	r.enter(phaseCheckMachine)
	if err := m.Verify(r.ctx, spec); err != nil {
		if !r.unknown(t, phaseCheckMachine, err) {
			r.checkFailed(t, err)
		}
		return nil
	}
	return m
}

// RequireSynthesizeExplicit is SynthesizeExplicit, stopping the test when
// there is no checked machine.
func RequireSynthesizeExplicit(t TestingT, spec *synth.Spec, args ...any) *synth.Mealy {
	t.Helper()
	m := SynthesizeExplicit(t, spec, args...)
	if m == nil {
		t.FailNow()
	}
	return m
}

// Conforms asserts that a hand-written controller meets spec: it runs impl
// on every input sequence the environment's assumptions allow, breadth
// first up to a bound, and fails with the shortest input sequence on which
// impl violates a safety guarantee, rejects an allowed input, or — in a loop
// that keeps every assumption — starves a liveness guarantee.
//
// impl is one of:
//
//   - a pointer to a struct with a Step method; the struct is copied by value
//     for every explored behaviour (its current value is the initial state),
//     and its value identifies the state, which lets Conforms find loops and
//     check liveness. The struct may not contain pointers, maps, slices,
//     channels, functions or interfaces, which a copy would share;
//   - a constructor func() T returning a value with a Step method (any
//     type; its state is compared when it is a pointer to a struct of plain
//     values as above, and only safety is checked otherwise).
//
// The Step method is either synth.Stepper's
//
//	Step(in map[string]int) (map[string]int, error)
//
// (values by variable name, Booleans as 0 and 1) or typed, as the Go source
// that synth.Mealy.WriteGo generates:
//
//	Step(in In) (out Out, ok bool)   // or (Out, error), or just Out
//
// where In and Out are structs with a bool or int field per input and output
// variable, matched by name ignoring case and punctuation (a field tag
// `synth:"name"` names the variable explicitly). ok=false or a non-nil error
// means the implementation rejects the inputs.
//
// A panic in Step is reported like a rejected input, with the input
// sequence that causes it. A check that could not cover every behaviour
// within its bounds (input sequences of 12 steps, 200000 explored steps in
// all) is reported as unknown, which fails the test, unless
// WithConformDepth makes it explicitly bounded.
func Conforms(t TestingT, spec *synth.Spec, impl any, args ...any) bool {
	t.Helper()
	cfg, msg := parseArgs(args)
	if spec == nil {
		fail(t, "ltltest: nil specification", "", msg)
		return false
	}
	if err := spec.Check(); err != nil {
		fail(t, "ltltest: malformed specification", synthSpecLine(spec)+"error: "+err.Error(), msg)
		return false
	}
	newImpl, state, err := synthAdaptImpl(spec, impl)
	if err != nil {
		fail(t, "ltltest: cannot run the implementation", synthSpecLine(spec)+"error: "+err.Error(), msg)
		return false
	}
	depth := cfg.synth.conformDepth
	if depth <= 0 {
		depth = synthConformDepth
	}
	opts := synth.ConformOptions{MaxDepth: depth, MaxNodes: synthConformSteps, State: state}
	res, err := synth.Conforms(synthContext(t), spec, newImpl, opts)
	if err != nil {
		fail(t, "ltltest: cannot check the implementation", synthSpecLine(spec)+"error: "+err.Error(), msg)
		return false
	}
	if v := res.Violation; v != nil {
		fail(t, "ltltest: implementation violates the specification", synthViolationReport(spec, impl, v), msg)
		return false
	}
	truncated := res.Steps >= synthConformSteps
	if res.Complete || cfg.synth.conformDepth > 0 && !truncated {
		return true
	}
	var b strings.Builder
	b.WriteString(synthSpecLine(spec))
	fmt.Fprintf(&b, "implementation: %s\n", synthImplName(impl))
	fmt.Fprintf(&b, "no violation in %d explored steps, but not every behaviour was covered:\n", res.Steps)
	switch {
	case truncated:
		fmt.Fprintf(&b, "  the exploration stopped at %d steps before covering every input sequence of up to %d steps\n", synthConformSteps, depth)
	case state == nil:
		b.WriteString("  the implementation's state cannot be compared (not a pointer to a comparable struct),\n")
		b.WriteString("  so loops, and with them the liveness guarantees, cannot be checked\n")
	default:
		fmt.Fprintf(&b, "  behaviours longer than %d steps were not explored\n", depth)
	}
	if truncated {
		b.WriteString("pass a smaller ltltest.WithConformDepth(n)")
	} else {
		b.WriteString("pass ltltest.WithConformDepth(n) to accept a check bounded to n steps")
	}
	fail(t, "ltltest: conformance unknown", b.String(), msg)
	return false
}

// RequireConforms is Conforms, stopping the test when the implementation
// does not conform (or the answer is unknown).
func RequireConforms(t TestingT, spec *synth.Spec, impl any, args ...any) {
	t.Helper()
	if !Conforms(t, spec, impl, args...) {
		t.FailNow()
	}
}

// synthContext returns the test's context when t has one (testing.T does since
// Go 1.24), so a check stops when the test ends.
func synthContext(t TestingT) context.Context {
	if c, ok := t.(interface{ Context() context.Context }); ok {
		if ctx := c.Context(); ctx != nil {
			return ctx
		}
	}
	return context.Background()
}

// synthSolve checks r's spec and decides its realizability, reporting a
// malformed spec, a bound reached or a failed check.
func synthSolve(t TestingT, r *synthRun) (*synth.Result, bool) {
	t.Helper()
	spec := r.spec
	if spec == nil {
		fail(t, "ltltest: nil specification", "", r.msg)
		return nil, false
	}
	if err := spec.Check(); err != nil {
		fail(t, "ltltest: malformed specification", synthSpecLine(spec)+"error: "+err.Error(), r.msg)
		return nil, false
	}
	r.enter(phaseRealizability)
	res, err := spec.Realizable(r.ctx, r.opts...)
	if err != nil {
		if !r.unknown(t, phaseRealizability, err) {
			fail(t, "ltltest: cannot decide realizability", synthSpecLine(spec)+"error: "+err.Error(), r.msg)
		}
		return nil, false
	}
	return res, true
}

func synthSpecLine(spec *synth.Spec) string {
	name := spec.Name
	if name == "" {
		name = "(unnamed)"
	}
	return fmt.Sprintf("spec: %s (%s semantics)\n", name, spec.Semantics)
}

// synthUnrealizableReport explains an unrealizable spec: its core and a play of
// the counterstrategy.
func synthUnrealizableReport(ctx context.Context, res *synth.Result, cfg config) string {
	var b strings.Builder
	b.WriteString(synthSpecLine(res.Spec))
	if core, err := res.Core(ctx); err != nil {
		fmt.Fprintf(&b, "unrealizable core: cannot compute: %v\n", err)
	} else {
		b.WriteString("unrealizable core (with all the assumptions, these guarantees already conflict):\n")
		for _, c := range core.Clauses {
			b.WriteString("  " + c.String() + "\n")
		}
	}
	cs, err := res.Counterstrategy(ctx)
	var m *synth.Moore
	if err == nil {
		m, err = cs.Moore(ctx, cfg.synth.maxStates)
	}
	if err != nil {
		fmt.Fprintf(&b, "counterstrategy: cannot enumerate: %v\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "counterstrategy: the environment wins with a %d-state strategy; a play against a system\n", len(m.States))
	b.WriteString("that always gives the first output its guarantees allow:\n")
	synthWritePlay(&b, res.Spec, m)
	return b.String()
}

// synthWritePlay plays the counterstrategy m against the system that answers
// each step with the first allowed output, until the system has no allowed
// answer or the play repeats a state.
func synthWritePlay(b *strings.Builder, spec *synth.Spec, m *synth.Moore) {
	seen := map[int]int{}
	q := 0
	for step := 0; ; step++ {
		if at, ok := seen[q]; ok {
			st := m.States[q]
			starved := "a liveness guarantee"
			if live := spec.Section(synth.SysLiveness); st.Starves >= 0 && st.Starves < len(live) {
				starved = live[st.Starves].String()
			}
			fmt.Fprintf(b, "  then the play repeats from step %d forever: the assumptions hold, but %s is never met\n", at, starved)
			return
		}
		if step >= synthPlaySteps {
			b.WriteString("  …\n")
			return
		}
		seen[q] = step
		st := m.States[q]
		in := synthValues(spec.Inputs, st.Emit)
		if len(st.Edges) == 0 {
			fmt.Fprintf(b, "  step %d: inputs %s → no output is allowed: the system must violate a guarantee\n", step, in)
			return
		}
		e := st.Edges[0]
		fmt.Fprintf(b, "  step %d: inputs %s → outputs %s\n", step, in, synthValues(spec.Outputs, e.Output))
		q = e.To
	}
}

func synthRealizableReport(ctx context.Context, res *synth.Result) string {
	var b strings.Builder
	b.WriteString(synthSpecLine(res.Spec))
	c, err := res.Controller(ctx)
	if err != nil {
		fmt.Fprintf(&b, "controller: cannot extract: %v\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "a controller exists (symbolic strategy of %d BDD nodes)\n", c.Nodes())
	if m, err := c.Mealy(ctx, 1000); err == nil {
		m = m.Minimize()
		fmt.Fprintf(&b, "as a minimized Mealy machine: %d states, %d transitions\n", len(m.States), m.NumEdges())
	}
	return b.String()
}

// synthViolationReport shows a Conforms violation with its input sequence.
func synthViolationReport(spec *synth.Spec, impl any, v *synth.Violation) string {
	var b strings.Builder
	b.WriteString(synthSpecLine(spec))
	fmt.Fprintf(&b, "implementation: %s\n", synthImplName(impl))
	fmt.Fprintf(&b, "violation (%s): %s\n", v.Kind, v.Msg)
	if v.Clause != nil {
		fmt.Fprintf(&b, "clause: %s\n", v.Clause)
	}
	n := len(v.Stem)
	if len(v.Loop) == 0 {
		fmt.Fprintf(&b, "shortest input sequence (%d steps):\n", n)
	} else {
		fmt.Fprintf(&b, "input sequence (%d steps, then a loop of %d repeated forever):\n", n, len(v.Loop))
	}
	for i, s := range v.Stem {
		synthWriteStep(&b, spec, i, s)
	}
	if len(v.Loop) > 0 {
		b.WriteString("then forever:\n")
		for i, s := range v.Loop {
			synthWriteStep(&b, spec, n+i, s)
		}
	}
	return b.String()
}

func synthWriteStep(b *strings.Builder, spec *synth.Spec, i int, s synth.Step) {
	fmt.Fprintf(b, "  step %d: inputs %s → outputs %s\n", i, synthNamed(spec.Inputs, s.Inputs), synthNamed(spec.Outputs, s.Outputs))
}

// synthValues prints values of vars in declaration order: {a=1 n=3}.
func synthValues(vars []synth.Var, vals []int) string {
	parts := make([]string, 0, len(vars))
	for i, v := range vars {
		if i < len(vals) {
			parts = append(parts, fmt.Sprintf("%s=%d", v.Name, vals[i]))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func synthNamed(vars []synth.Var, vals map[string]int) string {
	parts := make([]string, 0, len(vars))
	for _, v := range vars {
		if x, ok := vals[v.Name]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", v.Name, x))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func synthImplName(impl any) string {
	if impl == nil {
		return "nil"
	}
	return reflect.TypeOf(impl).String()
}

// synthAdaptImpl turns what the caller passed to Conforms into a constructor of
// fresh implementations and, when their states can be compared, a function
// identifying the state.
func synthAdaptImpl(spec *synth.Spec, impl any) (func() synth.Stepper, func(synth.Stepper) any, error) {
	if impl == nil {
		return nil, nil, errors.New("the implementation is nil")
	}
	v := reflect.ValueOf(impl)
	var fresh func() reflect.Value
	switch {
	case v.Kind() == reflect.Func:
		ft := v.Type()
		if ft.NumIn() != 0 || ft.NumOut() != 1 {
			return nil, nil, fmt.Errorf("a constructor must be a func() T, not %s", ft)
		}
		if v.IsNil() {
			return nil, nil, errors.New("the constructor is a nil func")
		}
		fresh = func() reflect.Value {
			r := v.Call(nil)[0]
			if r.Kind() == reflect.Interface {
				r = r.Elem()
			}
			return r
		}
	case v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct:
		if v.IsNil() {
			return nil, nil, fmt.Errorf("the implementation is a nil %s", v.Type())
		}
		if path, ok := synthShareable(v.Type().Elem(), ""); !ok {
			return nil, nil, fmt.Errorf("%s cannot be copied for each explored behaviour: field %s would be shared between the copies; pass a constructor func() %s instead", v.Type(), path, v.Type())
		}
		initial := reflect.New(v.Type().Elem())
		initial.Elem().Set(v.Elem())
		fresh = func() reflect.Value {
			c := reflect.New(v.Type().Elem())
			c.Elem().Set(initial.Elem())
			return c
		}
	default:
		if _, ok := impl.(synth.Stepper); !ok && !v.MethodByName("Step").IsValid() {
			return nil, nil, fmt.Errorf("%s has no Step method", v.Type())
		}
		return nil, nil, fmt.Errorf("%s is neither a pointer to a struct nor a constructor func() T: Conforms needs a fresh implementation for every explored behaviour", v.Type())
	}
	sample := fresh()
	step, err := synthStepAdapter(spec, sample)
	if err != nil {
		return nil, nil, err
	}
	newImpl := func() synth.Stepper {
		x := fresh()
		return &synthAdapted{impl: x, step: step}
	}
	var state func(synth.Stepper) any
	if sample.Kind() == reflect.Pointer && !sample.IsNil() && sample.Type().Elem().Kind() == reflect.Struct && sample.Type().Elem().Comparable() {
		if _, ok := synthShareable(sample.Type().Elem(), ""); ok {
			state = func(s synth.Stepper) any { return s.(*synthAdapted).impl.Elem().Interface() }
		}
	}
	return newImpl, state, nil
}

// synthShareable reports whether a value of type t can be copied with assignment
// without the copies sharing mutable state; if not, it names the offending
// field.
func synthShareable(t reflect.Type, path string) (string, bool) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
		return path, false
	case reflect.Array:
		return synthShareable(t.Elem(), path+"[]")
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			p := f.Name
			if path != "" {
				p = path + "." + f.Name
			}
			if where, ok := synthShareable(f.Type, p); !ok {
				return where, false
			}
		}
	}
	return path, true
}

// synthAdapted is one fresh implementation behind the synth.Stepper interface.
type synthAdapted struct {
	impl reflect.Value
	step func(impl reflect.Value, in map[string]int) (map[string]int, error)
}

// Step runs the implementation's Step; a panic becomes an error, so that
// Conforms reports it with the input sequence that causes it.
func (a *synthAdapted) Step(in map[string]int) (out map[string]int, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("Step panicked: %v", r)
		}
	}()
	return a.step(a.impl, in)
}

var (
	synthErrorType = reflect.TypeFor[error]()
	synthMapType   = reflect.TypeFor[map[string]int]()
)

// synthStepAdapter inspects the Step method of sample's type and returns a
// function calling it with map-valued inputs and outputs.
func synthStepAdapter(spec *synth.Spec, sample reflect.Value) (func(reflect.Value, map[string]int) (map[string]int, error), error) {
	if _, ok := sample.Interface().(synth.Stepper); ok {
		return func(impl reflect.Value, in map[string]int) (map[string]int, error) {
			return impl.Interface().(synth.Stepper).Step(in)
		}, nil
	}
	m, ok := sample.Type().MethodByName("Step")
	if !ok {
		return nil, fmt.Errorf("%s has no Step method (want Step(map[string]int) (map[string]int, error), or Step(In) (Out, bool) with structs In and Out)", sample.Type())
	}
	mt := m.Type // receiver first
	bad := func(why string) error {
		return fmt.Errorf("%s.Step has type %s: %s", sample.Type(), m.Type, why)
	}
	if mt.NumIn() != 2 || mt.NumOut() < 1 || mt.NumOut() > 2 {
		return nil, bad("want one argument and one or two results")
	}
	inT, outT := mt.In(1), mt.Out(0)
	if inT == synthMapType || outT == synthMapType {
		return nil, bad("with maps, Step must be func(map[string]int) (map[string]int, error)")
	}
	var okKind int // 0: none, 1: bool, 2: error
	if mt.NumOut() == 2 {
		switch mt.Out(1) {
		case reflect.TypeFor[bool]():
			okKind = 1
		case synthErrorType:
			okKind = 2
		default:
			return nil, bad("the second result must be bool or error")
		}
	}
	inFields, err := synthFields(inT, spec.Inputs, "inputs")
	if err != nil {
		return nil, bad(err.Error())
	}
	outFields, err := synthFields(outT, spec.Outputs, "outputs")
	if err != nil {
		return nil, bad(err.Error())
	}
	method := m.Func
	return func(impl reflect.Value, in map[string]int) (map[string]int, error) {
		arg := reflect.New(inT).Elem()
		for i, v := range spec.Inputs {
			f := arg.Field(inFields[i])
			if f.Kind() == reflect.Bool {
				f.SetBool(in[v.Name] != 0)
			} else {
				f.SetInt(int64(in[v.Name]))
			}
		}
		res := method.Call([]reflect.Value{impl, arg})
		switch okKind {
		case 1:
			if !res[1].Bool() {
				return nil, errors.New("Step returned ok=false")
			}
		case 2:
			if e := res[1].Interface(); e != nil {
				return nil, e.(error)
			}
		}
		out := make(map[string]int, len(spec.Outputs))
		for i, v := range spec.Outputs {
			f := res[0].Field(outFields[i])
			if f.Kind() == reflect.Bool {
				out[v.Name] = synthB2i(f.Bool())
			} else {
				out[v.Name] = int(f.Int())
			}
		}
		return out, nil
	}, nil
}

func synthB2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// synthFields maps each variable to the index of the field of struct type t
// that holds it: the field tagged `synth:"name"`, or else the field whose
// name equals the variable's ignoring case and non-alphanumeric characters.
func synthFields(t reflect.Type, vars []synth.Var, what string) ([]int, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("the %s must be a struct, not %s", what, t)
	}
	byTag, byName := map[string]int{}, map[string][]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if tag, ok := f.Tag.Lookup("synth"); ok {
			byTag[tag] = i
			continue
		}
		byName[synthNormalize(f.Name)] = append(byName[synthNormalize(f.Name)], i)
	}
	idx := make([]int, len(vars))
	for k, v := range vars {
		i, ok := byTag[v.Name]
		if !ok {
			cands := byName[synthNormalize(v.Name)]
			switch len(cands) {
			case 0:
				return nil, fmt.Errorf("%s has no field for %s %s", t, strings.TrimSuffix(what, "s"), v.Name)
			case 1:
				i = cands[0]
			default:
				return nil, fmt.Errorf("%s has several fields matching %s; tag one `synth:%q`", t, v.Name, v.Name)
			}
		}
		f := t.Field(i)
		switch f.Type.Kind() {
		case reflect.Bool:
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		default:
			return nil, fmt.Errorf("field %s.%s for %s has type %s; want bool or a signed integer", t, f.Name, v.Name, f.Type)
		}
		if !v.Bool && f.Type.Kind() == reflect.Bool {
			return nil, fmt.Errorf("field %s.%s is a bool, but %s is an integer %d...%d", t, f.Name, v.Name, v.Lo, v.Hi)
		}
		idx[k] = i
	}
	return idx, nil
}

func synthNormalize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
