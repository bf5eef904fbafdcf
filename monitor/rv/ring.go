package rv

// A ring keeps the last events of a run: each event's letter and the DFA
// state before it, so that a report can explain a verdict from the state
// at the start of the ring and the events in it. Its length is a power of
// two; event i is at slot i mod length.
type ring struct {
	letters []uint64
	states  []int32
	mask    int
}

func newRing(n int) ring {
	return ring{letters: make([]uint64, n), states: make([]int32, n), mask: n - 1}
}

// put records event i: its letter and the DFA state before it.
func (r *ring) put(i int, l uint64, before int32) {
	k := i & r.mask
	r.letters[k] = l
	r.states[k] = before
}

// letter is the letter of event i, which must still be kept.
func (r *ring) letter(i int) uint64 { return r.letters[i&r.mask] }

// before is the DFA state before event i, which must still be kept.
func (r *ring) before(i int) int32 { return r.states[i&r.mask] }
