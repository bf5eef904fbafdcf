package synth

import (
	"context"
	"fmt"
	"strings"
)

// Violation is a behaviour on which a controller (or counterstrategy) fails
// its specification: a finite stem from the start and, for a liveness
// failure, a loop repeated forever after it.
type Violation struct {
	Kind   ViolationKind
	Clause *Clause // the violated clause, when one is to blame
	Stem   []Step  // from the initial state
	Loop   []Step  // repeated forever (liveness)
	Msg    string
}

// ViolationKind classifies a Violation.
type ViolationKind uint8

const (
	// Incomplete: no move for an input (or response) the other player may give.
	Incomplete ViolationKind = iota
	// SafetyViolation: an initial or transition clause fails.
	SafetyViolation
	// LivenessViolation: a loop on which the player loses the liveness part.
	LivenessViolation
)

func (k ViolationKind) String() string {
	return [...]string{"incomplete", "safety", "liveness"}[k]
}

// Step is one step of a behaviour: the inputs the environment gave and the
// outputs the system answered.
type Step struct {
	Inputs  map[string]int
	Outputs map[string]int
}

func (v *Violation) Error() string {
	var b strings.Builder
	b.WriteString(v.Msg)
	if len(v.Stem) > 0 {
		b.WriteString("; after")
		for _, s := range v.Stem {
			fmt.Fprintf(&b, " %v/%v", s.Inputs, s.Outputs)
		}
	}
	if len(v.Loop) > 0 {
		b.WriteString("; then forever")
		for _, s := range v.Loop {
			fmt.Fprintf(&b, " %v/%v", s.Inputs, s.Outputs)
		}
	}
	return b.String()
}

// checker evaluates a Spec's clauses on concrete valuations with the direct
// interpreter (not the BDDs the synthesis used).
type checker struct {
	spec *Spec
	sect [numSections][]int // clause indexes per section
}

func newChecker(spec *Spec) *checker {
	c := &checker{spec: spec}
	for i, cl := range spec.Clauses {
		c.sect[cl.Section] = append(c.sect[cl.Section], i)
	}
	return c
}

// holds returns the first clause of sec that fails on (cur, next), or -1.
func (c *checker) fails(sec Section, cur, next valuation) int {
	for _, i := range c.sect[sec] {
		if evalExpr(c.spec.Clauses[i].Expr, cur, next) == 0 {
			return i
		}
	}
	return -1
}

// justice returns the liveness clauses of sec, or a single true if none.
func (c *checker) justice(sec Section) []*Expr {
	var js []*Expr
	for _, i := range c.sect[sec] {
		js = append(js, c.spec.Clauses[i].Expr)
	}
	if len(js) == 0 {
		js = []*Expr{mk(ExprTrue, Pos{})}
	}
	return js
}

func (c *checker) valuation(vals []int) valuation {
	v := make(valuation, len(c.spec.Inputs)+len(c.spec.Outputs))
	for i, x := range c.spec.Inputs {
		v[x.Name] = vals[i]
	}
	for i, x := range c.spec.Outputs {
		v[x.Name] = vals[len(c.spec.Inputs)+i]
	}
	return v
}

// allValues calls fn with every valuation of vars within their ranges; it
// gives up (returning false) beyond limit valuations.
func allValues(vars []Var, limit int, fn func([]int)) bool {
	total := 1
	for _, v := range vars {
		total *= v.Hi - v.Lo + 1
		if total > limit {
			return false
		}
	}
	vals := make([]int, len(vars))
	for i, v := range vars {
		vals[i] = v.Lo
	}
	for {
		fn(append([]int(nil), vals...))
		i := len(vars) - 1
		for ; i >= 0; i-- {
			if vals[i] < vars[i].Hi {
				vals[i]++
				break
			}
			vals[i] = vars[i].Lo
		}
		if i < 0 {
			return true
		}
	}
}

// maxEnumeration bounds the input valuations Verify enumerates per state.
const maxEnumeration = 1 << 16

// checkVerifiable checks what Verify needs before it explores: a valid
// spec, a well-formed machine, and the same variables (names and ranges)
// in both.
func checkVerifiable(spec *Spec, validate func() error, inputs, outputs []Var) error {
	if err := spec.Check(); err != nil {
		return err
	}
	if err := validate(); err != nil {
		return err
	}
	same := func(a, b []Var) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i].Name != b[i].Name || a[i].Bool != b[i].Bool || a[i].Lo != b[i].Lo || a[i].Hi != b[i].Hi {
				return false
			}
		}
		return true
	}
	if !same(inputs, spec.Inputs) || !same(outputs, spec.Outputs) {
		return fmt.Errorf("synth: machine and spec have different variables")
	}
	return nil
}

// Verify checks the machine against spec by exhaustive exploration, with its
// own evaluation of the clauses: in every reachable state every input the
// environment may give has a move; no guarantee is violated while the
// assumptions hold (for Strict semantics; for Implication, no loop keeps all
// assumptions while violating a guarantee); and no loop on which the
// environment keeps its liveness assumptions misses a liveness guarantee
// forever. It returns nil when the machine realizes the spec, a *Violation
// when it does not, and another error when the check itself fails.
func (m *Mealy) Verify(ctx context.Context, spec *Spec) error {
	if err := checkVerifiable(spec, m.validate, m.Inputs, m.Outputs); err != nil {
		return err
	}
	c := newChecker(spec)
	implication := spec.Semantics == Implication
	p := newProduct(m)
	// Initial moves.
	ok := allValues(spec.Inputs, maxEnumeration, func(in []int) {
		if p.violation != nil {
			return
		}
		cur := c.valuation(append(append([]int(nil), in...), make([]int, len(spec.Outputs))...))
		envOK := c.fails(EnvInit, cur, nil) < 0
		if !envOK && !implication {
			return
		}
		e, has := m.edge(0, in)
		if !has {
			p.violation = &Violation{Kind: Incomplete, Msg: fmt.Sprintf("no initial move for inputs %s", formatValues(spec.Inputs, in))}
			return
		}
		v := c.valuation(edgeValues(e))
		bad := c.fails(SysInit, v, nil)
		if bad >= 0 && !implication {
			p.violation = &Violation{Kind: SafetyViolation, Clause: &spec.Clauses[bad],
				Msg: fmt.Sprintf("initial outputs %s violate %s", formatValues(spec.Outputs, e.Output), spec.Clauses[bad])}
			p.violation.Stem = []Step{p.stepOf(e)}
			return
		}
		p.addInitial(e, envOK, bad < 0)
	})
	if !ok {
		return fmt.Errorf("synth: %s: too many input valuations to verify", spec.Name)
	}
	for k := 0; p.violation == nil && k < len(p.nodes); k++ {
		if k%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		nd := p.nodes[k]
		cur := c.valuation(nd.vals)
		allValues(spec.Inputs, maxEnumeration, func(in []int) {
			if p.violation != nil {
				return
			}
			nextIn := c.valuation(append(append([]int(nil), in...), make([]int, len(spec.Outputs))...))
			envOK := nd.envOK && c.fails(EnvTrans, cur, nextIn) < 0
			if !envOK && !implication {
				return
			}
			e, has := m.edge(nd.q, in)
			if !has {
				p.violation = &Violation{Kind: Incomplete, Stem: p.stem(k),
					Msg: fmt.Sprintf("no move for inputs %s", formatValues(spec.Inputs, in))}
				return
			}
			next := c.valuation(edgeValues(e))
			bad := c.fails(SysTrans, cur, next)
			if bad >= 0 && envOK && !implication {
				p.violation = &Violation{Kind: SafetyViolation, Clause: &spec.Clauses[bad], Stem: append(p.stem(k), p.stepOf(e)),
					Msg: fmt.Sprintf("outputs %s violate %s", formatValues(spec.Outputs, e.Output), spec.Clauses[bad])}
				return
			}
			p.addEdge(k, e, envOK, nd.sysOK && bad < 0, c.labels(cur, next))
		})
	}
	if p.violation != nil {
		return p.violation
	}
	// Liveness: a loop through envOK nodes that meets every assumption but
	// either has a violated guarantee (implication) or misses some guarantee.
	nE, nS := len(c.justice(EnvLiveness)), len(c.justice(SysLiveness))
	keepEnv := func(nd *pnode) bool { return nd.envOK }
	if implication {
		if lasso := p.findLoop(func(nd *pnode) bool { return nd.envOK && !nd.sysOK }, nil, nE, 0); lasso != nil {
			lasso.Msg = "a loop keeps every assumption while a guarantee has been violated"
			return lasso
		}
	}
	for j := range nS {
		if lasso := p.findLoop(keepEnv, func(l label) bool { return !l.sys[j] }, nE, 0); lasso != nil {
			lasso.Msg = fmt.Sprintf("a loop keeps every assumption but never meets liveness guarantee %s", c.livenessName(SysLiveness, j))
			return lasso
		}
	}
	return nil
}

func (c *checker) livenessName(sec Section, j int) string {
	if j < len(c.sect[sec]) {
		return c.spec.Clauses[c.sect[sec][j]].String()
	}
	return "true"
}

// label records which liveness clauses hold on an edge.
type label struct {
	env []bool
	sys []bool
}

func (c *checker) labels(cur, next valuation) label {
	var l label
	for _, e := range c.justice(EnvLiveness) {
		l.env = append(l.env, evalExpr(e, cur, next) == 1)
	}
	for _, e := range c.justice(SysLiveness) {
		l.sys = append(l.sys, evalExpr(e, cur, next) == 1)
	}
	return l
}

// validate checks the machine's shape (edges within range, values of the
// right length), which a machine built by hand may lack.
func (m *Mealy) validate() error {
	if len(m.States) == 0 {
		return fmt.Errorf("synth: machine %s has no states", m.Name)
	}
	for q, s := range m.States {
		for _, e := range s.Edges {
			if e.To < 0 || e.To >= len(m.States) || len(e.Input) != len(m.Inputs) || len(e.Output) != len(m.Outputs) {
				return fmt.Errorf("synth: machine %s: malformed edge in state %d", m.Name, q)
			}
		}
	}
	return nil
}

// validate checks the counterstrategy's shape.
func (m *Moore) validate() error {
	if len(m.States) == 0 {
		return fmt.Errorf("synth: counterstrategy %s has no states", m.Name)
	}
	for q, s := range m.States {
		if len(s.Emit) != len(m.Inputs) {
			return fmt.Errorf("synth: counterstrategy %s: malformed state %d", m.Name, q)
		}
		for _, e := range s.Edges {
			if e.To < 0 || e.To >= len(m.States) || len(e.Output) != len(m.Outputs) {
				return fmt.Errorf("synth: counterstrategy %s: malformed edge in state %d", m.Name, q)
			}
		}
	}
	return nil
}
