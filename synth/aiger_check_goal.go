package synth

import (
	"context"
	"strconv"
	"strings"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// goalLatchPrefix begins the names of the latches that hold a controller's
// goal counter (bit b is "#goal@b"), as Circuit.AIG names them.
const goalLatchPrefix = "#goal@"

// goalCounter is a circuit's claim that it pursues the liveness guarantees
// one at a time: a number held in its latches (the bits of the product
// state's current values, least significant first) that names the
// guarantee pursued. The claim is only a hint for CheckAIG, which proves
// what it uses of it (goalProof).
type goalCounter struct {
	bits []fds.BDD
}

// goalCounterOf returns the counter held by the latches named "#goal@b",
// latchLit(l) being latch l's value in the product state, and false when
// the circuit names no such latch or leaves a bit out.
func goalCounterOf(names []string, latchLit func(l int) fds.BDD) (goalCounter, bool) {
	byBit := map[int]int{}
	for l, name := range names {
		if rest, ok := strings.CutPrefix(name, goalLatchPrefix); ok {
			b, err := strconv.Atoi(rest)
			if err != nil || b < 0 || b >= 30 {
				return goalCounter{}, false
			}
			if _, dup := byBit[b]; dup {
				return goalCounter{}, false
			}
			byBit[b] = l
		}
	}
	if len(byBit) == 0 {
		return goalCounter{}, false
	}
	c := goalCounter{bits: make([]fds.BDD, len(byBit))}
	for b := range c.bits {
		l, ok := byBit[b]
		if !ok {
			return goalCounter{}, false
		}
		c.bits[b] = latchLit(l)
	}
	return c, true
}

// is returns the states (next: the successors) where the counter holds k.
func (c goalCounter) is(sp *fds.Space, k int, next bool) fds.BDD {
	if k >= 1<<len(c.bits) {
		return sp.False()
	}
	f := sp.True()
	for b, bit := range c.bits {
		if next {
			bit = bit.Prime()
		}
		if k>>b&1 == 0 {
			bit = bit.Not()
		}
		f = f.And(bit)
	}
	return f
}

// goalProof proves, when it can, that every path of the closed loop cl from
// reach on which every assumption holds infinitely often (a fair path)
// meets every guarantee of sysJ infinitely often, by way of the circuit's
// goal counter: it shows that on every reachable step
//
//  1. the counter holds some k < m (m guarantees) and either keeps it or
//     moves to k+1 mod m on a step that meets J^s_k (the step's condition,
//     or for a state condition its source or target), and
//  2. for each k, no fair cycle of reachable states keeps the counter at k.
//
// A fair path then changes the counter infinitely often (2), so it passes
// through every value, each time meeting the guarantee it leaves (1). With
// m = 1 a change cannot be seen and the proof is not attempted.
//
// It returns false when the counter does not show this (the circuit may
// still be right: the caller then checks each guarantee on its own), and
// an error only for ctx or the BDDs' limits. Each fair-cycle search of (2)
// stays within one counter value, a chain of the closed loop's components
// as long as one guarantee's wait, where the search per guarantee
// follows the chain through every other guarantee's turn.
func goalProof(ctx context.Context, k *aigCheck, c goalCounter, reach fds.BDD, cl *closedLoop) (bool, error) {
	sp, sysJ, envJ := k.g.sp, k.g.sysJ, k.g.envJ
	m := len(sysJ)
	if m < 2 || 1<<len(c.bits) < m {
		return false, nil
	}
	inRange := sp.False()
	for v := range m {
		inRange = inRange.Or(c.is(sp, v, false))
	}
	if !reach.Implies(inRange) {
		return false, sp.Err()
	}
	// The steps that break (1), as a condition on the step alone: from
	// value k to neither k nor k+1 mod m, or to k+1 without meeting J^s_k.
	leavesBadly := make([]fds.BDD, m)
	for j, js := range sysJ {
		met := js
		if !js.DependsOnPrimed() {
			met = met.Or(js.Prime())
		}
		here := c.is(sp, j, false)
		leaves := here.And(c.is(sp, j, true).Not())
		allowed := c.is(sp, (j+1)%m, true).And(met)
		leavesBadly[j] = leaves.Diff(allowed)
	}
	if k.m.goalOneTest {
		// One test for every value at once; the values' conditions are
		// disjoint (each fixes the current counter), so their union is
		// empty on the reachable steps exactly when each is.
		bad := sp.Or(leavesBadly...)
		if k.m.goalBadStates {
			// The states with a bad step, computed without the reachable
			// states, then tested against them: reach does not read the
			// next bits, so reach ∧ ∃next. (bad ∧ T) is empty exactly
			// when reach ∧ bad ∧ T is (T: cl's relation, which sources
			// need not conjoin).
			if k.intersects(reach, cl.sources(sp, bad)) {
				return false, sp.Err()
			}
		} else if k.intersects(reach.And(bad), cl.trans()) {
			return false, sp.Err()
		}
	} else {
		for _, bad := range leavesBadly {
			if !reach.And(bad).AndExists(cl.trans(), sp.NextCube()).IsFalse() {
				return false, sp.Err()
			}
		}
	}
	k.ended("goal-steps")
	if k.m.goalOneSearch {
		// The steps that keep the counter, whatever its value: every such
		// step joins two states of one value, so a cycle of them keeps one
		// value, and the fair states of this relation within reach are
		// the union of those of each value's relation below.
		keeps := sp.True()
		for _, bit := range c.bits {
			keeps = keeps.And(bit.Iff(bit.Prime()))
		}
		fc := &fairCycles{sp: sp, r: cl.trans().And(keeps), envJ: envJ}
		z, err := fc.emersonLei(ctx, reach)
		if err != nil {
			return false, err
		}
		return z.IsFalse(), sp.Err()
	}
	var rel, states fds.BDD
	if k.m.projectGoal && k.goalSearchProjected(c, cl) {
		rel, states = cl.proj, reach.Exists(cl.unread)
		if k.m.goalProjected != nil {
			k.m.goalProjected()
		}
	} else {
		rel, states = cl.trans(), reach
	}
	for v := range m {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		here := c.is(sp, v, false)
		// One conjunction with the relation: here ∧ here′ is a cube of
		// the counter's bits, the relation is large.
		stays := rel.And(here.And(c.is(sp, v, true)))
		fc := &fairCycles{sp: sp, r: stays, envJ: envJ}
		z, err := fc.emersonLei(ctx, states.And(here))
		if err != nil {
			return false, err
		}
		if !z.IsFalse() {
			return false, sp.Err()
		}
	}
	return true, sp.Err()
}

// intersects reports whether f ∧ g is satisfiable, by one relational
// product that quantifies every bit: its result is a constant, so it
// builds no nodes and stops at the first satisfying path, where
// ∃next. f ∧ g builds the (possibly large) set of current states first.
func (k *aigCheck) intersects(f, g fds.BDD) bool {
	sp := k.g.sp
	if k.all.Levels() == nil {
		k.all = sp.CubeOfLevels(append(append([]int(nil), sp.CurCube().Levels()...), sp.NextCube().Levels()...))
	}
	return !f.AndExists(g, k.all).IsFalse()
}

// goalSearchProjected reports whether goalProof may search each counter
// value's fair cycles over the closed loop without the outputs that no
// step reads (cl's P below; U the dropped outputs' bits), from
// the reachable states projected (∃U. reach): when there is such a loop
// and neither the counter's bits nor the liveness assumptions read U or
// U′.
//
// Soundness: no value's search finds a fair cycle over P within
// ∃U. (reach ∧ here) exactly when none finds one over the closed loop T
// within reach ∧ here. A fair cycle of T projects on one of P: ∃U′. T = P
// and P does not read U (projectedStep), and the counter and the
// assumptions do not read U. Conversely, let r_0 → … → r_p = r_0 be a fair
// cycle of P within ∃U. (reach ∧ here). Each r_i extends to a reachable
// state, any extension of r_i has a T-successor extending r_{i+1} (T does
// not read U), and that successor's U is fixed by r_i and r_{i+1} (u′ ↔
// f_u, f_u reading neither U nor U′); so the T-path that follows the cycle
// twice from a reachable extension of r_0 is reachable, keeps the counter
// (it reads no U) and repeats from its second state on: a fair cycle of T
// within reach ∧ here.
func (k *aigCheck) goalSearchProjected(c goalCounter, cl *closedLoop) bool {
	if !cl.projected() {
		return false
	}
	for _, b := range c.bits {
		if cl.readsDropped(b) {
			return false
		}
	}
	for _, je := range k.g.envJ {
		if cl.readsDropped(je) {
			return false
		}
	}
	return true
}
