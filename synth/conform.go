package synth

import (
	"context"
	"fmt"
)

// ConformOptions bounds Conforms.
type ConformOptions struct {
	// MaxDepth bounds the length of the explored input sequences
	// (default 12).
	MaxDepth int
	// MaxNodes bounds the number of explored steps (default 200000).
	MaxNodes int
	// State, when set, returns a comparable value identifying the
	// implementation's current state (for instance a copy of its struct).
	// With it Conforms merges equal states, finds loops, and checks the
	// liveness guarantees; without it only safety is checked.
	State func(impl Stepper) any
}

// ConformResult is the verdict of Conforms.
type ConformResult struct {
	// Violation is the shortest behaviour found on which the implementation
	// fails the spec, or nil.
	Violation *Violation
	// Complete reports that every reachable behaviour was explored: with no
	// Violation, the implementation realizes the spec. When false and there
	// is no Violation the answer is unknown beyond the bounds (or, without
	// State, for the liveness guarantees).
	Complete bool
	// Steps is the number of steps explored.
	Steps int
}

// Conforms checks a hand-written controller against spec: it explores every
// behaviour of the environment that keeps the assumptions, breadth first (so
// the first violation found is a shortest one), replaying each input
// sequence on a fresh implementation from newImpl. It reports a guarantee
// violated while the assumptions hold, an input the implementation rejects
// although the assumptions allow it, and — when opts.State identifies
// states — a loop on which the environment meets its liveness assumptions
// but a liveness guarantee is starved.
func Conforms(ctx context.Context, spec *Spec, newImpl func() Stepper, opts ConformOptions) (*ConformResult, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	if spec.Semantics == Implication {
		return nil, fmt.Errorf("synth: Conforms checks Strict semantics only: %w", ErrUnsupported)
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 12
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = 200000
	}
	c := newChecker(spec)
	p := &product{index: map[string]int{}, stepOf: func(e Edge) Step {
		return Step{Inputs: namedValues(spec.Inputs, e.Input), Outputs: namedValues(spec.Outputs, e.Output)}
	}}
	res := &ConformResult{Complete: true}
	stateIDs := map[any]int{}
	depth := map[int]int{}
	fresh := 0
	// replay runs the inputs of the path to node k (-1: none) on a new
	// implementation.
	replay := func(k int) (Stepper, error) {
		impl := newImpl()
		for _, st := range p.stem(k) {
			if k < 0 {
				break
			}
			if _, err := impl.Step(st.Inputs); err != nil {
				return nil, fmt.Errorf("synth: implementation failed while replaying: %w", err)
			}
		}
		return impl, nil
	}
	zeros := make([]int, len(spec.Outputs))
	expand := func(from int) error {
		var cur valuation
		if from >= 0 {
			cur = c.valuation(p.nodes[from].vals)
		}
		var ferr error
		allValues(spec.Inputs, maxEnumeration, func(in []int) {
			if ferr != nil || p.violation != nil {
				return
			}
			nextIn := c.valuation(append(append([]int(nil), in...), zeros...))
			if from < 0 && c.fails(EnvInit, nextIn, nil) >= 0 || from >= 0 && c.fails(EnvTrans, cur, nextIn) >= 0 {
				return
			}
			if res.Steps >= opts.MaxNodes {
				res.Complete = false
				return
			}
			res.Steps++
			impl, err := replay(from)
			if err != nil {
				ferr = err
				return
			}
			stem := func() []Step {
				if from < 0 {
					return nil
				}
				return p.stem(from)
			}
			named := namedValues(spec.Inputs, in)
			outNamed, err := impl.Step(named)
			if err != nil {
				p.violation = &Violation{Kind: Incomplete, Stem: stem(), Msg: fmt.Sprintf("the implementation rejects inputs %s that the assumptions allow: %v", formatValues(spec.Inputs, in), err)}
				return
			}
			out, err := valuesOf(spec.Outputs, outNamed)
			if err != nil {
				p.violation = &Violation{Kind: SafetyViolation, Stem: stem(), Msg: fmt.Sprintf("bad outputs for inputs %s: %v", formatValues(spec.Inputs, in), err)}
				return
			}
			e := Edge{Input: in, Output: out}
			next := c.valuation(edgeValues(e))
			var bad int
			if from < 0 {
				bad = c.fails(SysInit, next, nil)
			} else {
				bad = c.fails(SysTrans, cur, next)
			}
			if bad >= 0 {
				p.violation = &Violation{Kind: SafetyViolation, Clause: &spec.Clauses[bad], Stem: append(stem(), p.stepOf(e)),
					Msg: fmt.Sprintf("outputs %s violate %s", formatValues(spec.Outputs, out), spec.Clauses[bad])}
				return
			}
			var q int
			if opts.State != nil {
				key := opts.State(impl)
				id, ok := stateIDs[key]
				if !ok {
					id = len(stateIDs)
					stateIDs[key] = id
				}
				q = id
			} else {
				fresh++
				q = fresh
			}
			if from < 0 {
				p.addInitial(Edge{Input: in, Output: out, To: q}, true, true)
				depth[len(p.nodes)-1] = 1
				return
			}
			n0 := len(p.nodes)
			p.addEdge(from, Edge{Input: in, Output: out, To: q}, true, true, c.labels(cur, next))
			if len(p.nodes) > n0 {
				depth[n0] = depth[from] + 1
			}
		})
		return ferr
	}
	if err := expand(-1); err != nil {
		return nil, err
	}
	for k := 0; p.violation == nil && k < len(p.nodes); k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if depth[k] >= opts.MaxDepth {
			res.Complete = false
			continue
		}
		if err := expand(k); err != nil {
			return nil, err
		}
	}
	if p.violation != nil {
		res.Violation = p.violation
		return res, nil
	}
	if opts.State == nil {
		res.Complete = false
		return res, nil
	}
	nE, nS := len(c.justice(EnvLiveness)), len(c.justice(SysLiveness))
	all := func(*pnode) bool { return true }
	for j := range nS {
		if lasso := p.findLoop(all, func(l label) bool { return !l.sys[j] }, nE, 0); lasso != nil {
			lasso.Msg = fmt.Sprintf("a loop keeps every assumption but never meets liveness guarantee %s", c.livenessName(SysLiveness, j))
			res.Violation = lasso
			return res, nil
		}
	}
	return res, nil
}
