package split

import (
	"context"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// engine computes the split-invariant components of a group of processes
// in one store (Listing 4.1 of the thesis, with frontier sets): for each
// process i of the group,
//
//	θ_i := θ_i ∨ sp_i(T_i, θ_i) ∨ ⋁_{k≠i} sp_i(T̄_k ∧ pres(L_i), θ_i)
//
// where T̄_k = ∃L_k,L_k′: T_k ∧ θ_k is the summary transition of process k,
// until nothing changes. Summaries of processes outside the group arrive as
// one external interference relation (ext, over X ∪ X′), which may grow
// between calls to stabilize (the parallel algorithm, Listing 4.2).
//
// Frontiers: every state of θ_i outside front[i] has been imaged by T_i and
// by the interference known at the time, and by every growth of the
// interference since (delta); every state outside sfront[i] has contributed
// to sum[i].
//
// Staged (see activate): processes start moving one at a time. Only
// processes 0..active-1 make their own moves (the others' components grow
// by interference only; their summaries are those of the states they
// have); when that restricted fixpoint is reached, the next process
// starts. Each restricted operator is below the full one, so every stage
// stays below the least fixpoint and the last stage (all processes)
// reaches it. In a staged round every component is closed under its own
// moves and the current interference (instead of one image), so a stage's
// fixpoint is reached in few summary rounds.
type engine struct {
	m       *model
	procs   []int // global process indices
	theta   []fds.BDD
	front   []fds.BDD
	sfront  []fds.BDD
	sum     []fds.BDD
	dsum    []fds.BDD // growth of sum in the current round
	total   fds.BDD   // ⋁ sum: the group's summary
	ext     fds.BDD   // interference from outside the group
	delta   fds.BDD   // growth of ext not yet applied to the imaged part of θ
	rounds  int
	nimages int // relational products computed, for statistics
	staged  bool
	active  int // staged: processes procs < active make their own moves
}

// newEngine starts the fixpoint from θ_i = (∃L∖L_i : I), given outside =
// ⋀ ∃L_k: I_k over the processes k outside the group (over X).
func newEngine(m *model, procs []int, outside fds.BDD) (*engine, error) {
	if err := m.ensure(procs...); err != nil {
		return nil, err
	}
	sp := m.st.sp
	n := len(procs)
	e := &engine{m: m, procs: procs,
		theta: make([]fds.BDD, n), front: make([]fds.BDD, n), sfront: make([]fds.BDD, n), sum: make([]fds.BDD, n),
		ext: sp.False(), delta: sp.False(), total: sp.False()}
	proj := make([]fds.BDD, n) // ∃L_k: I_k
	for j, k := range procs {
		proj[j] = m.init[k].Exists(m.lCur[k])
	}
	pre, suf := prefixes(sp, proj, fds.BDD.And, true)
	for j, k := range procs {
		t := m.initX.And(outside).And(pre[j]).And(suf[j+1]).And(m.init[k])
		e.theta[j], e.front[j], e.sfront[j], e.sum[j] = t, t, t, sp.False()
	}
	return e, nil
}

// prefixes returns pre[j] = op(xs[0..j)) and suf[j] = op(xs[j..n)), with
// the unit for empty ranges, so that op of all but xs[j] is
// op(pre[j], suf[j+1]) in O(n) operations overall.
func prefixes(sp *fds.Space, xs []fds.BDD, op func(fds.BDD, fds.BDD) fds.BDD, unit bool) (pre, suf []fds.BDD) {
	n := len(xs)
	pre = make([]fds.BDD, n+1)
	suf = make([]fds.BDD, n+1)
	pre[0], suf[n] = sp.Const(unit), sp.Const(unit)
	for j := range n {
		pre[j+1] = op(pre[j], xs[j])
	}
	for j := n - 1; j >= 0; j-- {
		suf[j] = op(xs[j], suf[j+1])
	}
	return pre, suf
}

// addExternal adds summary transitions from outside the group.
func (e *engine) addExternal(r fds.BDD) {
	d := r.Diff(e.ext)
	if d.IsFalse() {
		return
	}
	e.ext = e.ext.Or(d)
	e.delta = e.delta.Or(d)
}

// own is sp_k(T_k, f) (false for a process that does not move yet).
func (e *engine) own(k int, f fds.BDD) fds.BDD {
	if e.staged && k >= e.active {
		return e.m.st.sp.False()
	}
	e.nimages++
	return f.AndExists(e.m.trans[k], e.m.img[k]).Unprime()
}

// interfere is sp_k(u ∧ pres(L_k), f) for a relation u over X ∪ X′:
// since u does not mention L_k, that is (∃X: f ∧ u)[X′ := X], and L_k is
// left in place rather than copied through L_k′ = L_k at the bottom of the
// order (PETERSON N = 4: 1.6× faster this way).
func (e *engine) interfere(u, f fds.BDD) fds.BDD {
	e.nimages++
	return f.AndExists(u, e.m.xCur).Unprime()
}

// image is the successors of f for process k: its own moves and the
// interference u.
func (e *engine) image(k int, u, f fds.BDD) fds.BDD {
	return e.own(k, f).Or(e.interfere(u, f))
}

// summary is ∃L_k,L_k′: T_k ∧ f.
func (e *engine) summary(k int, f fds.BDD) fds.BDD {
	e.nimages++
	return e.m.trans[k].AndExists(f, e.m.lBoth[k])
}

// stabilize iterates until every component of the group is closed under
// its process's transitions and the interference of all others (those of
// the group and ext).
func (e *engine) stabilize(ctx context.Context) error {
	for {
		changed, err := e.step(ctx)
		if err != nil {
			return err
		}
		if !changed && !e.activate() {
			return nil
		}
	}
}

// activate starts the next stage of a staged engine (the next process
// moves); it reports false when every process moves already (or the
// engine is not staged): the fixpoint just reached is then the least one.
// Workers of a staged parallel fixpoint call it together, after a round
// where no component of any group changed.
func (e *engine) activate() bool {
	if !e.staged || e.active >= len(e.m.lay.prog.procs) {
		return false
	}
	for j, k := range e.procs {
		if k == e.active {
			e.front[j] = e.theta[j] // to be imaged by its own moves
		}
	}
	e.active++
	return true
}

// step is one round: summaries of the new states, then images of the new
// states (and of the old ones under new interference). It reports whether
// some component grew; when it did not, the group is stable.
func (e *engine) step(ctx context.Context) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	e.summarize()
	return e.images(ctx)
}

// summarize is the first half of a round: the summaries of the states
// added since the last round (dsum, growing sum and total).
func (e *engine) summarize() {
	sp := e.m.st.sp
	e.rounds++
	e.dsum = make([]fds.BDD, len(e.procs))
	for j, k := range e.procs {
		e.dsum[j] = sp.False()
		if e.sfront[j].IsFalse() {
			continue
		}
		d := e.summary(k, smaller(e.sfront[j], e.theta[j])).Diff(e.sum[j])
		e.sfront[j] = sp.False()
		if !d.IsFalse() {
			e.sum[j] = e.sum[j].Or(d)
			e.total = e.total.Or(d)
			e.dsum[j] = d
		}
	}
}

// images is the second half of a round: the images under the group's
// summaries and ext, with the growth since the last round (dsum, delta)
// applied to the states imaged before.
func (e *engine) images(ctx context.Context) (bool, error) {
	sp := e.m.st.sp
	anyDelta := !e.delta.IsFalse()
	for _, d := range e.dsum {
		anyDelta = anyDelta || !d.IsFalse()
	}
	pre, suf := prefixes(sp, e.sum, fds.BDD.Or, false)
	var dpre, dsuf []fds.BDD
	if anyDelta {
		dpre, dsuf = prefixes(sp, e.dsum, fds.BDD.Or, false)
	}
	changed := false
	for j, k := range e.procs {
		// Cheap next to an image; the image's operations themselves stop
		// when ctx is done (the store's Space looks at it), and err below
		// then reports the interruption.
		if err := ctx.Err(); err != nil {
			return false, err
		}
		f := e.front[j]
		img := sp.False()
		var u fds.BDD
		if !f.IsFalse() || e.staged {
			u = pre[j].Or(suf[j+1]).Or(e.ext)
		}
		if !f.IsFalse() {
			g := smaller(f, e.theta[j])
			img = e.image(k, u, g)
		}
		if anyDelta {
			du := dpre[j].Or(dsuf[j+1]).Or(e.delta)
			if old := e.theta[j].Diff(f); !du.IsFalse() && !old.IsFalse() {
				img = img.Or(e.interfere(du, smaller(old, e.theta[j])))
			}
		}
		nw := img.Diff(e.theta[j])
		e.front[j] = nw
		if !nw.IsFalse() {
			e.theta[j] = e.theta[j].Or(nw)
			if e.staged {
				// Close θ_j under its own moves and u: every state is
				// then imaged by the current interference.
				for d := nw; !d.IsFalse(); {
					g := smaller(d, e.theta[j])
					d = e.image(k, u, g).Diff(e.theta[j])
					e.theta[j] = e.theta[j].Or(d)
					nw = nw.Or(d)
				}
				e.front[j] = sp.False()
			}
			e.sfront[j] = e.sfront[j].Or(nw)
			changed = true
		}
	}
	e.delta = sp.False()
	e.dsum = nil
	if err := e.m.st.err(); err != nil {
		return false, err
	}
	return changed, nil
}

// smaller returns whichever of a ⊆ b has the smaller BDD: imaging b
// instead of a frontier a is redundant work on states but often cheaper on
// nodes, since frontiers of a fixpoint can be irregular sets.
func smaller(a, b fds.BDD) fds.BDD {
	if b.Size() < a.Size() {
		return b
	}
	return a
}

// groupSummary is ⋁ T̄_k over the group.
func (e *engine) groupSummary() fds.BDD { return e.total }
