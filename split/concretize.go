package split

import (
	"fmt"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// must reports whether the shared change from → to (values of the shared
// variables) is a MUST transition of process k: possible from every local
// state θ_k allows with X = from. If not, it also returns the local states
// that cannot make it: m(L_k) ≡ θ_k(a, L_k) ∧ ¬∃L_k′: T_k(a, L_k, b, L_k′).
func (inv *Invariant) must(k int, from, to map[*Var]int) (bool, fds.BDD) {
	m := inv.m
	st := m.st
	shared := m.lay.shared
	if err := m.ensure(k); err != nil {
		return false, st.sp.False()
	}
	ax := st.assignment(shared, from, false)
	bx := st.assignment(shared, to, true)
	locals := ax.AndExists(inv.theta[k], m.xCur)
	can := m.trans[k].And(ax).And(bx).Exists(st.cubeUnion(m.xCur, m.xNext, st.cube(m.lay.locals[k], true)))
	pred := locals.Diff(can)
	return pred.IsFalse(), pred
}

// concretizer builds a computation of the whole program that follows an
// abstract path: the path fixes the shared variables and the locals of the
// processes it models concretely; every other process starts in some
// initial local state and, when the path makes one of its summary moves,
// performs a concrete move with the same effect on the shared variables
// (which exists because the move is a MUST transition).
type concretizer struct {
	inv *Invariant
	rep *replayer
	cur map[*Var]int // values of the layout's variables (shared, all locals)
	tr  *Trace
}

func newConcretizer(inv *Invariant, rep *replayer, s0 map[*Var]int) (*concretizer, error) {
	m := inv.m
	st := m.st
	lay := m.lay
	c := &concretizer{inv: inv, rep: rep, cur: map[*Var]int{}}
	for v, x := range s0 {
		c.cur[v] = x
	}
	xs := st.assignment(lay.shared, c.cur, false)
	for k, pr := range lay.prog.procs {
		if len(lay.locals[k]) == 0 {
			continue
		}
		if _, given := s0[lay.locals[k][0]]; given {
			continue
		}
		vals, ok := st.pick(m.init[k].And(xs), lay.locals[k], false)
		if !ok {
			return nil, fmt.Errorf("split: internal error: no initial state of %s fits the path", pr.name)
		}
		for v, x := range vals {
			c.cur[v] = x
		}
	}
	c.tr = &Trace{prog: lay.prog, Loop: -1, States: [][]int{c.snapshot()}}
	return c, nil
}

// snapshot is the current state over the program's variables.
func (c *concretizer) snapshot() []int {
	p := c.inv.m.lay.prog
	s := make([]int, len(p.vars))
	for _, v := range p.vars {
		s[v.index] = c.cur[v]
	}
	return s
}

// move performs mv, after which the variables of next have those values.
func (c *concretizer) move(mv absMove, next map[*Var]int) error {
	m := c.inv.m
	st := m.st
	lay := m.lay
	p := lay.prog
	k := mv.proc
	if mv.summary {
		if err := m.ensure(k); err != nil {
			return err
		}
		vk := append(append([]*Var(nil), lay.shared...), lay.locals[k]...)
		f := m.trans[k].And(st.assignment(vk, c.cur, false)).And(st.assignment(lay.shared, next, true))
		vals, ok := st.pick(f, lay.locals[k], true)
		if !ok {
			return fmt.Errorf("split: internal error: a MUST move of %s is impossible", p.procs[k].name)
		}
		for v, x := range vals {
			c.cur[v] = x
		}
	}
	for v, x := range next {
		if _, ok := st.fv[v]; ok { // not the product's own variables
			c.cur[v] = x
		}
	}
	s := c.snapshot()
	name, err := c.rep.step(c.tr.States[len(c.tr.States)-1], s, p.procs[k].name)
	if err != nil {
		return fmt.Errorf("split: internal error: concretised move %d: %w", len(c.tr.Steps)+1, err)
	}
	c.tr.States = append(c.tr.States, s)
	c.tr.Steps = append(c.tr.Steps, Step{Process: p.procs[k].name, Command: name})
	return nil
}
