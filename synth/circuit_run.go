package synth

import (
	"errors"
	"fmt"
)

// Validate reports whether the circuit is well formed: node children
// before their parents, signals and roots in range, a Next for every latch
// and as many roots as computed bits. Every method of Circuit checks it
// first, so a hand-edited or decoded Circuit cannot make them panic.
func (c *Circuit) Validate() error {
	nsig := int32(len(c.Latches) + len(c.InputBits))
	for i, n := range c.Nodes {
		id := int32(i + 2)
		if n.Signal < 0 || n.Signal >= nsig {
			return fmt.Errorf("synth: circuit %s: node %d reads signal %d of %d", c.Name, id, n.Signal, nsig)
		}
		if n.Lo < 0 || n.Lo >= id || n.Hi < 0 || n.Hi >= id {
			return fmt.Errorf("synth: circuit %s: node %d has a child that is not an earlier node", c.Name, id)
		}
	}
	maxID := int32(len(c.Nodes) + 2)
	for _, r := range []CircuitRoots{c.Init, c.Step} {
		if len(r.Computed) != len(c.ComputedBits) {
			return fmt.Errorf("synth: circuit %s: %d roots for %d computed bits", c.Name, len(r.Computed), len(c.ComputedBits))
		}
		for _, x := range append([]int32{r.Legal}, r.Computed...) {
			if x < 0 || x >= maxID {
				return fmt.Errorf("synth: circuit %s: root %d is not a node", c.Name, x)
			}
		}
	}
	if len(c.Next) != len(c.Latches) {
		return fmt.Errorf("synth: circuit %s: %d next values for %d latches", c.Name, len(c.Next), len(c.Latches))
	}
	for l, x := range c.Next {
		if x >= int(nsig) || x < -len(c.ComputedBits) || (x >= 0 && x < len(c.Latches)) {
			return fmt.Errorf("synth: circuit %s: latch %d takes the value of %d, which is neither an input bit nor a computed bit", c.Name, l, x)
		}
	}
	if err := c.checkBits(c.InputBits, c.Inputs, "input"); err != nil {
		return err
	}
	return c.checkBits(c.ComputedBits[:min(len(c.ComputedBits), bitCount(c.Outputs))], c.Outputs, "output")
}

// bitCount is the number of encoding bits of vars.
func bitCount(vars []Var) int {
	n := 0
	for _, v := range vars {
		n += intWidth(v)
	}
	return n
}

// checkBits checks that bits are the encodings of vars, in order.
func (c *Circuit) checkBits(bits []CircuitBit, vars []Var, what string) error {
	k := 0
	for _, v := range vars {
		for b := range intWidth(v) {
			if k >= len(bits) || bits[k] != (CircuitBit{v.Name, b}) {
				return fmt.Errorf("synth: circuit %s: %s bits do not encode %s", c.Name, what, varNames(vars))
			}
			k++
		}
	}
	if k != len(bits) {
		return fmt.Errorf("synth: circuit %s: %d %s bits for %d", c.Name, len(bits), what, k)
	}
	return nil
}

// eval follows the decision graph from root under the signal values.
func (c *Circuit) eval(sig []bool, root int32) bool {
	for root >= 2 {
		n := &c.Nodes[root-2]
		if sig[n.Signal] {
			root = n.Hi
		} else {
			root = n.Lo
		}
	}
	return root == 1
}

// NumNodes returns the number of decision nodes.
func (c *Circuit) NumNodes() int { return len(c.Nodes) }

// CircuitRun is an execution of a Circuit; it is a Stepper.
type CircuitRun struct {
	c       *Circuit
	started bool
	latches []bool
	sig     []bool // scratch: latches then input bits
	n       int
}

// Run starts an execution of the circuit. It fails when the circuit is not
// well formed (Validate).
func (c *Circuit) Run() (*CircuitRun, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &CircuitRun{c: c, latches: make([]bool, len(c.Latches)), sig: make([]bool, len(c.Latches)+len(c.InputBits))}, nil
}

// errIllegalInput is wrapped by the error of a step whose inputs violate
// the assumptions.
var errIllegalInput = errors.New("inputs violate the assumptions")

// Step reads the next inputs (by name, Booleans as 0 and 1) and returns the
// outputs. Inputs the environment may not give here are an error, and the
// run does not move.
func (r *CircuitRun) Step(in map[string]int) (map[string]int, error) {
	return stepNamed(r.c.Inputs, r.c.Outputs, in, r.StepValues)
}

// stepNamed is a Step by variable names over a step on value slices.
func stepNamed(inputs, outputs []Var, in map[string]int, step func([]int) ([]int, error)) (map[string]int, error) {
	vals, err := valuesOf(inputs, in)
	if err != nil {
		return nil, err
	}
	out, err := step(vals)
	if err != nil {
		return nil, err
	}
	return namedValues(outputs, out), nil
}

// StepValues is Step with inputs and outputs as slices in declaration order.
func (r *CircuitRun) StepValues(in []int) ([]int, error) {
	c := r.c
	if len(in) != len(c.Inputs) {
		return nil, fmt.Errorf("synth: step %d: %d input values for %d inputs", r.n, len(in), len(c.Inputs))
	}
	copy(r.sig, r.latches)
	k := len(r.latches)
	for i, v := range c.Inputs {
		if in[i] < v.Lo || in[i] > v.Hi {
			return nil, fmt.Errorf("synth: step %d: %s = %d is outside %d...%d", r.n, v.Name, in[i], v.Lo, v.Hi)
		}
		off := in[i] - v.Lo
		for b := range intWidth(v) {
			r.sig[k] = off>>b&1 == 1
			k++
		}
	}
	roots := c.Step
	if !r.started {
		roots = c.Init
	}
	if !c.eval(r.sig, roots.Legal) {
		return nil, fmt.Errorf("synth: step %d: %s: %w", r.n, formatValues(c.Inputs, in), errIllegalInput)
	}
	computed := make([]bool, len(c.ComputedBits))
	for k, root := range roots.Computed {
		computed[k] = c.eval(r.sig, root)
	}
	for l, x := range c.Next {
		if x >= 0 {
			r.latches[l] = r.sig[x]
		} else {
			r.latches[l] = computed[-x-1]
		}
	}
	r.started = true
	r.n++
	out := make([]int, len(c.Outputs))
	k = 0
	for i, v := range c.Outputs {
		off := 0
		for b := range intWidth(v) {
			if computed[k] {
				off |= 1 << b
			}
			k++
		}
		out[i] = v.Lo + off
	}
	return out, nil
}
