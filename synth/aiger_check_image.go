package synth

import (
	"context"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// stepImage is the forward image by a relation trans over current and
// primed bits, with the current bits that trans does not read quantified
// from the states before the relational product: a state set names every
// current bit, the closed loop's relation reads few of them (the circuit
// reads its latches and the current spec bits it copies, ENV_TRANS the
// current spec bits it mentions), and a relational product that
// quantifies a bit only one operand reads splits on it and disjoins the
// two halves, node by node, for no gain over quantifying it first.
//
// Invariant: unread ∪ read is every current bit; trans depends on no level
// of unread.
type stepImage struct {
	trans  fds.BDD
	unread fds.Cube // current bits trans does not read
	read   fds.Cube // current bits trans reads
}

// newStepImage returns the image by trans.
func newStepImage(sp *fds.Space, trans fds.BDD) *stepImage {
	supp := map[int]bool{}
	for _, l := range trans.Support() {
		supp[l] = true
	}
	var unread, read []int
	for _, l := range sp.CurCube().Levels() {
		if supp[l] {
			read = append(read, l)
		} else {
			unread = append(unread, l)
		}
	}
	return &stepImage{trans: trans, unread: sp.CubeOfLevels(unread), read: sp.CubeOfLevels(read)}
}

// of returns the successors of the states s, as primed bits.
func (im *stepImage) of(s fds.BDD) fds.BDD {
	return s.Exists(im.unread).AndExists(im.trans, im.read)
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
