package synth

import (
	"context"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// fairCycles finds the fair cycles of a closed loop: cycles of steps of r
// that meet every condition of envJ (conditions on the step: current and
// primed variables) infinitely often. Its sets are sets of current states;
// every set it is given and returns lies within the set z it started
// from, so r need only be right on steps between states of z.
type fairCycles struct {
	sp   *fds.Space
	r    fds.BDD   // the steps
	envJ []fds.BDD // the conditions every fair cycle meets
}

// predecessors returns the states with a step of r into the transitions t
// (t over current and primed variables: the step's source and target).
func (f *fairCycles) predecessors(t fds.BDD) fds.BDD {
	return f.r.AndExists(t, f.sp.NextCube())
}

// reachingJ returns the states of z from which some path within z reaches
// a step of r that meets je and ends in z: μW. z ∧ pre((je ∧ z′) ∨ W′),
// grown by the predecessors of the states added last (pre distributes
// over ∨).
func (f *fairCycles) reachingJ(ctx context.Context, z, je fds.BDD) (fds.BDD, error) {
	w := f.predecessors(je.And(z.Prime())).And(z)
	added := w
	for !added.IsFalse() {
		if err := ctx.Err(); err != nil {
			return fds.BDD{}, err
		}
		more := f.predecessors(added.Prime()).And(z).Diff(w)
		w = w.Or(more)
		added = more
	}
	return w, f.sp.Err()
}

// emersonLei returns the states of z from which a fair path stays within
// z: Emerson and Lei's greatest fixpoint νZ. z ∧ ⋀_e reachingJ(Z, J_e),
// each assumption's least fixpoint computed within what the previous ones
// kept (the same greatest fixpoint). Each outer round removes the states
// whose only way to some J_e leaves Z, so the rounds grow with the length
// of the chains of components that lead out of the fair ones.
func (f *fairCycles) emersonLei(ctx context.Context, z fds.BDD) (fds.BDD, error) {
	for {
		znew := z
		for _, je := range f.envJ {
			w, err := f.reachingJ(ctx, znew, je)
			if err != nil {
				return fds.BDD{}, err
			}
			znew = znew.And(w)
		}
		if znew.Equal(z) {
			return z, nil
		}
		z = znew
	}
}
