package synth

import (
	"context"
	"fmt"
	"sort"
)

// Moore is a counterstrategy as an explicit machine. The environment moves
// first: each state says which inputs the environment gives next (Emit);
// the system answers with outputs, and each answer the system's guarantees
// allow leads to a new state. A state without edges is one where the system
// has no legal answer at all. States[0] is the initial state.
type Moore struct {
	Name    string
	Inputs  []Var // what the machine emits: the spec's inputs
	Outputs []Var // what it reads: the spec's outputs
	States  []MooreState
}

// MooreState is a state of a counterstrategy.
type MooreState struct {
	// Values holds the current values of Inputs then Outputs (nil in the
	// initial state).
	Values []int
	// Emit is the environment's next inputs.
	Emit []int
	// Assumption is the index of the liveness assumption the environment
	// works to meet next.
	Assumption int
	// Starves is the index of the liveness guarantee this state keeps the
	// system from meeting (-1 when the system is about to lose its safety
	// instead, or in the initial state).
	Starves int
	// Edges are sorted by Output.
	Edges []MooreEdge
}

// MooreEdge is the system's answer Output to a state's Emit, leading to To.
type MooreEdge struct {
	Output []int
	To     int
}

// Moore enumerates the counterstrategy's reachable states into an explicit
// machine, exploring every answer the system may give. maxStates bounds the
// number of states (0 for DefaultMaxStates).
func (cs *Counterstrategy) Moore(ctx context.Context, maxStates int) (*Moore, error) {
	if maxStates <= 0 {
		maxStates = DefaultMaxStates
	}
	g := cs.g
	spec := cs.res.Spec
	nIn, nOut := len(spec.Inputs), len(spec.Outputs)
	m := &Moore{Name: spec.Name, Inputs: spec.Inputs, Outputs: spec.Outputs}
	x0, ok := cs.firstMove()
	if !ok {
		return nil, fmt.Errorf("synth: %s: counterstrategy has no initial move", spec.Name)
	}
	m.States = append(m.States, MooreState{Emit: x0, Starves: -1})
	x := newExplorer(spec.Name+": counterstrategy", maxStates, g.maxBytes)
	add := func(st state) int {
		return x.visit(st, func() error {
			emit, ok := cs.move(st.vals, st.mem)
			if !ok {
				return fmt.Errorf("synth: %s: counterstrategy has no move in state %v", spec.Name, st.vals)
			}
			_, j, _, _ := cs.rank(st.vals, st.mem)
			m.States = append(m.States, MooreState{Values: st.vals[:nIn+nOut], Emit: emit, Assumption: st.mem, Starves: j})
			return nil
		})
	}
	expand := func(q int, cur []int, mem int) {
		in := m.States[q].Emit
		var edges []MooreEdge
		g.responses(cur, in, func(sys []int) bool {
			next := append(append([]int(nil), in...), sys...)
			nm := mem
			if cur != nil {
				nm = cs.nextMemory(cur, next, mem)
			}
			to := add(state{vals: next, mem: nm})
			if to < 0 {
				return false
			}
			edges = append(edges, MooreEdge{Output: sys[:nOut], To: to})
			return true
		})
		sort.Slice(edges, func(a, b int) bool { return lessInts(edges[a].Output, edges[b].Output) })
		m.States[q].Edges = edges
	}
	expand(0, nil, 0)
	for qi := 1; x.err == nil && qi-1 < len(x.queue); qi++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st := x.queue[qi-1]
		expand(qi, st.vals, st.mem)
	}
	if x.err != nil {
		return nil, x.err
	}
	return m, nil
}

// NumEdges returns the number of transitions.
func (m *Moore) NumEdges() int {
	n := 0
	for _, s := range m.States {
		n += len(s.Edges)
	}
	return n
}

func (m *Moore) edge(q int, out []int) (MooreEdge, bool) {
	if q < 0 || q >= len(m.States) {
		return MooreEdge{}, false
	}
	es := m.States[q].Edges
	i := sort.Search(len(es), func(i int) bool { return !lessInts(es[i].Output, out) })
	if i < len(es) && equalInts(es[i].Output, out) {
		return es[i], true
	}
	return MooreEdge{}, false
}

// Run starts a play of the counterstrategy.
func (m *Moore) Run() *MooreRun { return &MooreRun{m: m} }

// MooreRun is a play of a counterstrategy against a system under test.
type MooreRun struct {
	m *Moore
	q int
	n int
}

// Inputs returns the inputs the environment gives now.
func (r *MooreRun) Inputs() map[string]int {
	if r.q >= len(r.m.States) || len(r.m.States[r.q].Emit) != len(r.m.Inputs) {
		return nil
	}
	return namedValues(r.m.Inputs, r.m.States[r.q].Emit)
}

// State returns the current state index.
func (r *MooreRun) State() int { return r.q }

// Step reads the system's answer to Inputs and moves on. An answer the
// guarantees forbid is an error: the system has lost by violating them.
func (r *MooreRun) Step(out map[string]int) error {
	vals, err := valuesOf(r.m.Outputs, out)
	if err != nil {
		return err
	}
	e, ok := r.m.edge(r.q, vals)
	if ok && (e.To < 0 || e.To >= len(r.m.States)) {
		return fmt.Errorf("synth: step %d: counterstrategy %s has an edge to the missing state %d", r.n, r.m.Name, e.To)
	}
	if !ok {
		return fmt.Errorf("synth: step %d: outputs %s violate the guarantees after inputs %s", r.n, formatValues(r.m.Outputs, vals), formatValues(r.m.Inputs, r.m.States[r.q].Emit))
	}
	r.q = e.To
	r.n++
	return nil
}

// Verify checks the counterstrategy against spec by exhaustive exploration
// with its own evaluation of the clauses: the environment always keeps its
// initial and transition assumptions; every system answer allowed by the
// guarantees has an edge; and on every infinite play the environment meets
// each liveness assumption infinitely often while the system misses some
// liveness guarantee (or, under Implication semantics, has violated a
// guarantee). It returns nil when the counterstrategy wins, a *Violation
// when it does not.
func (m *Moore) Verify(ctx context.Context, spec *Spec) error {
	if err := checkVerifiable(spec, m.validate, m.Inputs, m.Outputs); err != nil {
		return err
	}
	c := newChecker(spec)
	implication := spec.Semantics == Implication
	p := &product{index: map[string]int{}}
	stepOf := func(q int, out []int) Step {
		return Step{Inputs: namedValues(m.Inputs, m.States[q].Emit), Outputs: namedValues(m.Outputs, out)}
	}
	full := func(in, out []int) valuation {
		return c.valuation(append(append([]int(nil), in...), out...))
	}
	zeros := make([]int, len(spec.Outputs))
	x0 := m.States[0].Emit
	if bad := c.fails(EnvInit, full(x0, zeros), nil); bad >= 0 {
		return &Violation{Kind: SafetyViolation, Clause: &spec.Clauses[bad],
			Msg: fmt.Sprintf("initial inputs %s violate assumption %s", formatValues(spec.Inputs, x0), spec.Clauses[bad])}
	}
	explore := func(from int, q int, cur valuation, sysOK bool) *Violation {
		in := m.States[q].Emit
		var viol *Violation
		ok := allValues(spec.Outputs, maxEnumeration, func(out []int) {
			if viol != nil {
				return
			}
			next := full(in, out)
			var good bool
			if cur == nil {
				good = c.fails(SysInit, next, nil) < 0
			} else {
				good = c.fails(SysTrans, cur, next) < 0
			}
			if !good && !implication {
				return // the system loses by this answer
			}
			e, has := m.edge(q, out)
			if !has {
				viol = &Violation{Kind: Incomplete, Msg: fmt.Sprintf("no move after the system answers %s", formatValues(spec.Outputs, out))}
				if from >= 0 {
					viol.Stem = p.stem(from)
				}
				return
			}
			var lab label
			if cur != nil {
				lab = c.labels(cur, next)
			}
			st := stepOf(q, out)
			to := p.node(e.To, append(append([]int(nil), in...), out...), true, sysOK && good, from, st)
			if from >= 0 {
				p.nodes[from].out = append(p.nodes[from].out, pedge{to: to, lab: lab, step: st})
			}
		})
		if !ok {
			return &Violation{Kind: Incomplete, Msg: "too many output valuations to verify"}
		}
		return viol
	}
	if v := explore(-1, 0, nil, true); v != nil {
		return v
	}
	for k := 0; k < len(p.nodes); k++ {
		if k%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		nd := p.nodes[k]
		st := m.States[nd.q]
		cur := c.valuation(nd.vals)
		if bad := c.fails(EnvTrans, cur, full(st.Emit, zeros)); bad >= 0 {
			return &Violation{Kind: SafetyViolation, Clause: &spec.Clauses[bad], Stem: p.stem(k),
				Msg: fmt.Sprintf("inputs %s violate assumption %s", formatValues(spec.Inputs, st.Emit), spec.Clauses[bad])}
		}
		if v := explore(k, nd.q, cur, nd.sysOK); v != nil {
			return v
		}
	}
	all := func(*pnode) bool { return true }
	nE, nS := len(c.justice(EnvLiveness)), len(c.justice(SysLiveness))
	for i := range nE {
		if lasso := p.findLoop(all, func(l label) bool { return !l.env[i] }, 0, 0); lasso != nil {
			lasso.Msg = fmt.Sprintf("the system can stay in a loop where liveness assumption %s never holds", c.livenessName(EnvLiveness, i))
			return lasso
		}
	}
	if lasso := p.findLoop(func(nd *pnode) bool { return nd.sysOK }, nil, 0, nS); lasso != nil {
		lasso.Msg = "the system can keep its guarantees in a loop that meets every liveness guarantee"
		return lasso
	}
	return nil
}
