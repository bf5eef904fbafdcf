package synth

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Mealy is a controller as an explicit Mealy machine: in each state it reads
// the environment's inputs and answers with the system's outputs, moving to
// a new state. States[0] is the initial state, where nothing has been read
// yet; every other state corresponds to a state of the game (the values of
// all variables) together with the controller's memory.
//
// The machine is complete: in every state each input the environment may
// legally give (by ENV_INIT in the initial state, ENV_TRANS afterwards) has
// exactly one edge.
type Mealy struct {
	Name    string
	Inputs  []Var
	Outputs []Var
	States  []MealyState
}

// MealyState is a state of a Mealy machine.
type MealyState struct {
	// Values holds the current values of Inputs then Outputs (nil in the
	// initial state).
	Values []int
	// Goal is the index of the liveness guarantee (SYS_LIVENESS clause, in
	// order) the controller pursues in this state; -1 in the initial state.
	Goal int
	// Edges are sorted by input.
	Edges []Edge
	// hidden is the key of the underlying game state (with memory).
	hidden string
}

// Edge is a transition of a Mealy machine.
type Edge struct {
	Input  []int // values of the machine's inputs
	Output []int // values of the machine's outputs
	To     int   // index of the target state
	Kind   StepKind
}

// DefaultMaxStates bounds explicit machines unless told otherwise.
const DefaultMaxStates = 100000

// Mealy enumerates the controller's reachable states into an explicit
// machine. maxStates bounds the number of states (0 for DefaultMaxStates);
// beyond it the error wraps ErrTooLarge.
func (c *Controller) Mealy(ctx context.Context, maxStates int) (*Mealy, error) {
	if maxStates <= 0 {
		maxStates = DefaultMaxStates
	}
	g := c.g
	release := g.bind(ctx)
	defer release()
	m, err := c.mealy(ctx, maxStates)
	if err := interrupted(ctx, err); err != nil {
		return nil, err
	}
	return m, nil
}

func (c *Controller) mealy(ctx context.Context, maxStates int) (*Mealy, error) {
	g := c.g
	if err := c.relations(ctx); err != nil {
		return nil, err
	}
	spec := c.res.Spec
	m := &Mealy{Name: spec.Name, Inputs: spec.Inputs, Outputs: spec.Outputs}
	m.States = append(m.States, MealyState{Goal: -1})
	x := newExplorer(spec.Name+": controller", maxStates, g.maxBytes)
	var ferr error
	add := func(st state) int {
		return x.visit(st, func() error {
			m.States = append(m.States, MealyState{Values: st.vals[:len(spec.Inputs)+len(spec.Outputs)], Goal: st.mem, hidden: st.key()})
			return nil
		})
	}
	nOut := len(spec.Outputs)
	nIn := len(spec.Inputs)
	g.legalInputs(nil, func(in []int) bool {
		st, ok := c.first(in)
		if !ok {
			ferr = fmt.Errorf("synth: %s: controller has no initial state for inputs %v", spec.Name, in)
			return false
		}
		q := add(st)
		if q < 0 {
			return false
		}
		m.States[0].Edges = append(m.States[0].Edges, Edge{Input: in, Output: st.vals[nIn : nIn+nOut], To: q, Kind: StepInit})
		return true
	})
	for qi := 1; ferr == nil && x.err == nil && qi-1 < len(x.queue); qi++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st := x.queue[qi-1]
		var edges []Edge
		v := c.at(st)
		g.legalInputs(&st, func(in []int) bool {
			next, kind, ok := c.step(st, v, in)
			if !ok {
				ferr = fmt.Errorf("synth: %s: controller has no move from state %d for inputs %v", spec.Name, qi, in)
				return false
			}
			to := add(next)
			if to < 0 {
				return false
			}
			edges = append(edges, Edge{Input: in, Output: next.vals[nIn : nIn+nOut], To: to, Kind: kind})
			return true
		})
		m.States[qi].Edges = edges
	}
	if ferr == nil {
		ferr = x.err
	}
	if err := g.sp.Err(); err != nil {
		return nil, err // a failed BDD operation explains ferr
	}
	if ferr != nil {
		return nil, ferr
	}
	for i := range m.States {
		sortEdges(m.States[i].Edges)
	}
	return m, nil
}

// explorer numbers the states of a breadth-first enumeration of a
// strategy; state 0 is the machine's initial state, added by the caller.
// Every visit is an edge of the machine: the explorer estimates the bytes
// the machine takes (edges and states) and stops beyond maxBytes.
type explorer struct {
	what     string
	limit    int
	maxBytes int64 // 0: no bound
	bytes    int64 // estimated size of the machine so far
	index    map[string]int
	queue    []state // the states numbered 1, 2, … in order
	err      error
}

func newExplorer(what string, limit int, maxBytes int64) *explorer {
	return &explorer{what: what, limit: limit, maxBytes: maxBytes, index: map[string]int{}}
}

// The estimated sizes of an edge (its struct, its input values and the
// target's values its outputs share, with the slack of growing slices) and
// of a state (its struct, values, key, index entry and queue entry), per
// value of a state. Measured: 393 bytes per edge of 11 values, the
// estimate 392.
const (
	edgeBytes, edgeBytesPerValue   = 128, 24
	stateBytes, stateBytesPerValue = 160, 40
)

// visit returns the number of st, calling create to add the machine's state
// when st is new; -1 (with x.err set) when the limit or the memory bound is
// reached or create fails.
func (x *explorer) visit(st state, create func() error) int {
	x.bytes += edgeBytes + edgeBytesPerValue*int64(len(st.vals))
	if x.maxBytes > 0 && x.bytes > x.maxBytes {
		x.err = fmt.Errorf("synth: %s: the explicit machine would take more than %d bytes: %w", x.what, x.maxBytes, ErrMemoryBound)
		return -1
	}
	k := st.key()
	if q, ok := x.index[k]; ok {
		return q
	}
	q := len(x.queue) + 1
	if q >= x.limit {
		x.err = fmt.Errorf("synth: %s has more than %d states: %w", x.what, x.limit, ErrTooLarge)
		return -1
	}
	if err := create(); err != nil {
		x.err = err
		return -1
	}
	x.index[k] = q
	x.queue = append(x.queue, st)
	x.bytes += stateBytes + stateBytesPerValue*int64(len(st.vals))
	return q
}

func sortEdges(es []Edge) {
	sort.Slice(es, func(a, b int) bool { return lessInts(es[a].Input, es[b].Input) })
}

func lessInts(a, b []int) bool {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// edge returns the edge of state q for input in.
func (m *Mealy) edge(q int, in []int) (Edge, bool) {
	if q < 0 || q >= len(m.States) {
		return Edge{}, false
	}
	es := m.States[q].Edges
	i := sort.Search(len(es), func(i int) bool { return !lessInts(es[i].Input, in) })
	if i < len(es) && equalInts(es[i].Input, in) {
		return es[i], true
	}
	return Edge{}, false
}

// NumEdges returns the number of transitions.
func (m *Mealy) NumEdges() int {
	n := 0
	for _, s := range m.States {
		n += len(s.Edges)
	}
	return n
}

// Run starts an execution of the machine in its initial state.
func (m *Mealy) Run() *Run { return &Run{m: m} }

// Run is an execution of a Mealy machine. Step feeds it one input valuation
// at a time.
type Run struct {
	m *Mealy
	q int
	n int
}

// State returns the current state index.
func (r *Run) State() int { return r.q }

// Step reads the next inputs (by name; Booleans as 0 and 1; every input must
// be given) and returns the outputs. An input the environment may not give
// here (it violates an assumption) is an error, and the run stays where it
// was.
func (r *Run) Step(in map[string]int) (map[string]int, error) {
	return stepNamed(r.m.Inputs, r.m.Outputs, in, r.StepValues)
}

// StepValues is Step with inputs and outputs as slices in declaration order.
func (r *Run) StepValues(in []int) ([]int, error) {
	if len(in) != len(r.m.Inputs) {
		return nil, fmt.Errorf("synth: step %d: %d input values for %d inputs", r.n, len(in), len(r.m.Inputs))
	}
	e, ok := r.m.edge(r.q, in)
	if ok && (e.To < 0 || e.To >= len(r.m.States)) {
		return nil, fmt.Errorf("synth: step %d: machine %s has an edge to the missing state %d", r.n, r.m.Name, e.To)
	}
	if !ok {
		return nil, fmt.Errorf("synth: step %d: inputs %s violate the assumptions in state %d", r.n, formatValues(r.m.Inputs, in), r.q)
	}
	r.q = e.To
	r.n++
	return e.Output, nil
}

func valuesOf(vars []Var, named map[string]int) ([]int, error) {
	vals := make([]int, len(vars))
	for i, v := range vars {
		x, ok := named[v.Name]
		if !ok {
			return nil, fmt.Errorf("synth: no value for %s", v.Name)
		}
		if x < v.Lo || x > v.Hi {
			return nil, fmt.Errorf("synth: %s = %d is outside %d...%d", v.Name, x, v.Lo, v.Hi)
		}
		vals[i] = x
	}
	if len(named) > len(vars) {
		for name := range named {
			if !hasVar(vars, name) {
				return nil, fmt.Errorf("synth: %s is not one of %s", name, varNames(vars))
			}
		}
	}
	return vals, nil
}

func hasVar(vars []Var, name string) bool {
	for _, v := range vars {
		if v.Name == name {
			return true
		}
	}
	return false
}

func varNames(vars []Var) string {
	names := make([]string, len(vars))
	for i, v := range vars {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

func namedValues(vars []Var, vals []int) map[string]int {
	m := make(map[string]int, len(vars))
	for i, v := range vars {
		m[v.Name] = vals[i]
	}
	return m
}

// formatValues prints a valuation as "a=1 b=0 n=3", Booleans as 0/1.
func formatValues(vars []Var, vals []int) string {
	parts := make([]string, len(vars))
	for i, v := range vars {
		parts[i] = fmt.Sprintf("%s=%d", v.Name, vals[i])
	}
	return "{" + strings.Join(parts, " ") + "}"
}
