package automaton

import "github.com/henceforth-go/henceforth/ltl"

// ShortestTo returns a shortest trace that leads the DFA from its initial
// state to state s, and false if s is not reachable (or not a state). A
// bounded monitor uses it to stand in for the events it no longer keeps:
// every continuation of the returned trace has the verdict it has after the
// real events that led to s.
func (d *DFA) ShortestTo(s int) (ltl.Sets, bool) {
	if s < 0 || s >= len(d.roots) {
		return nil, false
	}
	return d.shortestFrom(d.initial, func(t int32) bool { return int(t) == s })
}
