package explore

// PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi
// and Nagarakatte, ASPLOS 2010): each goroutine gets a random priority
// when it first appears, the enabled goroutine of highest priority runs,
// and at d-1 random steps (d: the bug depth, Options.PCTDepth) the running
// goroutine's priority drops below every other. It finds bugs that need
// few ordering constraints (the depth) among long executions of many
// goroutines. exploreRandom (strategy_random.go) runs the executions.

// pctState is one PCT execution's priorities.
type pctState struct {
	depth   int
	prio    map[uint64]int // goroutine key → priority
	changes []int          // steps at which the running goroutine's priority drops
	next    int            // next low priority to assign
}

// newPCT draws the d-1 priority change points of an execution among its
// first k steps (k: the longest execution so far).
func newPCT(d, k int, r *rng) *pctState {
	ps := &pctState{depth: d, prio: map[uint64]int{}, next: d - 1}
	for j := 1; j < d; j++ {
		ps.changes = append(ps.changes, 1+r.intn(max(1, k)))
	}
	return ps
}

// choose picks the alternative of the goroutine of highest priority
// (among several of its alternatives, one at random).
func (ps *pctState) choose(x *execution, ts []transition, r *rng) int {
	prio := func(t transition) int {
		k := t.g.key
		p, ok := ps.prio[k]
		if !ok {
			p = ps.depth + r.intn(1<<20)
			ps.prio[k] = p
		}
		return p
	}
	pick := func() (best int) {
		best = -1
		bp := -1
		for i, t := range ts {
			if p := prio(t); p > bp {
				best, bp = i, p
			}
		}
		return best
	}
	best := pick()
	for i, cp := range ps.changes {
		if cp == x.steps {
			// A change point applies once, although a step can make
			// several choices (chooseLocal's): the d-1 changes assign
			// priorities d-1 down to 1, which pick can choose.
			ps.changes[i] = -1
			ps.prio[ts[best].g.key] = ps.next
			ps.next--
			best = pick()
		}
	}
	// Several alternatives of the chosen goroutine: choose randomly.
	g := ts[best].g
	var same []int
	for i, t := range ts {
		if t.g == g {
			same = append(same, i)
		}
	}
	return same[r.intn(len(same))]
}
