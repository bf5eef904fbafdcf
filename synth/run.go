package synth

import "fmt"

// Stepper is a reactive system stepped one input valuation at a time: a Run
// of a Mealy machine, a ControllerRun, or a hand-written implementation
// adapted to it. Values are keyed by variable name, Booleans as 0 and 1.
type Stepper interface {
	Step(in map[string]int) (out map[string]int, err error)
}

// ControllerRun steps the symbolic controller directly, without building
// the explicit machine (for controllers too large to enumerate).
type ControllerRun struct {
	c    *Controller
	st   *state
	v    view
	n    int
	kind StepKind
}

// Run starts an execution of the controller.
func (c *Controller) Run() *ControllerRun { return &ControllerRun{c: c} }

// Step reads the next inputs and returns the outputs; inputs that violate the
// assumptions are an error and the run stays where it was.
func (r *ControllerRun) Step(in map[string]int) (map[string]int, error) {
	spec := r.c.res.Spec
	vals, err := valuesOf(spec.Inputs, in)
	if err != nil {
		return nil, err
	}
	out, err := r.StepValues(vals)
	if err != nil {
		return nil, err
	}
	return namedValues(spec.Outputs, out), nil
}

// StepValues is Step with values in declaration order.
func (r *ControllerRun) StepValues(in []int) ([]int, error) {
	c := r.c
	spec := c.res.Spec
	if len(in) != len(spec.Inputs) {
		return nil, fmt.Errorf("synth: step %d: %d input values for %d inputs", r.n, len(in), len(spec.Inputs))
	}
	var next state
	var ok bool
	if r.st == nil {
		next, ok = c.first(in)
		r.kind = StepInit
	} else {
		next, r.kind, ok = c.step(*r.st, r.v, in)
	}
	if err := c.g.sp.Err(); err != nil {
		return nil, fmt.Errorf("synth: step %d: %w", r.n, err)
	}
	if !ok {
		return nil, fmt.Errorf("synth: step %d: inputs %s violate the assumptions", r.n, formatValues(spec.Inputs, in))
	}
	r.st = &next
	r.v = c.at(next)
	r.n++
	nIn := len(spec.Inputs)
	return next.vals[nIn : nIn+len(spec.Outputs)], c.g.sp.Err()
}

// Kind returns the kind of the last step.
func (r *ControllerRun) Kind() StepKind { return r.kind }

// Goal returns the index of the liveness guarantee pursued now (-1 before
// the first step).
func (r *ControllerRun) Goal() int {
	if r.st == nil {
		return -1
	}
	return r.st.mem
}

// LegalInputs calls fn with every input valuation the environment may give
// next (in declaration order), stopping when fn returns false.
func (r *ControllerRun) LegalInputs(fn func(in []int) bool) {
	r.c.g.legalInputs(r.st, fn)
}
