package split

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/internal/fds"
	"github.com/henceforth-go/henceforth/ltl"
)

// checkLiveness decides an LTL property under the program's fairness with
// the fair local liveness algorithm (FLL, Listings 4.4–4.5 of the thesis)
// and its refinement (Listing 4.6).
//
// The property must speak of shared variables only (the proof of Theorem
// 4.2 needs the automaton run to carry over from a global computation to
// its projection), so local variables its atoms read are made shared first
// ("the location variable of P[1] was exposed to all processes", §4.2.5).
//
// A round computes θ and, for the abstract process P^θ_i (initial states
// ∃L∖L_i: I; moves: T_i, and the summary T̄_k of every other process k),
// looks for a computation of the product with a Büchi automaton of ¬φ that
// is fair according to the abstract fairness Φ^θ (each justice or
// compassion predicate p of another process k replaced by ∃L_k: θ_k ∧ p;
// P_i's own terms kept as they are) and accepting: in variant A, on which
// infinitely often a move of process i leaves an accepting state (checked
// for every i); in variant B, on which the automaton accepts infinitely
// often (checked for one process). Unconditional fairness (a process is
// scheduled infinitely often) is tracked with the product variable "who"
// that records the process of the last move.
//
// No such computation: φ holds. Otherwise the abstract lasso σ is refined:
// a summary move that is not a MUST transition exposes its predicate; if
// all are, σ is concretised into a global lasso δ (unrolling its cycle until
// the global state repeats); δ fair under the real fairness is a
// counterexample (replayed, and checked against φ); otherwise a fairness
// term δ violates yields a local state c of the process concerned that the
// abstraction allowed, and L_j = c is exposed.
func checkLiveness(ctx context.Context, p *Program, prop *Property, opts Options) (*Result, error) {
	gba, err := automaton.Buchi(ctx, ltl.Not(prop.Formula))
	if err != nil {
		if errors.Is(err, automaton.ErrUnsupported) || errors.Is(err, automaton.ErrTooLarge) {
			return &Result{Verdict: Unknown, Reason: err.Error()}, nil
		}
		return nil, err
	}
	aut := gba.Degeneralize()
	promoted := map[*Var]bool{}
	for _, a := range prop.Formula.Atoms() {
		for _, v := range readsLocal(prop.Atoms[a]) {
			promoted[v] = true
		}
	}
	return refine(ctx, p, promoted, opts, func(inv *Invariant, rep *replayer, nextID int) (roundOutcome, error) {
		return liveRound(ctx, inv, aut, prop, rep, opts, nextID)
	})
}

// focus is the process variant B checks: the owner of the first local
// variable the property reads, or the first process.
func focus(lay *layout) int {
	for _, pr := range lay.prog.procs {
		for _, v := range pr.locals {
			if lay.promoted[v] {
				return pr.index
			}
		}
	}
	return 0
}

// liveEarlyStop returns the test that stops a liveness round's sequential
// fixpoint early, after its first round (see partialLiveRound).
func liveEarlyStop() func(m *model, theta []fds.BDD) bool {
	return func(*model, []fds.BDD) bool { return true }
}

// liveAttempts: a liveness round looks for a MUST refinement on the
// partial invariant after fixpoint rounds 2, 4, …, liveAttempts. A
// refinement round usually finds its predicate within a few fixpoint
// rounds (DINING-PHIL: 4–6, MUX-SEM starvation: 4), and its complete
// fixpoint can be far more expensive than the last round's (DINING-PHIL
// N = 8: 31 s against 3 s: intermediate exposures make larger θ than the
// final ones). In the last round (a proof or a counterexample) every
// attempt is wasted, and later in a fixpoint an attempt costs several
// fixpoint rounds (the intermediate θ are larger than the final one:
// DINING-PHIL N = 9, after round 24, 9 s against 4.3 s for the whole
// fixpoint), hence few attempts, early. The schedule is by rounds, not
// time, so that the predicates found do not depend on the machine's speed.
const liveAttempts = 6

func liveRound(ctx context.Context, inv *Invariant, aut *automaton.GBA, prop *Property, rep *replayer, opts Options, nextID int) (roundOutcome, error) {
	lay := inv.m.lay
	order := []int{focus(lay)}
	if opts.Variant == VariantA {
		order = order[:0]
		for k := range lay.prog.procs {
			order = append(order, k)
		}
	}
	// Stopped early (liveEarlyStop): look for a MUST refinement with the
	// partial components after fixpoint rounds 2, 4, …, liveAttempts, then
	// complete the fixpoint.
	for inv.partial {
		if r := inv.Stats.Rounds; r%2 == 0 && r <= liveAttempts {
			t0 := time.Now()
			out, ok, err := partialLiveRound(ctx, inv, aut, prop, opts, order, nextID)
			if err != nil || ok {
				return out, err
			}
			debugf("  no MUST refinement at fixpoint round %d (%v)", inv.Stats.Rounds, time.Since(t0))
		}
		if _, err := inv.advance(ctx); err != nil {
			return roundOutcome{}, err
		}
	}
	for _, i := range order {
		pd, σ, err := abstractLasso(ctx, inv, i, aut, prop, opts.Variant)
		if err != nil {
			return roundOutcome{}, err
		}
		if σ != nil {
			return pd.analyse(ctx, σ, rep, prop, opts, nextID)
		}
	}
	which := fmt.Sprintf("the abstract process %s admits no", lay.prog.procs[order[0]].name)
	if opts.Variant == VariantA {
		which = fmt.Sprintf("none of the %d abstract processes admits a", len(order))
	}
	return roundOutcome{reason: fmt.Sprintf("FLL(%s): %s fair computation violating it", opts.Variant, which)}, nil
}

// partialLiveRound looks, on a partial invariant, for an abstract fair
// counterexample with a summary move that is not a MUST transition; ok
// reports whether it found one to expose. This is sound because
// everything the round builds from θ grows with θ: the summaries (a move
// of the partial product is a move of the final one), the abstract
// fairness sets ∃L_k: θ_k ∧ p (a computation fair for the partial ones is
// fair for the final ones), while the initial states and P_i's own moves
// and fairness do not depend on θ. So the lasso found is an abstract
// counterexample of the final round too, and a move that is not a MUST
// transition for the partial θ_k is not one for the final θ_k: it starts
// from a state a of the partial summary, so some local state of θ_k at a
// makes it and the predicate (local states of θ_k at a that cannot) is
// non-empty and splits the local states that agree on every predicate
// exposed so far (they all agree with a's auxiliary variables). Other
// outcomes (no lasso, all moves MUST) need the complete fixpoint.
func partialLiveRound(ctx context.Context, inv *Invariant, aut *automaton.GBA, prop *Property, opts Options, order []int, nextID int) (roundOutcome, bool, error) {
	for _, i := range order {
		pd, σ, err := abstractLasso(ctx, inv, i, aut, prop, opts.Variant)
		if err != nil {
			return roundOutcome{}, false, err
		}
		if σ == nil {
			continue
		}
		e, err := pd.mustRefinement(σ, nextID)
		if err != nil || e != nil {
			return roundOutcome{exposure: e, liveStop: true}, e != nil, err
		}
	}
	return roundOutcome{}, false, nil
}

// abstractLasso builds the product of the abstract process P^θ_i with the
// automaton of ¬φ and returns it with one of its fair lassos, or with a
// nil lasso if it has no fair computation.
func abstractLasso(ctx context.Context, inv *Invariant, i int, aut *automaton.GBA, prop *Property, variant Variant) (*liveProduct, *absLasso, error) {
	pd, err := newLiveProduct(ctx, inv, i, aut, prop, variant)
	if err != nil {
		return nil, nil, err
	}
	z, err := pd.fairStates(ctx)
	if err != nil || z.IsFalse() {
		return pd, nil, err
	}
	σ, err := pd.lasso(ctx, z)
	return pd, σ, err
}

// mustRefinement is step 1 of Listing 4.6: the exposure for the first
// summary move of σ that is not a MUST transition, or nil.
func (pd *liveProduct) mustRefinement(σ *absLasso, nextID int) (*exposure, error) {
	inv := pd.inv
	p := inv.m.lay.prog
	for j, mv := range σ.moves {
		if !mv.summary {
			continue
		}
		if must, pred := inv.must(mv.proc, σ.states[j], σ.states[j+1]); !must {
			return newExposure(inv, mv.proc, pred, nextID, fmt.Sprintf("MUST check of a %s move", p.procs[mv.proc].name))
		}
	}
	return nil, nil
}

// liveProduct is the synchronous product of the abstract process P^θ_i
// with the Büchi automaton of ¬φ, in a store of its own over X ∪ L_i and
// the product's variables: the automaton state q, acc (the last move took
// an accepting edge; in variant A, and was a move of i) and who (the
// process of the last move, when some process is unconditionally fair).
type liveProduct struct {
	inv     *Invariant
	i       int
	st      *store
	vars    []*Var
	q, acc  *Var
	who     *Var
	init    fds.BDD
	own     fds.BDD
	others  fds.BDD // summary moves of all other processes
	rel     fds.BDD // own ∨ others
	cur     fds.Cube
	next    fds.Cube
	justice []fds.BDD
	reach   fds.BDD // the reachable states (set by fairStates)
	whoCur  fds.Cube
	comp    [][2]fds.BDD
}

func newLiveProduct(ctx context.Context, inv *Invariant, i int, aut *automaton.GBA, prop *Property, variant Variant) (*liveProduct, error) {
	m := inv.m
	lay := m.lay
	p := lay.prog
	n := len(p.procs)
	if err := m.ensure(i); err != nil {
		return nil, err
	}
	pd := &liveProduct{inv: inv, i: i}
	pd.q = &Var{name: "$q", hi: max(len(aut.States)-1, 0), index: -1}
	pd.acc = &Var{name: "$acc", hi: 1, bool: true, index: -1}
	scheduled := false
	for _, pr := range p.procs {
		scheduled = scheduled || pr.scheduled
	}
	// The product's own variables come first in the order: every move
	// fixes who′, so a set of successors splits on who′ at the root
	// instead of below every state (with who last, the frontiers of
	// MUX-SEM starvation N = 12 grew to 30k nodes for 200-node sets, and
	// its check took 2.2× longer).
	pd.vars = []*Var{pd.q, pd.acc}
	if scheduled {
		pd.who = &Var{name: "$who", hi: max(n-1, 0), index: -1}
		pd.vars = append([]*Var{pd.who}, pd.vars...)
	}
	pd.vars = append(append(pd.vars, lay.shared...), lay.locals[i]...)
	st, err := newStore(pd.vars, storeLimits{initialNodes: 1 << 16, ctx: ctx})
	if err != nil {
		return nil, err
	}
	pd.st = st
	mv := func(f fds.BDD) fds.BDD { return m.st.move(f, st) }
	pd.cur = st.cube(pd.vars, false)
	if pd.who != nil {
		pd.whoCur = st.cube([]*Var{pd.who}, false)
	}
	pd.next = st.cube(pd.vars, true)

	// The automaton: D(q, X, q′, acc′) with acc′ ↔ the edge is accepting
	// (dAcc), or acc′ false (dNone).
	atoms := map[string]fds.BDD{}
	for name, e := range prop.Atoms {
		b, err := m.c.boolean(e.n)
		if err != nil {
			return nil, err
		}
		atoms[name] = mv(b)
	}
	dAcc, dNone := automatonStep(st, aut, atoms, pd.q, pd.acc)
	whoIs := func(k int) fds.BDD {
		if pd.who == nil {
			return st.sp.True()
		}
		return st.eq(pd.who, k, true)
	}
	pd.own = mv(m.trans[i]).And(dAcc).And(whoIs(i))
	dOthers := dAcc
	if variant == VariantA {
		dOthers = dNone
	}
	presLi := st.pres(lay.locals[i])
	others := st.sp.False()
	for k := range n {
		if k == i {
			continue
		}
		others = others.Or(mv(inv.sums[k]).And(whoIs(k)))
	}
	pd.others = others.And(presLi).And(dOthers)
	pd.rel = pd.own.Or(pd.others)

	initQ := st.sp.False()
	for _, q := range aut.Initial {
		initQ = initQ.Or(st.eq(pd.q, q, false))
	}
	init := m.initX.And(m.init[i])
	for k := range n {
		if k != i {
			init = init.And(m.init[k].Exists(m.lCur[k]))
		}
	}
	pd.init = mv(init).And(initQ).And(st.fv[pd.acc].Bit(0, false).Not())
	if pd.who != nil {
		pd.init = pd.init.And(st.fv[pd.who].Dom(false))
	}

	// Fairness: the automaton's, then each process's (abstracted unless it
	// is P_i's own).
	pd.justice = append(pd.justice, st.fv[pd.acc].Bit(0, false))
	for k, pr := range p.procs {
		if pr.scheduled && pd.who != nil {
			pd.justice = append(pd.justice, st.eq(pd.who, k, false))
		}
		abstract := func(e Expr, neg bool) (fds.BDD, error) {
			b, err := m.c.boolean(e.n)
			if err != nil {
				return b, err
			}
			if neg {
				b = b.Not()
			}
			if k == i {
				return mv(b), nil
			}
			return mv(inv.theta[k].And(b).Exists(m.lCur[k])), nil
		}
		for _, e := range pr.justice {
			b, err := abstract(e, false)
			if err != nil {
				return nil, err
			}
			pd.justice = append(pd.justice, b)
		}
		for _, c := range pr.compassion {
			// GF P → GF Q, i.e. FG ¬P ∨ GF Q: abstracted as
			// FG(∃L_k: θ_k ∧ ¬P) ∨ GF(∃L_k: θ_k ∧ Q).
			notP, err := abstract(c.P, true)
			if err != nil {
				return nil, err
			}
			q, err := abstract(c.Q, false)
			if err != nil {
				return nil, err
			}
			pd.comp = append(pd.comp, [2]fds.BDD{notP.Not(), q})
		}
	}
	return pd, st.err()
}

// post is the image of s. The relation never reads who (only sets who′):
// who is quantified out of s first, since with who on top of the order
// the relational product would otherwise run once per value of who in s
// (MUX-SEM starvation N = 20: 16 s → 5.3 s CPU).
func (pd *liveProduct) post(s fds.BDD) fds.BDD {
	if pd.who != nil {
		s = s.Exists(pd.whoCur)
	}
	return s.AndExists(pd.rel, pd.cur).Unprime()
}

func (pd *liveProduct) pre(s fds.BDD) fds.BDD { return pd.rel.AndExists(s.Prime(), pd.next) }

// forward returns the states reachable from s (s included) within z.
func (pd *liveProduct) forward(ctx context.Context, s, z fds.BDD) (fds.BDD, error) {
	r := s.And(z)
	front := r
	for !front.IsFalse() {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		front = pd.post(front).And(z).Diff(r)
		r = r.Or(front)
	}
	return r, pd.st.err()
}

// backward returns the states within z from which s is reachable.
func (pd *liveProduct) backward(ctx context.Context, s, z fds.BDD) (fds.BDD, error) {
	r := s.And(z)
	front := r
	for !front.IsFalse() {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		front = pd.pre(front).And(z).Diff(r)
		r = r.Or(front)
	}
	return r, pd.st.err()
}

// fairStates is the fair-states fixpoint of Kesten, Pnueli and Raviv in
// its forward form, restricted to the reachable states:
//
//	Z := reach; repeat
//	  Z := Z ∩ post(Z)                           (a predecessor in Z)
//	  Z := Z ∩ fwd_Z(Z ∩ J)            for each justice J
//	  Z := (Z ∖ P) ∪ fwd_Z(Z ∩ Q)      for each compassion (P, Q)
//	until Z is stable.
//
// Z is empty iff no fair computation exists; otherwise every initial
// strongly connected component of Z (no edge of Z enters it) is fair.
func (pd *liveProduct) fairStates(ctx context.Context) (fds.BDD, error) {
	sp := pd.st.sp
	z, err := pd.forward(ctx, pd.init, sp.True())
	if err != nil {
		return z, err
	}
	pd.reach = z
	for {
		old := z
		z = z.And(pd.post(z))
		for _, j := range pd.justice {
			if z, err = pd.forward(ctx, z.And(j), z); err != nil {
				return z, err
			}
		}
		for _, c := range pd.comp {
			f, err := pd.forward(ctx, z.And(c[1]), z)
			if err != nil {
				return z, err
			}
			z = z.Diff(c[0]).Or(f)
		}
		if z.Equal(old) {
			return z, pd.st.err()
		}
	}
}

// absLasso is a lasso of the product: states[j] are points over pd.vars;
// moves[j] leads from states[j] to states[j+1]; the last state equals
// states[loop].
type absLasso struct {
	states []map[*Var]int
	moves  []absMove
	loop   int
}

func (pd *liveProduct) point(vals map[*Var]int) fds.BDD {
	return pd.st.assignment(pd.vars, vals, false)
}

func (pd *liveProduct) pick(f fds.BDD) map[*Var]int {
	vals, _ := pd.st.pick(f, pd.vars, false)
	return vals
}

// path returns a shortest path of points from the point from to a state
// of target, moving within within (from's own membership is not required).
func (pd *liveProduct) path(ctx context.Context, from map[*Var]int, target, within fds.BDD, nonEmpty bool) ([]map[*Var]int, error) {
	start := pd.point(from)
	rings := []fds.BDD{start}
	seen := start
	if nonEmpty {
		first := pd.post(start).And(within)
		rings = []fds.BDD{first}
		seen = first
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		last := rings[len(rings)-1]
		if last.IsFalse() {
			return nil, errors.New("split: internal error: no path within the fair component")
		}
		if hit := last.And(target); !hit.IsFalse() {
			pts := []map[*Var]int{pd.pick(hit)}
			cur := pd.point(pts[0])
			for l := len(rings) - 2; l >= 0; l-- {
				prev := pd.pre(cur).And(rings[l])
				pts = append(pts, pd.pick(prev))
				cur = pd.point(pts[len(pts)-1])
			}
			if nonEmpty {
				pts = append(pts, from)
			}
			for a, b := 0, len(pts)-1; a < b; a, b = a+1, b-1 {
				pts[a], pts[b] = pts[b], pts[a]
			}
			return pts, nil
		}
		nw := pd.post(last).And(within).Diff(seen)
		seen = seen.Or(nw)
		rings = append(rings, nw)
	}
}

// lasso extracts a fair lasso from the fair states z: a path from an
// initial state into an initial strongly connected component C of z, and
// a cycle in C through every justice set and, for each compassion pair
// whose P meets C, through Q.
func (pd *liveProduct) lasso(ctx context.Context, z fds.BDD) (*absLasso, error) {
	// An initial SCC of z that reaches s: while some state reaches s but
	// is not reachable from it, move s there. Every state that reaches s
	// lies in b, so each round searches within the last one's b.
	s := pd.point(pd.pick(z))
	within := z
	var c fds.BDD
	for {
		b, err := pd.backward(ctx, s, within)
		if err != nil {
			return nil, err
		}
		f, err := pd.forward(ctx, s, b)
		if err != nil {
			return nil, err
		}
		if b.Equal(f) {
			c = b
			break
		}
		s = pd.point(pd.pick(b.Diff(f)))
		within = b
	}
	reach := pd.reach
	// Prefix: from an initial state to C.
	starts := pd.init
	var prefix []map[*Var]int
	{
		rings := []fds.BDD{starts}
		seen := starts
		for {
			last := rings[len(rings)-1]
			if hit := last.And(c); !hit.IsFalse() {
				pts := []map[*Var]int{pd.pick(hit)}
				cur := pd.point(pts[0])
				for l := len(rings) - 2; l >= 0; l-- {
					pts = append(pts, pd.pick(pd.pre(cur).And(rings[l])))
					cur = pd.point(pts[len(pts)-1])
				}
				for a, b := 0, len(pts)-1; a < b; a, b = a+1, b-1 {
					pts[a], pts[b] = pts[b], pts[a]
				}
				prefix = pts
				break
			}
			nw := pd.post(last).And(reach).Diff(seen)
			if nw.IsFalse() {
				return nil, errors.New("split: internal error: the fair component is unreachable")
			}
			seen = seen.Or(nw)
			rings = append(rings, nw)
		}
	}
	// Cycle through the targets and back.
	c0 := prefix[len(prefix)-1]
	var targets []fds.BDD
	targets = append(targets, pd.justice...)
	for _, cp := range pd.comp {
		if !c.And(cp[0]).IsFalse() {
			targets = append(targets, cp[1])
		}
	}
	cycle := []map[*Var]int{c0}
	for _, t := range targets {
		cur := cycle[len(cycle)-1]
		if !pd.point(cur).And(t).IsFalse() {
			continue
		}
		seg, err := pd.path(ctx, cur, c.And(t), c, false)
		if err != nil {
			return nil, err
		}
		cycle = append(cycle, seg[1:]...)
	}
	seg, err := pd.path(ctx, cycle[len(cycle)-1], pd.point(c0), c, true)
	if err != nil {
		return nil, err
	}
	cycle = append(cycle, seg[1:]...)
	l := &absLasso{states: append(prefix, cycle[1:]...), loop: len(prefix) - 1}
	for j := 0; j+1 < len(l.states); j++ {
		l.moves = append(l.moves, pd.mover(l.states[j], l.states[j+1]))
	}
	return l, nil
}

// mover says which process made the product move from → to.
func (pd *liveProduct) mover(from, to map[*Var]int) absMove {
	if pd.who != nil {
		k := to[pd.who]
		return absMove{proc: k, summary: k != pd.i}
	}
	step := pd.point(from).And(pd.st.assignment(pd.vars, to, true))
	if !pd.own.And(step).IsFalse() {
		return absMove{proc: pd.i}
	}
	m := pd.inv.m
	shared := m.lay.shared
	xs := m.st.assignment(shared, from, false).And(m.st.assignment(shared, to, true))
	first := -1
	for k := range m.lay.prog.procs {
		if k == pd.i || pd.inv.sums[k].And(xs).IsFalse() {
			continue
		}
		if first < 0 {
			first = k
		}
		if must, _ := pd.inv.must(k, from, to); must {
			return absMove{proc: k, summary: true}
		}
	}
	return absMove{proc: first, summary: true}
}

// analyse refines on an abstract lasso (Listing 4.6).
func (pd *liveProduct) analyse(ctx context.Context, σ *absLasso, rep *replayer, prop *Property, opts Options, nextID int) (roundOutcome, error) {
	inv := pd.inv
	m := inv.m
	lay := m.lay
	p := lay.prog
	if debugLasso() {
		for j, st := range σ.states {
			var b strings.Builder
			for _, v := range pd.vars {
				fmt.Fprintf(&b, "%s=%s ", v.name, v.format(st[v]))
			}
			mark := ""
			if j == σ.loop {
				mark = " <loop"
			}
			mv := ""
			if j < len(σ.moves) {
				mv = fmt.Sprintf(" --%s(sum=%v)-->", p.procs[σ.moves[j].proc].name, σ.moves[j].summary)
			}
			debugf("σ[%d] %s%s%s", j, b.String(), mark, mv)
		}
	}
	// Step 1: every summary move must be a MUST transition.
	if e, err := pd.mustRefinement(σ, nextID); err != nil || e != nil {
		return roundOutcome{exposure: e, liveStop: true}, err
	}
	// Step 2: a global computation following σ, its cycle unrolled until
	// the global state repeats.
	s0 := map[*Var]int{}
	for _, v := range append(append([]*Var(nil), lay.shared...), lay.locals[pd.i]...) {
		s0[v] = σ.states[0][v]
	}
	c, err := newConcretizer(inv, rep, s0)
	if err != nil {
		return roundOutcome{}, err
	}
	for j := 0; j < σ.loop; j++ {
		if err := c.move(σ.moves[j], σ.states[j+1]); err != nil {
			return roundOutcome{}, err
		}
	}
	maxUnroll := opts.MaxUnroll
	if maxUnroll <= 0 {
		maxUnroll = 64
	}
	abstractOf := []int{} // δ position → σ position
	for j := 0; j <= σ.loop; j++ {
		abstractOf = append(abstractOf, j)
	}
	seen := map[string]int{stateKey(c.tr.States[σ.loop]): σ.loop}
	loop := -1
	for u := 0; u < maxUnroll && loop < 0; u++ {
		if err := ctx.Err(); err != nil {
			return roundOutcome{}, err
		}
		for j := σ.loop; j < len(σ.moves); j++ {
			if err := c.move(σ.moves[j], σ.states[j+1]); err != nil {
				return roundOutcome{}, err
			}
			abstractOf = append(abstractOf, j+1)
		}
		abstractOf[len(abstractOf)-1] = σ.loop
		key := stateKey(c.tr.States[len(c.tr.States)-1])
		if at, ok := seen[key]; ok {
			loop = at
		} else {
			seen[key] = len(c.tr.States) - 1
		}
	}
	if loop < 0 {
		return roundOutcome{unknown: fmt.Sprintf("the abstract counterexample's cycle did not close concretely within %d unrollings", maxUnroll)}, nil
	}
	δ := c.tr
	δ.Loop = loop
	// Step 3: is δ fair?
	term, err := unfairTerm(δ, rep)
	if err != nil {
		return roundOutcome{}, err
	}
	if term == nil {
		n := len(δ.States) - 1
		holds := func(i int, atom string) bool {
			ok, _ := rep.holds(prop.Atoms[atom], δ.States[i])
			return ok
		}
		ok, err := automaton.EvalLasso(prop.Formula, automaton.Lasso{Word: stateWord{n, holds}, Loop: loop})
		if err != nil {
			return roundOutcome{}, err
		}
		if ok {
			return roundOutcome{}, fmt.Errorf("split: internal error: the concrete lasso satisfies %s", prop.Formula)
		}
		return roundOutcome{trace: δ, reason: fmt.Sprintf("a fair computation violates it (lasso of %d moves, cycle of %d)", len(δ.Steps), len(δ.Steps)-loop)}, nil
	}
	// Step 4: expose a local state the abstract fairness allowed.
	e, err := pd.fairnessRefinement(σ, δ, abstractOf, term, rep, nextID)
	if err != nil || e == nil {
		if err == nil {
			return roundOutcome{unknown: "no predicate explains why the abstract counterexample is unfair"}, nil
		}
		return roundOutcome{}, err
	}
	return roundOutcome{exposure: e}, nil
}

func stateKey(s []int) string {
	var b strings.Builder
	for _, x := range s {
		fmt.Fprintf(&b, "%d,", x)
	}
	return b.String()
}

// fairTerm is a fairness requirement of one process that a lasso violates.
type fairTerm struct {
	proc       int
	justice    Expr       // violated justice
	compassion Compassion // violated compassion (when justice is zero)
}

// unfairTerm returns a fairness requirement the lasso t violates, or nil.
func unfairTerm(t *Trace, rep *replayer) (*fairTerm, error) {
	p := t.prog
	cycle := t.States[t.Loop : len(t.States)-1]
	moved := map[string]bool{}
	for _, s := range t.Steps[t.Loop:] {
		moved[s.Process] = true
	}
	some := func(e Expr) (bool, error) {
		for _, s := range cycle {
			ok, err := rep.holds(e, s)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	for _, pr := range p.procs {
		if pr.scheduled && !moved[pr.name] {
			return nil, fmt.Errorf("split: internal error: %s is never scheduled on the cycle", pr.name)
		}
		for _, e := range pr.justice {
			ok, err := some(e)
			if err != nil {
				return nil, err
			}
			if !ok {
				return &fairTerm{proc: pr.index, justice: e}, nil
			}
		}
		for _, c := range pr.compassion {
			ok, err := some(c.P)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			ok, err = some(c.Q)
			if err != nil {
				return nil, err
			}
			if !ok {
				return &fairTerm{proc: pr.index, compassion: c}, nil
			}
		}
	}
	return nil, nil
}

// fairnessRefinement implements step 4 of Listing 4.6: find a state s on
// σ's cycle and its counterpart t on δ where the abstract predicate holds
// (it has a witness c for L_j allowed by θ_j) but the concrete one does
// not, and expose L_j = c.
func (pd *liveProduct) fairnessRefinement(σ *absLasso, δ *Trace, abstractOf []int, term *fairTerm, rep *replayer, nextID int) (*exposure, error) {
	inv := pd.inv
	m := inv.m
	st := m.st
	lay := m.lay
	j := term.proc
	if j == pd.i || len(lay.locals[j]) == 0 {
		return nil, nil
	}
	witness := func(sIdx int, e Expr, neg bool) (fds.BDD, bool, error) {
		b, err := m.c.boolean(e.n)
		if err != nil {
			return b, false, err
		}
		if neg {
			b = b.Not()
		}
		f := inv.theta[j].And(b).And(st.assignment(lay.shared, σ.states[sIdx], false))
		vals, ok := st.pick(f, lay.locals[j], false)
		if !ok {
			return f, false, nil
		}
		return st.assignment(lay.locals[j], vals, false), true, nil
	}
	reason := fmt.Sprintf("fairness of %s", lay.prog.procs[j].name)
	cyc := δ.States[δ.Loop : len(δ.States)-1]
	idx := func(t int) int { return abstractOf[δ.Loop+t] }
	if !term.justice.IsZero() {
		for t := range cyc {
			if c, ok, err := witness(idx(t), term.justice, false); err != nil {
				return nil, err
			} else if ok {
				return newExposure(inv, j, c, nextID, reason)
			}
		}
		return nil, nil
	}
	// Compassion GF P → GF Q violated: P holds somewhere on δ's cycle, Q
	// nowhere. Either σ's cycle has a state allowing Q …
	for t := range cyc {
		if c, ok, err := witness(idx(t), term.compassion.Q, false); err != nil {
			return nil, err
		} else if ok {
			return newExposure(inv, j, c, nextID, reason)
		}
	}
	// … or every state of σ's cycle allows ¬P while δ has P somewhere.
	for t, s := range cyc {
		ok, err := rep.holds(term.compassion.P, s)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if c, ok, err := witness(idx(t), term.compassion.P, true); err != nil {
			return nil, err
		} else if ok {
			return newExposure(inv, j, c, nextID, reason)
		}
	}
	return nil, nil
}

// automatonStep is the Büchi automaton's move as a relation over q, the
// atoms (read on the current state), q′ and acc′: dAcc sets acc′ exactly
// on accepting edges, dNone never.
func automatonStep(st *store, aut *automaton.GBA, atoms map[string]fds.BDD, q, acc *Var) (dAcc, dNone fds.BDD) {
	dAcc, dNone = st.sp.False(), st.sp.False()
	accNext := st.fv[acc].Bit(0, true)
	for from, s := range aut.States {
		for _, e := range s.Edges {
			g := st.eq(q, from, false).And(st.eq(q, e.To, true))
			for _, l := range e.Guard {
				if l.Negated {
					g = g.And(atoms[l.Atom].Not())
				} else {
					g = g.And(atoms[l.Atom])
				}
			}
			if e.In(0) {
				dAcc = dAcc.Or(g.And(accNext))
			} else {
				dAcc = dAcc.Or(g.And(accNext.Not()))
			}
			dNone = dNone.Or(g.And(accNext.Not()))
		}
	}
	return dAcc, dNone
}

// stateWord is the sequence of a lasso's states as an ltl.Trace: holds(i,
// atom) is the atom's value in state i.
type stateWord struct {
	n     int
	holds func(i int, atom string) bool
}

func (w stateWord) Len() int                      { return w.n }
func (w stateWord) Holds(i int, atom string) bool { return w.holds(i, atom) }
