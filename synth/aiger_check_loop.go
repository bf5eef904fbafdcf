package synth

import (
	"slices"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// closedLoop is the closed loop's relation T (the circuit's step with the
// environments that keep the spec's assumptions) held as two factors,
// T = P ∧ D: D conjoins the conjuncts o′ ↔ f_o of the outputs no step
// reads (projectedStep's drop; true when it drops none) and P the others.
// Neither reads those outputs' current bits U, and only D their next bits
// U′.
// The reachability runs on P (projectedStep), and what a passing check
// asks of T afterwards (one image, the states with a step that violates
// SYS_TRANS or moves the goal counter wrongly) takes P and D as two
// operands. T itself is conjoined only when something needs it whole
// (trans): a refutation, a fair-cycle search over it, or a method that
// tests the steps against it. On AMBA n = 12, P has 1.24 M nodes and T
// 1.57 M; conjoining T took 1.7–1.9 s of CPU, and the image and the
// SYS_TRANS test cost about 0.3 and 0.2 s more with two operands.
//
// Invariant: whole is the zero BDD or T; when D is true it is P.
type closedLoop struct {
	proj, drop         fds.BDD
	whole              fds.BDD
	unread, unreadNext fds.Cube     // U and U′
	dropped            map[int]bool // the levels of U and U′
	// built (tests), when not nil, is called when trans conjoins T.
	built func()
}

// newClosedLoop returns the loop P ∧ D, with U and U′ at the levels
// unread and unreadNext, not yet conjoined unless D is true.
func newClosedLoop(sp *fds.Space, proj, drop fds.BDD, unread, unreadNext []int, built func()) *closedLoop {
	l := &closedLoop{proj: proj, drop: drop, built: built,
		unread: sp.CubeOfLevels(unread), unreadNext: sp.CubeOfLevels(unreadNext), dropped: map[int]bool{}}
	for _, v := range slices.Concat(unread, unreadNext) {
		l.dropped[v] = true
	}
	if drop.IsTrue() {
		l.whole = proj
	}
	return l
}

// projected reports whether some output's conjunct is left out of P.
func (l *closedLoop) projected() bool { return !l.drop.IsTrue() }

// readsDropped reports whether f reads a bit of U or U′.
func (l *closedLoop) readsDropped(f fds.BDD) bool {
	return slices.ContainsFunc(f.Support(), func(v int) bool { return l.dropped[v] })
}

// trans returns T, conjoining it the first time it is asked for.
func (l *closedLoop) trans() fds.BDD {
	if l.whole.Space() == nil {
		l.whole = l.proj.And(l.drop)
		if l.built != nil {
			l.built()
		}
	}
	return l.whole
}

// sources returns ∃next. T ∧ x: with x over current and next bits, the
// states (over x's current bits too) that have a step of T that meets x.
// It uses T if it is built, else the product of P with ∃U′. D ∧ x, P
// not reading U′.
func (l *closedLoop) sources(sp *fds.Space, x fds.BDD) fds.BDD {
	if l.whole.Space() != nil {
		return l.whole.AndExists(x, sp.NextCube())
	}
	return l.proj.AndExists(l.drop.AndExists(x, l.unreadNext), sp.NextCube())
}

// violations returns ∃next. T ∧ ¬rho, the states with a step of T that rho
// forbids, given b such that rho = A ∧ b for some A that reads no level
// of U′ (b = rho will do, the fewer of rho's conjuncts it keeps
// the cheaper). It uses T if it is built, else one product of P with
//
//	¬∃U′. rho ∨ ∃U′. D ∧ ¬b,
//
// which gives the same set: ¬rho = ¬A ∨ ¬b; ∃U′. D is true (each u′ is
// f_u, which reads no output bit) and neither P nor A reads U′, so T's steps that violate A are P's; ¬∃U′. rho is ¬A ∨
// ∀U′. ¬b, and a step of P on which every U′ violates b is one of T that
// violates b; ∃U′. D ∧ ¬b gives T's steps that violate b (sources). The
// composition ∃U′. D ∧ ¬rho that sources would take instead is large: on
// AMBA n = 11 it has 58 K nodes against ¬rho's 15 K, and its product with
// P took 2.4–2.9 s of CPU against 0.6 s for T's own test.
func (l *closedLoop) violations(sp *fds.Space, rho, b fds.BDD) fds.BDD {
	if l.whole.Space() != nil {
		return l.whole.AndExists(rho.Not(), sp.NextCube())
	}
	u := l.unreadNext
	x := rho.Exists(u).Not().Or(l.drop.AndExists(b.Not(), u))
	return l.proj.AndExists(x, sp.NextCube())
}

// image returns the forward image by T (stepImage): by T if it is built,
// else by D and P as two operands.
func (l *closedLoop) image(sp *fds.Space) *stepImage {
	if l.whole.Space() != nil {
		return newStepImage(sp, l.whole)
	}
	return newStepImage(sp, l.drop, l.proj)
}
