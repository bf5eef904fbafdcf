package synth

import (
	"context"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// stepImage is the forward image by a relation over current and primed
// bits, the conjunction of factors, with the current bits that no factor
// reads quantified from the states before the relational product: a
// state set names every current bit, the closed loop's relation reads few
// of them (the circuit reads its latches and the current spec bits it
// copies, ENV_TRANS the current spec bits it mentions), and a relational
// product that quantifies a bit only one operand reads splits on it and
// disjoins the two halves, node by node, for no gain over quantifying it
// first.
//
// Invariant: unread ∪ read is every current bit; no factor depends on a
// level of unread.
type stepImage struct {
	// factors conjoin to the relation; the image conjoins the states with
	// all but the last, then takes the relational product with the last.
	factors []fds.BDD
	unread  fds.Cube // current bits no factor reads
	read    fds.Cube // current bits some factor reads
}

// newStepImage returns the image by the conjunction of factors (at least
// one), the largest best last.
func newStepImage(sp *fds.Space, factors ...fds.BDD) *stepImage {
	supp := map[int]bool{}
	for _, f := range factors {
		for _, l := range f.Support() {
			supp[l] = true
		}
	}
	var unread, read []int
	for _, l := range sp.CurCube().Levels() {
		if supp[l] {
			read = append(read, l)
		} else {
			unread = append(unread, l)
		}
	}
	return &stepImage{factors: factors, unread: sp.CubeOfLevels(unread), read: sp.CubeOfLevels(read)}
}

// of returns the successors of the states s, as primed bits.
func (im *stepImage) of(s fds.BDD) fds.BDD {
	s = s.Exists(im.unread)
	last := len(im.factors) - 1
	for _, f := range im.factors[:last] {
		s = s.And(f)
	}
	return s.AndExists(im.factors[last], im.read)
}

// reachable computes the states reachable from init breadth first, image
// giving the successors of a set of states as primed bits, and returns
// them with the frontiers of the search.
func reachable(ctx context.Context, sp *fds.Space, init fds.BDD, image func(fds.BDD) fds.BDD) (fds.BDD, []fds.BDD, error) {
	reach := init
	frontier := init
	var frontiers []fds.BDD
	for !frontier.IsFalse() {
		if err := ctx.Err(); err != nil {
			return fds.BDD{}, nil, err
		}
		frontiers = append(frontiers, frontier)
		next := image(frontier).Unprime()
		frontier = next.Diff(reach)
		reach = reach.Or(next)
		if err := sp.Err(); err != nil {
			return fds.BDD{}, nil, err
		}
	}
	return reach, frontiers, nil
}
