package split

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/internal/fds"
	"github.com/henceforth-go/henceforth/ltl"
)

// MonolithicStats describes a monolithic (non-compositional) check.
type MonolithicStats struct {
	Iterations int           // image steps of the reachability fixpoint
	States     float64       // reachable states
	Nodes      int           // BDD nodes of the reachable set
	PeakNodes  int           // nodes in use in the store
	Duration   time.Duration // wall time
}

// CheckMonolithic decides prop by ordinary symbolic model checking of the
// whole composition in one BDD store: breadth-first reachability with a
// partitioned transition relation T = ⋁_k T_k ∧ pres(L∖L_k), applied
// process by process (chaining), for an invariant; for an LTL property, the fair states (Kesten–Pnueli–Raviv) of
// the product of the composition with a Büchi automaton of ¬φ under the
// program's justice, compassion and unconditional fairness. It is the
// baseline the compositional checks are measured against (the "JTLV
// monolithic" columns of the thesis's tables) and the oracle of the tests.
// Its counterexamples are not extracted: a Violated verdict has none.
func CheckMonolithic(ctx context.Context, p *Program, prop *Property, maxNodes int) (*Result, MonolithicStats, error) {
	start := time.Now()
	var ms MonolithicStats
	if err := p.Validate(); err != nil {
		return nil, ms, err
	}
	if err := prop.Validate(); err != nil {
		return nil, ms, err
	}
	mono, err := newMonolith(ctx, p, prop, maxNodes)
	if err != nil {
		return nil, ms, err
	}
	res := &Result{Property: prop}
	var verdict Verdict
	if prop.Kind == KindInvariant {
		verdict, err = mono.invariant(ctx, prop, &ms)
	} else {
		verdict, err = mono.ltl(ctx, prop, &ms)
	}
	ms.Duration = time.Since(start)
	if mono.st != nil {
		ms.PeakNodes = mono.st.nodes()
	}
	if cerr := ctx.Err(); cerr != nil {
		verdict, err = Unknown, cerr // the verdict means nothing
	}
	if err != nil {
		if reason, ok := unknownReason(err); ok {
			res.Verdict, res.Reason = Unknown, reason
			return res, ms, nil
		}
		if errors.Is(err, ErrUnsupported) {
			res.Verdict, res.Reason = Unknown, err.Error()
			return res, ms, nil
		}
		return nil, ms, err
	}
	res.Verdict = verdict
	res.Reason = "monolithic"
	res.Duration = ms.Duration
	return res, ms, nil
}

// monolith is the whole composition in one store (and, for LTL, the
// automaton's variables).
type monolith struct {
	ctx    context.Context // interrupts the store's BDD operations
	p      *Program
	m      *model
	st     *store
	rels   []fds.BDD // T_k ∧ pres(L∖L_k) (∧ automaton step ∧ who′ = k)
	cur    fds.Cube
	next   fds.Cube
	init   fds.BDD
	q, acc *Var
	who    *Var

	maxNodes int
}

func newMonolith(ctx context.Context, p *Program, prop *Property, maxNodes int) (*monolith, error) {
	mo := &monolith{p: p, maxNodes: maxNodes, ctx: ctx}
	if prop.Kind == KindLTL {
		mo.q = &Var{name: "$q", index: -1}
		mo.acc = &Var{name: "$acc", hi: 1, bool: true, index: -1}
		for _, pr := range p.procs {
			if pr.scheduled {
				mo.who = &Var{name: "$who", hi: max(len(p.procs)-1, 0), index: -1}
				break
			}
		}
	}
	return mo, nil
}

// build compiles the model once the automaton size is known.
func (mo *monolith) build(aut *automaton.GBA, prop *Property) error {
	p := mo.p
	lay := newLayout(p, nil, nil)
	if mo.q != nil {
		mo.q.hi = max(len(aut.States)-1, 0)
	}
	m, err := compileModelExtra(lay, storeLimits{maxNodes: mo.maxNodes, initialNodes: defaultNodes, ctx: mo.ctx}, mo.q, mo.acc, mo.who)
	if err != nil {
		return err
	}
	mo.m, mo.st = m, m.st
	st := m.st
	all := append([]*Var(nil), lay.shared...)
	for k := range p.procs {
		all = append(all, lay.locals[k]...)
	}
	var extra []*Var
	for _, v := range []*Var{mo.q, mo.acc, mo.who} {
		if v != nil {
			extra = append(extra, v)
		}
	}
	mo.cur = st.cube(append(all, extra...), false)
	mo.next = st.cube(append(all, extra...), true)
	mo.init = m.initX
	for k := range p.procs {
		mo.init = mo.init.And(m.init[k])
	}
	// The automaton step, read on the current state.
	step := st.sp.True()
	if aut != nil {
		atoms := map[string]fds.BDD{}
		for name, e := range prop.Atoms {
			b, err := m.c.boolean(e.n)
			if err != nil {
				return err
			}
			atoms[name] = b
		}
		step, _ = automatonStep(st, aut, atoms, mo.q, mo.acc)
		initQ := st.sp.False()
		for _, q := range aut.Initial {
			initQ = initQ.Or(st.eq(mo.q, q, false))
		}
		mo.init = mo.init.And(initQ).And(st.fv[mo.acc].Bit(0, false).Not())
		if mo.who != nil {
			mo.init = mo.init.And(st.fv[mo.who].Dom(false))
		}
	}
	for k := range p.procs {
		if err := m.ensure(k); err != nil {
			return err
		}
		var others []*Var
		for j := range p.procs {
			if j != k {
				others = append(others, lay.locals[j]...)
			}
		}
		r := m.trans[k].And(st.pres(others)).And(step)
		if mo.who != nil {
			r = r.And(st.eq(mo.who, k, true))
		}
		mo.rels = append(mo.rels, r)
	}
	return st.err()
}

func (mo *monolith) post(s fds.BDD) fds.BDD {
	r := mo.st.sp.False()
	for _, rel := range mo.rels {
		r = r.Or(s.AndExists(rel, mo.cur).Unprime())
	}
	return r
}

// reach returns the states reachable from from within within, applying
// the processes' relations one after the other to the whole set (chaining),
// which keeps the BDDs of loosely coupled processes close to products.
func (mo *monolith) reach(ctx context.Context, from, within fds.BDD, ms *MonolithicStats) (fds.BDD, error) {
	r := from.And(within)
	for {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		if ms != nil {
			ms.Iterations++
		}
		old := r
		for i, rel := range mo.rels {
			if i%16 == 15 {
				if err := ctx.Err(); err != nil {
					return r, err
				}
			}
			r = r.Or(r.AndExists(rel, mo.cur).Unprime().And(within))
		}
		if err := mo.st.err(); err != nil {
			return r, err
		}
		if r.Equal(old) {
			return r, nil
		}
	}
}

func (mo *monolith) invariant(ctx context.Context, prop *Property, ms *MonolithicStats) (Verdict, error) {
	if err := mo.build(nil, prop); err != nil {
		return Unknown, err
	}
	sp := mo.st.sp
	r, err := mo.reach(ctx, mo.init, sp.True(), ms)
	if err != nil {
		return Unknown, err
	}
	ms.Nodes = r.Size()
	ms.States = mo.count(r)
	for _, c := range prop.Conjuncts {
		phi, err := mo.m.c.boolean(c.n)
		if err != nil {
			return Unknown, err
		}
		if !r.Diff(phi).IsFalse() {
			return Violated, nil
		}
	}
	return Proved, nil
}

func (mo *monolith) count(r fds.BDD) float64 {
	lay := mo.m.lay
	vars := append([]*Var(nil), lay.shared...)
	for k := range mo.p.procs {
		vars = append(vars, lay.locals[k]...)
	}
	return mo.st.satCount(r, mo.st.cube(vars, false).Levels())
}

func (mo *monolith) ltl(ctx context.Context, prop *Property, ms *MonolithicStats) (Verdict, error) {
	gba, err := automaton.Buchi(ctx, ltl.Not(prop.Formula))
	if err != nil {
		return Unknown, err
	}
	aut := gba.Degeneralize()
	if err := mo.build(aut, prop); err != nil {
		return Unknown, err
	}
	st := mo.st
	sp := st.sp
	m := mo.m
	reach, err := mo.reach(ctx, mo.init, sp.True(), ms)
	if err != nil {
		return Unknown, err
	}
	ms.Nodes = reach.Size()
	justice := []fds.BDD{st.fv[mo.acc].Bit(0, false)}
	var comp [][2]fds.BDD
	for k, pr := range mo.p.procs {
		if pr.scheduled && mo.who != nil {
			justice = append(justice, st.eq(mo.who, k, false))
		}
		for _, e := range pr.justice {
			b, err := m.c.boolean(e.n)
			if err != nil {
				return Unknown, err
			}
			justice = append(justice, b)
		}
		for _, c := range pr.compassion {
			a, err := m.c.boolean(c.P.n)
			if err != nil {
				return Unknown, err
			}
			b, err := m.c.boolean(c.Q.n)
			if err != nil {
				return Unknown, err
			}
			comp = append(comp, [2]fds.BDD{a, b})
		}
	}
	z := reach
	for {
		old := z
		z = z.And(mo.post(z))
		for _, j := range justice {
			if z, err = mo.reach(ctx, z.And(j), z, nil); err != nil {
				return Unknown, err
			}
		}
		for _, c := range comp {
			f, err := mo.reach(ctx, z.And(c[1]), z, nil)
			if err != nil {
				return Unknown, err
			}
			z = z.Diff(c[0]).Or(f)
		}
		if z.Equal(old) {
			break
		}
	}
	if z.IsFalse() {
		return Proved, nil
	}
	return Violated, nil
}

// compileModelExtra compiles every process of lay in one store that also
// holds the extra variables (declared last).
func compileModelExtra(lay *layout, lim storeLimits, extra ...*Var) (*model, error) {
	var xs []*Var
	for _, v := range extra {
		if v != nil {
			xs = append(xs, v)
		}
	}
	m, err := compileModelVars(lay, nil, xs, lim)
	if err != nil {
		return nil, fmt.Errorf("split: monolithic: %w", err)
	}
	return m, nil
}
