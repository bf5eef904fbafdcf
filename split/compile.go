package split

import (
	"github.com/henceforth-go/henceforth/internal/fds"
)

// model is a layout compiled into one store: the initial conditions and
// transition relations of some processes (all of them for the sequential
// algorithms; a worker's group for the parallel one), with the cubes the
// image computations quantify over.
//
//	initX     I_X: the shared initial constraints and the domains of X
//	init[k]   I_k: process k's initial constraints over X ∪ L_k, the
//	          domains of L_k and x_m ≡ m(L_k) for its auxiliary variables
//	trans[k]  T_k over X ∪ L_k ∪ X′ ∪ L_k′: one of k's commands, or a skip
//	          when none is enabled (so T_k is left-total)
type model struct {
	lay   *layout
	st    *store
	procs []int
	c     *compiler

	initX fds.BDD
	init  []fds.BDD
	trans []fds.BDD
	cmds  [][]fds.BDD // per process: each command's relation (as in trans)
	skip  []fds.BDD   // per process: no command enabled, nothing changes

	xCur, xNext fds.Cube
	lCur        []fds.Cube // L_k
	lBoth       []fds.Cube // L_k ∪ L_k′
	img         []fds.Cube // X ∪ L_k: what sp_k quantifies
	presL       []fds.BDD  // L_k′ = L_k
	xAll        fds.BDD    // X′ = X
}

// compileModel builds the store for the given processes (nil: all) and
// compiles their initial conditions (transition relations on demand, see
// ensure).
func compileModel(lay *layout, procs []int, lim storeLimits) (*model, error) {
	return compileModelVars(lay, procs, nil, lim)
}

// compileModelVars is compileModel with extra variables declared last.
func compileModelVars(lay *layout, procs []int, extra []*Var, lim storeLimits) (*model, error) {
	if procs == nil {
		procs = make([]int, len(lay.prog.procs))
		for i := range procs {
			procs[i] = i
		}
	}
	vars := append([]*Var(nil), lay.shared...)
	for _, k := range procs {
		vars = append(vars, lay.locals[k]...)
	}
	vars = append(vars, extra...)
	st, err := newStore(vars, lim)
	if err != nil {
		return nil, err
	}
	n := len(lay.prog.procs)
	m := &model{
		lay: lay, st: st, procs: procs,
		init: make([]fds.BDD, n), trans: make([]fds.BDD, n), cmds: make([][]fds.BDD, n), skip: make([]fds.BDD, n),
		lCur: make([]fds.Cube, n), lBoth: make([]fds.Cube, n), img: make([]fds.Cube, n),
		presL: make([]fds.BDD, n),
	}
	m.xCur = st.cube(lay.shared, false)
	m.xNext = st.cube(lay.shared, true)
	m.xAll = st.pres(lay.shared)
	c := &compiler{st: st}
	m.c = c
	m.initX = st.dom(lay.shared, false)
	for _, e := range lay.prog.init {
		b, err := c.boolean(e.n)
		if err != nil {
			return nil, err
		}
		m.initX = m.initX.And(b)
	}
	for _, k := range procs {
		if err := m.compileInit(c, k); err != nil {
			return nil, err
		}
	}
	if err := st.err(); err != nil {
		return nil, err
	}
	return m, nil
}

// compileInit compiles process k's cubes and initial condition.
func (m *model) compileInit(c *compiler, k int) error {
	lay, st := m.lay, m.st
	pr := lay.prog.procs[k]
	locals := lay.locals[k]
	m.lCur[k] = st.cube(locals, false)
	m.lBoth[k] = st.cube2(locals)
	m.img[k] = st.cubeUnion(m.xCur, m.lCur[k])
	m.presL[k] = st.pres(locals)

	// Auxiliary variables: x ≡ m(L_k), now and next.
	auxNow := st.sp.True()
	for _, a := range lay.aux[k] {
		e := a.aux
		now := st.load(e.pred, instance(e.rep, pr), false)
		auxNow = auxNow.And(st.fv[a].Bit(0, false).Iff(now))
	}

	init := st.dom(locals, false).And(auxNow)
	for _, e := range pr.init {
		b, err := c.boolean(e.n)
		if err != nil {
			return err
		}
		init = init.And(b)
	}
	m.init[k] = init
	return nil
}

// ensure compiles the transition relations of procs (once).
func (m *model) ensure(procs ...int) error {
	for _, k := range procs {
		if m.trans[k].Space() != nil {
			continue
		}
		if err := m.compileTrans(m.c, k); err != nil {
			return err
		}
	}
	return m.st.err()
}

// compileTrans compiles T_k.
func (m *model) compileTrans(c *compiler, k int) error {
	lay, st := m.lay, m.st
	pr := lay.prog.procs[k]
	locals := lay.locals[k]
	auxNext := st.sp.True()
	for _, a := range lay.aux[k] {
		e := a.aux
		next := st.load(e.pred, instance(e.rep, pr), true)
		auxNext = auxNext.And(st.fv[a].Bit(0, true).Iff(next))
	}

	// V_k = X ∪ L_k, of which k owns its locals, promoted and auxiliary
	// variables; auxiliary variables are set by every move of k.
	vk := append(append([]*Var(nil), lay.shared...), locals...)
	presV := st.pres(vk)
	auxSet := map[*Var]bool{}
	for _, a := range lay.aux[k] {
		auxSet[a] = true
	}
	rel := st.sp.False()
	for _, cmd := range pr.commands {
		r := st.sp.True()
		if !cmd.Guard.IsZero() {
			g, err := c.boolean(cmd.Guard.n)
			if err != nil {
				return err
			}
			r = g
		}
		var assigned []*Var
		for _, u := range cmd.Updates {
			a, err := c.assign(u.Var, u.Value.n)
			if err != nil {
				return err
			}
			r = r.And(a)
			assigned = append(assigned, u.Var)
		}
		assigned = append(assigned, lay.aux[k]...)
		frame := presV.Exists(st.cube2(assigned))
		r = r.And(frame).And(auxNext)
		rel = rel.Or(r)
		m.cmds[k] = append(m.cmds[k], r)
	}
	enabled := rel.Exists(st.cubeUnion(m.xNext, st.cube(locals, true)))
	m.skip[k] = enabled.Not().And(presV)
	m.trans[k] = rel.Or(m.skip[k])
	return nil
}

// compiler turns Exprs into BDDs of one store.
type compiler struct {
	st *store
}

func (c *compiler) varOf(n *enode) (*fds.Var, error) {
	f, ok := c.st.fv[n.v]
	if !ok {
		return nil, errorf(n.pos, ErrProgram, "%s is not visible here", n.v)
	}
	return f, nil
}

// boolean compiles a Boolean expression without choices.
func (c *compiler) boolean(n *enode) (fds.BDD, error) {
	sp := c.st.sp
	switch n.op {
	case eConst:
		if !n.bool {
			return sp.False(), errorf(n.pos, ErrType, "%d is an integer, want boolean", n.k)
		}
		return sp.Const(n.k != 0), nil
	case eVar:
		f, err := c.varOf(n)
		if err != nil {
			return sp.False(), err
		}
		if !n.v.bool {
			return sp.False(), errorf(n.pos, ErrType, "%s is an integer, want boolean", n.v)
		}
		return f.Bit(0, false), nil
	case eNot:
		a, err := c.boolean(n.args[0])
		return a.Not(), err
	case eAnd, eOr, eXor, eImp, eIff:
		r, err := c.boolean(n.args[0])
		if err != nil {
			return r, err
		}
		for _, arg := range n.args[1:] {
			b, err := c.boolean(arg)
			if err != nil {
				return b, err
			}
			switch n.op {
			case eAnd:
				r = r.And(b)
			case eOr:
				r = r.Or(b)
			case eXor:
				r = r.Xor(b)
			case eImp:
				r = r.Imp(b)
			case eIff:
				r = r.Iff(b)
			}
		}
		return r, nil
	case eEq, eNe:
		t, _, err := typeOf(n.args[0])
		if err != nil {
			return sp.False(), err
		}
		var r fds.BDD
		if t == tBool {
			a, err := c.boolean(n.args[0])
			if err != nil {
				return a, err
			}
			b, err := c.boolean(n.args[1])
			if err != nil {
				return b, err
			}
			r = a.Iff(b)
		} else {
			a, err := c.integer(n.args[0])
			if err != nil {
				return sp.False(), err
			}
			b, err := c.integer(n.args[1])
			if err != nil {
				return sp.False(), err
			}
			r = a.eq(b)
		}
		if n.op == eNe {
			r = r.Not()
		}
		return r, nil
	case eLt, eLe:
		a, err := c.integer(n.args[0])
		if err != nil {
			return sp.False(), err
		}
		b, err := c.integer(n.args[1])
		if err != nil {
			return sp.False(), err
		}
		if n.op == eLt {
			return a.lt(b), nil
		}
		return a.le(b), nil
	case eIte:
		return ite(c, n, sp.False(), c.boolean, fds.BDD.Ite)
	case eCase:
		// As a predicate, a case without a matching branch is false.
		r := sp.False()
		rest := sp.True()
		for i := 0; i+1 < len(n.args); i += 2 {
			cond, err := c.boolean(n.args[i])
			if err != nil {
				return cond, err
			}
			v, err := c.boolean(n.args[i+1])
			if err != nil {
				return v, err
			}
			r = r.Or(rest.And(cond).And(v))
			rest = rest.And(cond.Not())
		}
		return r, nil
	case eSet:
		return sp.False(), errorf(n.pos, ErrType, "a choice {…} can only be the value of an assignment")
	}
	return sp.False(), errorf(n.pos, ErrType, "%s is not a boolean expression", Expr{n})
}

// integer compiles an integer expression without choices.
func (c *compiler) integer(n *enode) (ivec, error) {
	sp := c.st.sp
	zero := constIvec(sp, 0)
	switch n.op {
	case eConst:
		if n.bool {
			return zero, errorf(n.pos, ErrType, "%s is boolean, want integer", Expr{n})
		}
		return constIvec(sp, n.k), nil
	case eVar:
		f, err := c.varOf(n)
		if err != nil {
			return zero, err
		}
		if n.v.bool {
			return zero, errorf(n.pos, ErrType, "%s is boolean, want integer", n.v)
		}
		return varIvec(sp, f, false), nil
	case eNeg:
		a, err := c.integer(n.args[0])
		return a.neg(), err
	case eAdd, eSub, eMin, eMax, eMul, eDiv, eMod:
		a, err := c.integer(n.args[0])
		if err != nil {
			return zero, err
		}
		b, err := c.integer(n.args[1])
		if err != nil {
			return zero, err
		}
		switch n.op {
		case eAdd:
			return a.add(b), nil
		case eSub:
			return a.sub(b), nil
		case eMin:
			return iteIvec(a.le(b), a, b), nil
		case eMax:
			return iteIvec(a.le(b), b, a), nil
		}
		x, okx := a.isConst()
		y, oky := b.isConst()
		if !okx || !oky {
			return zero, errorf(n.pos, ErrUnsupported, "%s: multiplication, division and modulus need constant operands", Expr{n})
		}
		k, ok := evalArith(n.op, x, y)
		if !ok {
			return zero, errorf(n.pos, ErrType, "%s: division by zero", Expr{n})
		}
		return constIvec(sp, k), nil
	case eIte:
		return ite(c, n, zero, c.integer, iteIvec)
	case eCase:
		return zero, errorf(n.pos, ErrUnsupported, "an integer case…esac is only allowed as the value of an assignment; use ?: in expressions")
	case eSet:
		return zero, errorf(n.pos, ErrType, "a choice {…} can only be the value of an assignment")
	}
	return zero, errorf(n.pos, ErrType, "%s is not an integer expression", Expr{n})
}

// assign compiles "v′ ∈ values(n)": the relation between the current state
// and v's next value. A case without a matching branch, or a value outside
// v's range, gives false (the command is not enabled).
func (c *compiler) assign(v *Var, n *enode) (fds.BDD, error) {
	sp := c.st.sp
	f, ok := c.st.fv[v]
	if !ok {
		return sp.False(), errorf(n.pos, ErrProgram, "%s is not visible here", v)
	}
	switch n.op {
	case eSet:
		r := sp.False()
		for _, a := range n.args {
			b, err := c.assign(v, a)
			if err != nil {
				return b, err
			}
			r = r.Or(b)
		}
		return r, nil
	case eCase:
		r := sp.False()
		rest := sp.True()
		for i := 0; i+1 < len(n.args); i += 2 {
			cond, err := c.boolean(n.args[i])
			if err != nil {
				return cond, err
			}
			b, err := c.assign(v, n.args[i+1])
			if err != nil {
				return b, err
			}
			r = r.Or(rest.And(cond).And(b))
			rest = rest.And(cond.Not())
		}
		return r, nil
	case eIte:
		return ite(c, n, sp.False(), func(a *enode) (fds.BDD, error) { return c.assign(v, a) }, fds.BDD.Ite)
	}
	if v.bool {
		b, err := c.boolean(n)
		if err != nil {
			return b, err
		}
		return f.Bit(0, true).Iff(b), nil
	}
	x, err := c.integer(n)
	if err != nil {
		return sp.False(), err
	}
	return varIvec(sp, f, true).eq(x).And(f.Dom(true)), nil
}

// ite compiles the operands of "cond ? a : b" with sub and combines them.
func ite[T any](c *compiler, n *enode, zero T, sub func(*enode) (T, error), mk func(fds.BDD, T, T) T) (T, error) {
	cond, err := c.boolean(n.args[0])
	if err != nil {
		return zero, err
	}
	a, err := sub(n.args[1])
	if err != nil {
		return zero, err
	}
	b, err := sub(n.args[2])
	if err != nil {
		return zero, err
	}
	return mk(cond, a, b), nil
}
