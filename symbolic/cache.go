package symbolic

// resultCache remembers the answers to satisfiability queries. A query
// is a set of constraints (a path condition, or a slice of one, plus
// the condition asked about); its canonical form is the set itself, so
// order and repetitions do not matter. The key is an order-independent
// hash of the set; a hit is confirmed by comparing the sets
// structurally, so hash collisions cost a miss, never a wrong answer.
type resultCache struct {
	max     int
	entries map[uint64][]*cacheEntry
	n       int
}

type cacheEntry struct {
	conds []Value // the distinct constraints of the query
	res   Result
	model *Model // for Sat: values of exactly the inputs of conds
}

// setKey returns the key contribution of one constraint with hash h;
// a set's key is the sum over its distinct members.
func setKey(h uint64) uint64 { return mix(h, 0x5e7) }

func (c *resultCache) lookup(key uint64, conds []Value) (*cacheEntry, bool) {
	for _, e := range c.entries[key] {
		if sameSet(e.conds, conds) {
			return e, true
		}
	}
	return nil, false
}

// store adds an entry; when the cache is full it starts over (results
// are cheap to recompute compared with the memory of an unbounded
// cache, and recent queries are the likely repeats).
func (c *resultCache) store(key uint64, e *cacheEntry) {
	if c.entries == nil || c.n >= c.max {
		c.entries = make(map[uint64][]*cacheEntry)
		c.n = 0
	}
	c.entries[key] = append(c.entries[key], e)
	c.n++
}

// sameSet reports whether a and b, each free of repetitions, hold the
// same constraints. Queries rebuilt by a replay come in the same order,
// so the positional comparison usually decides.
func sameSet(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	inOrder := true
	for i := range a {
		if !Identical(a[i], b[i]) {
			inOrder = false
			break
		}
	}
	if inOrder {
		return true
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			if Identical(x, y) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
