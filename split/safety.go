package split

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// checkSafety proves an invariant with the strongest split invariant,
// refining by exposing local predicates (Cohen and Namjoshi's safety
// refinement, as in the SPLIT tool) until the property is proved or a real
// counterexample is found and replayed on the composition.
//
// A round computes θ for the current exposures and checks each conjunct φ
// of the property, reading the locals of processes R:
//
//  1. if (⋀_{k∈R} θ_k) ∧ (⋀_k ∃L_k: θ_k) ∧ ¬φ is empty, φ holds;
//  2. otherwise search the abstract product A_R — processes R concrete,
//     every other process k replaced by its summary T̄_k — for a shortest
//     path to ¬φ. A_R over-approximates the projection of the program on
//     X ∪ L_R (a move of k from a reachable state is in T̄_k), so no path
//     means φ holds;
//  3. on a path, each summary move X=a → X′=b of a process k is checked to
//     be a MUST transition (possible from every local state θ_k allows with
//     X = a). The first that is not gives the predicate
//     m(L_k) ≡ θ_k(a, L_k) ∧ ¬∃L_k′: T_k(a, L_k, b, L_k′), which is exposed
//     (for every process of k's template) and the next round starts;
//  4. if every summary move is a MUST transition the path is concretised
//     move by move into a computation of the whole program, which is
//     replayed on the program and returned.
func checkSafety(ctx context.Context, p *Program, prop *Property, opts Options) (*Result, error) {
	return refine(ctx, p, nil, opts, func(inv *Invariant, rep *replayer, nextID int) (roundOutcome, error) {
		return safetyRound(ctx, inv, prop, rep, nextID)
	})
}

// earlyStop returns, for a round after a refinement found on conjunct c,
// the test that stops the sequential fixpoint as soon as the partial
// components admit a violation of c again: a path of the abstract product
// found then is a path with the final summaries too (they only grow), and
// a summary move that is not a MUST transition for the partial θ_k is not
// one for the final θ_k either (and still splits the local states that
// agree on every predicate exposed so far), so the round can refine without
// finishing a fixpoint that is often the most expensive of the run.
func earlyStop(c Expr) func(m *model, theta []fds.BDD) bool {
	R := processesOf(c)
	if c.IsZero() || len(R) == 0 {
		return nil
	}
	var notPhi fds.BDD
	compiled := false
	return func(m *model, theta []fds.BDD) bool {
		if !compiled {
			phi, err := m.c.boolean(c.n)
			if err != nil {
				return false
			}
			notPhi, compiled = phi.Not(), true
		}
		bad := notPhi
		for _, k := range R {
			bad = bad.And(theta[k])
		}
		return !bad.IsFalse()
	}
}

// refine runs verification rounds, exposing one predicate per round, until
// a round proves the property or finds a counterexample (which is replayed
// on the real composition first).
func refine(ctx context.Context, p *Program, promoted map[*Var]bool, opts Options,
	round func(inv *Invariant, rep *replayer, nextID int) (roundOutcome, error)) (*Result, error) {
	res := &Result{}
	rep, err := newReplayer(p)
	if err != nil {
		return nil, err
	}
	var exps []*exposure
	var hint Expr     // the conjunct of the last refinement (safety)
	liveStop := false // the last refinement was a liveness MUST refinement
	lim := storeLimits{maxNodes: opts.MaxNodes, initialNodes: opts.initialNodes(), ctx: ctx}
	for {
		lay := newLayout(p, promoted, exps)
		var stop func(*model, []fds.BDD) bool
		if !hint.IsZero() {
			stop = earlyStop(hint)
		} else if liveStop && (opts.Workers <= 1 || len(p.procs) == 1) {
			stop = liveEarlyStop()
		}
		inv, err := computeInvariantUntil(ctx, lay, fixpoint{opts.Workers, opts.Schedule, opts.Staged}, lim, stop)
		if err != nil {
			return nil, err
		}
		res.Invariant = inv.Stats
		t0 := time.Now()
		out, err := round(inv, rep, len(exps)+1)
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr // the round's outcome, even an error, means nothing
		}
		if err != nil {
			return nil, err
		}
		debugf("round %d: invariant %+v; check %v", len(exps), inv.Stats, time.Since(t0))
		switch {
		case out.unknown != "":
			res.Verdict = Unknown
			res.Reason = out.unknown
			return res, nil
		case out.trace != nil:
			if err := rep.replay(out.trace); err != nil {
				return nil, fmt.Errorf("split: internal error: the counterexample does not replay: %w", err)
			}
			res.Verdict = Violated
			res.Counterexample = out.trace
			res.Reason = out.reason
			return res, nil
		case out.exposure == nil:
			res.Verdict = Proved
			res.Reason = out.reason
			return res, nil
		}
		if len(exps) >= opts.maxRefinements() {
			res.Verdict = Unknown
			res.Reason = fmt.Sprintf("refinement limit (%d) reached; the next predicate would be %s", opts.maxRefinements(), out.exposure.describe())
			return res, nil
		}
		for _, e := range exps {
			if e.rep.template == out.exposure.rep.template && e.text == out.exposure.text && e.reason == out.exposure.reason {
				res.Verdict = Unknown
				res.Reason = "refinement found no new predicate: " + out.exposure.describe()
				return res, nil
			}
		}
		exps = append(exps, out.exposure)
		hint = out.conjunct
		liveStop = out.liveStop
		res.Refinements++
		res.Exposed = append(res.Exposed, out.exposure.describe())
	}
}

// defaultNodes is the initial node table of the stores of Check,
// ComputeInvariant and CheckMonolithic. It is small because tables double
// on demand without a collection up to growNodes, so a large program pays
// a few copies of its table while it grows, and a small one does not pay
// for a table it never fills: a table of 2^20 nodes (about 64 MB with its
// cache) takes ~0.1 s of CPU to allocate and clear per store, more than
// the whole check of a small program.
const defaultNodes = 1 << 16

// roundOutcome is what one round found: a proof (neither field set), a
// counterexample, or a predicate to expose.
type roundOutcome struct {
	reason   string
	unknown  string
	conjunct Expr
	trace    *Trace
	exposure *exposure
	// liveStop (liveness): the exposure was found by the MUST check, so
	// the next round's fixpoint may stop early (see liveEarlyStop).
	liveStop bool
}

func safetyRound(ctx context.Context, inv *Invariant, prop *Property, rep *replayer, nextID int) (roundOutcome, error) {
	// Stopped early by earlyStop: look for a refinement with the partial
	// components, round after round, until one is found or the fixpoint
	// is reached.
	for inv.partial {
		if out, ok, err := partialRound(ctx, inv, prop, nextID); err != nil || ok {
			return out, err
		}
		if _, err := inv.advance(ctx); err != nil {
			return roundOutcome{}, err
		}
	}
	m := inv.m
	st := m.st
	lay := m.lay
	n := len(lay.prog.procs)
	proj := make([]fds.BDD, n)
	for k := range n {
		proj[k] = inv.theta[k].Exists(m.lCur[k])
	}
	all := st.sp.And(proj...)
	byInvariant, byProduct := 0, 0
	for ci, c := range prop.Conjuncts {
		if ci%64 == 63 {
			if err := ctx.Err(); err != nil {
				return roundOutcome{}, err
			}
		}
		phi, err := m.c.boolean(c.n)
		if err != nil {
			return roundOutcome{}, err
		}
		R := processesOf(c)
		bad := phi.Not().And(all)
		for _, k := range R {
			bad = bad.And(inv.theta[k])
		}
		if bad.IsFalse() {
			byInvariant++
			continue
		}
		ap, err := newAbsProduct(inv, R)
		if err != nil {
			return roundOutcome{}, err
		}
		path, err := ap.shortestPath(ctx, phi.Not())
		if err != nil {
			return roundOutcome{}, err
		}
		if path == nil {
			byProduct++
			continue
		}
		// MUST analysis of the summary moves.
		for j, mv := range path.moves {
			if mv.summary {
				must, pred := ap.must(mv.proc, path.states[j], path.states[j+1])
				if !must {
					e, err := newExposure(inv, mv.proc, pred, nextID, fmt.Sprintf("MUST check of a %s move", lay.prog.procs[mv.proc].name))
					if err != nil {
						return roundOutcome{}, err
					}
					return roundOutcome{exposure: e, conjunct: c}, nil
				}
			}
		}
		tr, err := ap.concretize(path, rep)
		if err != nil {
			return roundOutcome{}, err
		}
		last := tr.States[len(tr.States)-1]
		if ok, err := rep.holds(c, last); err != nil {
			return roundOutcome{}, err
		} else if ok {
			return roundOutcome{}, fmt.Errorf("split: internal error: the concretised path ends in a state satisfying %s", c)
		}
		return roundOutcome{trace: tr, conjunct: c, reason: fmt.Sprintf("%s fails after %d moves", c, len(tr.Steps))}, nil
	}
	reason := fmt.Sprintf("the split invariant implies all %d conjuncts", len(prop.Conjuncts))
	if byProduct > 0 {
		reason = fmt.Sprintf("the split invariant implies %d conjuncts, abstract products prove %d", byInvariant, byProduct)
	}
	return roundOutcome{reason: reason}, nil
}

// partialRound looks, on a partial invariant, for an abstract path to a
// violated conjunct whose summary moves include one that is not a MUST
// transition; ok reports whether it found one to expose.
func partialRound(ctx context.Context, inv *Invariant, prop *Property, nextID int) (roundOutcome, bool, error) {
	m := inv.m
	for _, c := range prop.Conjuncts {
		R := processesOf(c)
		if len(R) == 0 {
			continue
		}
		phi, err := m.c.boolean(c.n)
		if err != nil {
			return roundOutcome{}, false, err
		}
		bad := phi.Not()
		for _, k := range R {
			bad = bad.And(inv.theta[k])
		}
		if bad.IsFalse() {
			continue
		}
		ap, err := newAbsProduct(inv, R)
		if err != nil {
			return roundOutcome{}, false, err
		}
		path, err := ap.shortestPath(ctx, phi.Not())
		if err != nil || path == nil {
			return roundOutcome{}, false, err
		}
		for j, mv := range path.moves {
			if !mv.summary {
				continue
			}
			if must, pred := ap.must(mv.proc, path.states[j], path.states[j+1]); !must {
				e, err := newExposure(inv, mv.proc, pred, nextID, fmt.Sprintf("MUST check of a %s move", m.lay.prog.procs[mv.proc].name))
				return roundOutcome{exposure: e, conjunct: c}, err == nil, err
			}
		}
		return roundOutcome{}, false, nil
	}
	return roundOutcome{}, false, nil
}

// processesOf returns the indices of the processes whose locals e reads.
func processesOf(e Expr) []int {
	seen := map[int]bool{}
	var out []int
	for _, v := range readsLocal(e) {
		if k := v.owner.index; !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Ints(out)
	return out
}

// absProduct is the abstract program A_R over X ∪ L_R: the processes of R
// move by their own transitions, every other process k by its summary T̄_k.
type absProduct struct {
	inv     *Invariant
	R       []int
	inR     map[int]bool
	vars    []*Var
	cur     fds.Cube
	next    fds.Cube
	init    fds.BDD
	own     []fds.BDD // per member of R: T_k ∧ pres(L_{R∖k})
	others  fds.BDD   // ⋁_{k∉R} T̄_k ∧ pres(L_R)
	outside []int
}

func newAbsProduct(inv *Invariant, R []int) (*absProduct, error) {
	m := inv.m
	st := m.st
	lay := m.lay
	a := &absProduct{inv: inv, R: R, inR: map[int]bool{}}
	a.vars = append(a.vars, lay.shared...)
	curCubes := []fds.Cube{m.xCur}
	var nextVars []*Var
	nextVars = append(nextVars, lay.shared...)
	for _, k := range R {
		a.inR[k] = true
		a.vars = append(a.vars, lay.locals[k]...)
		curCubes = append(curCubes, m.lCur[k])
		nextVars = append(nextVars, lay.locals[k]...)
	}
	a.cur = st.cubeUnion(curCubes...)
	a.next = st.cube(nextVars, true)
	if err := m.ensure(R...); err != nil {
		return nil, err
	}
	a.init = m.initX
	var sums []fds.BDD
	for k := range lay.prog.procs {
		if a.inR[k] {
			a.init = a.init.And(m.init[k])
		} else {
			a.init = a.init.And(m.init[k].Exists(m.lCur[k]))
			sums = append(sums, inv.sums[k])
			a.outside = append(a.outside, k)
		}
	}
	presR := st.sp.True()
	for _, k := range R {
		presR = presR.And(m.presL[k])
	}
	a.others = st.sp.Or(sums...).And(presR)
	for _, k := range R {
		rel := m.trans[k]
		for _, j := range R {
			if j != k {
				rel = rel.And(m.presL[j])
			}
		}
		a.own = append(a.own, rel)
	}
	return a, st.err()
}

func (a *absProduct) post(s fds.BDD) fds.BDD {
	r := s.AndExists(a.others, a.cur).Unprime()
	for _, rel := range a.own {
		r = r.Or(s.AndExists(rel, a.cur).Unprime())
	}
	return r
}

// absMove is one move of an abstract path.
type absMove struct {
	proc    int
	summary bool
}

// absPath is a path of A_R: states[j] are points over a.vars.
type absPath struct {
	states []map[*Var]int
	moves  []absMove
}

// shortestPath returns a shortest path from an initial state to target, or
// nil when target is unreachable.
func (a *absProduct) shortestPath(ctx context.Context, target fds.BDD) (*absPath, error) {
	st := a.inv.m.st
	rings := []fds.BDD{a.init}
	reach := a.init
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		last := rings[len(rings)-1]
		if hit := last.And(target); !hit.IsFalse() {
			return a.backtrack(rings, hit), nil
		}
		nw := a.post(last).Diff(reach)
		if err := st.err(); err != nil {
			return nil, err
		}
		if nw.IsFalse() {
			return nil, nil
		}
		reach = reach.Or(nw)
		rings = append(rings, nw)
	}
}

func (a *absProduct) backtrack(rings []fds.BDD, hit fds.BDD) *absPath {
	m := a.inv.m
	st := m.st
	vals, _ := st.pick(hit, a.vars, false)
	path := &absPath{states: []map[*Var]int{vals}}
	cur := st.assignment(a.vars, vals, false)
	for i := len(rings) - 1; i > 0; i-- {
		curNext := cur.Prime()
		var mv absMove
		var prev fds.BDD
		found := false
		for j, rel := range a.own {
			pre := rel.AndExists(curNext, a.next).And(rings[i-1])
			if !pre.IsFalse() {
				prev, mv, found = pre, absMove{proc: a.R[j]}, true
				break
			}
		}
		if !found {
			prev = a.others.AndExists(curNext, a.next).And(rings[i-1])
			mv = absMove{summary: true, proc: -1}
		}
		pv, _ := st.pick(prev, a.vars, false)
		if mv.summary {
			mv.proc = a.mover(pv, vals)
		}
		path.states = append(path.states, pv)
		path.moves = append(path.moves, mv)
		vals = pv
		cur = st.assignment(a.vars, pv, false)
	}
	// Reverse into forward order.
	for i, j := 0, len(path.states)-1; i < j; i, j = i+1, j-1 {
		path.states[i], path.states[j] = path.states[j], path.states[i]
	}
	for i, j := 0, len(path.moves)-1; i < j; i, j = i+1, j-1 {
		path.moves[i], path.moves[j] = path.moves[j], path.moves[i]
	}
	return path
}

// mover picks the process outside R whose summary contains the shared
// change from → to, preferring one for which it is a MUST transition.
func (a *absProduct) mover(from, to map[*Var]int) int {
	m := a.inv.m
	st := m.st
	shared := m.lay.shared
	step := st.assignment(shared, from, false).And(st.assignment(shared, to, true))
	first := -1
	for _, k := range a.outside {
		if a.inv.sums[k].And(step).IsFalse() {
			continue
		}
		if first < 0 {
			first = k
		}
		if must, _ := a.must(k, from, to); must {
			return k
		}
	}
	return first
}

// must is inv.must.
func (a *absProduct) must(k int, from, to map[*Var]int) (bool, fds.BDD) {
	return a.inv.must(k, from, to)
}

// concretize turns an abstract path whose summary moves are all MUST
// transitions into a computation of the program (Listing 4.6, step 2).
func (a *absProduct) concretize(path *absPath, rep *replayer) (*Trace, error) {
	c, err := newConcretizer(a.inv, rep, path.states[0])
	if err != nil {
		return nil, err
	}
	for j, mv := range path.moves {
		if err := c.move(mv, path.states[j+1]); err != nil {
			return nil, err
		}
	}
	return c.tr, nil
}

// newExposure packages a predicate over process k's locals (a BDD of the
// invariant's store) as an exposure for every process of k's template.
func newExposure(inv *Invariant, k int, pred fds.BDD, id int, reason string) (*exposure, error) {
	m := inv.m
	lay := m.lay
	p := lay.prog
	rep := p.procs[k]
	e := &exposure{id: id, rep: rep, pred: m.st.export(pred), reason: reason}
	for _, pr := range p.procs {
		if pr.template == rep.template {
			e.procs = append(e.procs, pr)
		}
	}
	e.text = describePred(m.st, pred, lay.locals[k], rep.name+".")
	return e, nil
}

// describePred prints a predicate over a few variables as the set of
// their values it allows.
func describePred(st *store, f fds.BDD, vars []*Var, prefix string) string {
	var alts []string
	count := 0
	f.ForEach(st.fdsVars(vars), false, func(vals []int) bool {
		count++
		if count > 12 {
			return false
		}
		var parts []string
		for i, v := range vars {
			parts = append(parts, fmt.Sprintf("%s=%s", strings.TrimPrefix(v.name, prefix), v.format(vals[i])))
		}
		alts = append(alts, strings.Join(parts, " & "))
		return true
	})
	switch {
	case len(alts) == 0:
		return "false"
	case len(vars) == 1:
		v := vars[0]
		name := strings.TrimPrefix(v.name, prefix)
		vs := make([]string, len(alts))
		for i, a := range alts {
			vs[i] = strings.TrimPrefix(a, name+"=")
		}
		s := fmt.Sprintf("%s ∈ {%s}", name, strings.Join(vs, ", "))
		if count > 12 {
			s = fmt.Sprintf("%s ∈ {%s, …}", name, strings.Join(vs, ", "))
		}
		return s
	}
	s := "(" + strings.Join(alts, ") | (") + ")"
	if count > 12 {
		s += " | …"
	}
	return s
}
