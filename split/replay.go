package split

import (
	"fmt"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// replayer checks traces against the real composition: the program without
// any refinement variables.
type replayer struct {
	p *Program
	m *model
}

func newReplayer(p *Program) (*replayer, error) {
	m, err := compileModel(newLayout(p, nil, nil), nil, storeLimits{})
	if err != nil {
		return nil, err
	}
	return &replayer{p: p, m: m}, nil
}

// Replay checks that t is a computation of p: every value is in its
// variable's range, the first state is initial, every step is a move of
// the named process by the named command (or a skip when none is enabled)
// that leaves the other processes' local variables alone, and a lasso's
// last state equals States[Loop].
func (p *Program) Replay(t *Trace) error {
	if err := p.Validate(); err != nil {
		return err
	}
	r, err := newReplayer(p)
	if err != nil {
		return err
	}
	return r.replay(t)
}

// Violates replays t on p (see Replay) and reports whether t's last state
// violates the invariant prop, that is falsifies one of its conjuncts.
func (p *Program) Violates(t *Trace, prop *Property) (bool, error) {
	if err := p.Validate(); err != nil {
		return false, err
	}
	r, err := newReplayer(p)
	if err != nil {
		return false, err
	}
	if err := r.replay(t); err != nil {
		return false, err
	}
	last := t.States[len(t.States)-1]
	for _, c := range prop.Conjuncts {
		ok, err := r.holds(c, last)
		if err != nil || !ok {
			return err == nil, err
		}
	}
	return false, nil
}

// point is the BDD of the values of vars in state s (next copies if next).
func (r *replayer) point(s []int, vars []*Var, next bool) fds.BDD {
	vals := make(map[*Var]int, len(vars))
	for _, v := range vars {
		vals[v] = s[v.index]
	}
	return r.m.st.assignment(vars, vals, next)
}

func (r *replayer) replay(t *Trace) error {
	p, m := r.p, r.m
	if t.prog != p {
		return fmt.Errorf("split: replay: the trace is of another program")
	}
	if len(t.States) == 0 || len(t.Steps) != len(t.States)-1 {
		return fmt.Errorf("split: replay: %d states and %d steps", len(t.States), len(t.Steps))
	}
	for j, s := range t.States {
		if len(s) != len(p.vars) {
			return fmt.Errorf("split: replay: state %d has %d values for %d variables", j, len(s), len(p.vars))
		}
		for _, v := range p.vars {
			if x := s[v.index]; x < v.lo || x > v.hi {
				return fmt.Errorf("split: replay: state %d: %s = %d is outside %d..%d", j, v.name, x, v.lo, v.hi)
			}
		}
	}
	s0 := t.States[0]
	if m.initX.And(r.point(s0, m.lay.shared, false)).IsFalse() {
		return fmt.Errorf("split: replay: state 0 violates the shared initial condition")
	}
	for _, pr := range p.procs {
		k := pr.index
		vk := append(append([]*Var(nil), m.lay.shared...), m.lay.locals[k]...)
		if m.init[k].And(r.point(s0, vk, false)).IsFalse() {
			return fmt.Errorf("split: replay: state 0 violates the initial condition of %s", pr.name)
		}
	}
	for j, st := range t.Steps {
		name, err := r.step(t.States[j], t.States[j+1], st.Process)
		if err != nil {
			return fmt.Errorf("split: replay: step %d (%s): %w", j+1, st.Process, err)
		}
		if st.Command != name {
			return fmt.Errorf("split: replay: step %d: %s performs %s, not %s", j+1, st.Process, name, st.Command)
		}
	}
	if t.Loop >= 0 {
		if t.Loop >= len(t.States)-1 {
			return fmt.Errorf("split: replay: loop start %d is not before the last state", t.Loop)
		}
		last := t.States[len(t.States)-1]
		for i, x := range t.States[t.Loop] {
			if last[i] != x {
				return fmt.Errorf("split: replay: the last state differs from state %d in %s", t.Loop, p.vars[i].name)
			}
		}
	}
	return nil
}

// step returns the command by which process name moves from s to u.
func (r *replayer) step(s, u []int, name string) (string, error) {
	p, m := r.p, r.m
	var pr *Process
	for _, q := range p.procs {
		if q.name == name {
			pr = q
		}
	}
	if pr == nil {
		return "", fmt.Errorf("no process %s", name)
	}
	for _, v := range p.vars {
		if v.owner != nil && v.owner != pr && s[v.index] != u[v.index] {
			return "", fmt.Errorf("%s, a local variable of %s, changes", v.name, v.owner.name)
		}
	}
	k := pr.index
	if err := m.ensure(k); err != nil {
		return "", err
	}
	vk := append(append([]*Var(nil), m.lay.shared...), m.lay.locals[k]...)
	pt := r.point(s, vk, false).And(r.point(u, vk, true))
	for i, c := range m.cmds[k] {
		if !c.And(pt).IsFalse() {
			return pr.commands[i].Name, nil
		}
	}
	if !m.skip[k].And(pt).IsFalse() {
		return "skip", nil
	}
	return "", fmt.Errorf("no command of %s leads from state to state", name)
}

// holds evaluates a predicate of p in state s.
func (r *replayer) holds(e Expr, s []int) (bool, error) {
	b, err := r.m.c.boolean(e.n)
	if err != nil {
		return false, err
	}
	var vars []*Var
	seen := map[*Var]bool{}
	e.vars(func(v *Var) {
		if !seen[v] {
			seen[v] = true
			vars = append(vars, v)
		}
	})
	return !b.And(r.point(s, vars, false)).IsFalse(), nil
}
