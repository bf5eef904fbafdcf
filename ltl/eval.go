package ltl

// Semantics selects the end-of-trace and start-of-trace conventions.
type Semantics uint8

const (
	// LTLf is the standard finite-trace semantics of docs/semantics.md: positions
	// 0…n-1; X, F, U and M are strong at the end of the trace and G, W, R
	// and N weak; Y is false and Z true at the first position.
	LTLf Semantics = iota

	// RosuHavelund follows the two source papers, for readers who compare
	// with them. Y f (and Z f) at the first position equals f there (the
	// "stationary past" of the past-time paper), and F and U may be
	// satisfied by the empty suffix (the future-time paper): a trace of n
	// events has a virtual position n, the empty suffix, at which no atom
	// holds, X is false, N, G, W and R are true, F f equals f, f U g equals
	// g and f M g equals f ∧ g. X f at position n-1 is f at position n.
	// G and R range over the real positions i…n-1 only; F, U and M over
	// i…n. Past operators see position n like any other.
	RosuHavelund
)

func (s Semantics) String() string {
	switch s {
	case LTLf:
		return "ltlf"
	case RosuHavelund:
		return "rosu-havelund"
	}
	return "invalid"
}

// ParseSemantics returns the Semantics with the given name ("ltlf" or
// "rosu-havelund"), as the CLI's -semantics flag spells it.
func ParseSemantics(name string) (Semantics, bool) {
	switch name {
	case "ltlf":
		return LTLf, true
	case "rosu-havelund":
		return RosuHavelund, true
	}
	return 0, false
}

// A Trace is a finite sequence of positions, each with the set of atoms that
// hold there.
type Trace interface {
	// Len is the number of positions n.
	Len() int
	// Holds reports whether atom holds at position i, 0 ≤ i < n.
	Holds(i int, atom string) bool
}

// Sets is a Trace given as the atoms that hold at each position.
type Sets [][]string

func (s Sets) Len() int { return len(s) }

func (s Sets) Holds(i int, atom string) bool {
	for _, a := range s[i] {
		if a == atom {
			return true
		}
	}
	return false
}

// Eval is the naive reference evaluator: it returns the verdict of f on t,
// the value of f at position 0, following the semantics of docs/semantics.md (or of
// the papers, with RosuHavelund) literally, quantifier by quantifier. It is
// meant as the oracle other engines are tested against, not for speed: it
// takes O(|f|·n²) time and memory O(|f|·n).
func Eval(f Formula, t Trace, sem Semantics) bool {
	return newEvaluator(t, sem).value(f, 0)
}

// EvalAll returns the value of f at every position 0…n-1 of t with the same
// literal semantics as Eval (no values for an empty trace).
func EvalAll(f Formula, t Trace, sem Semantics) []bool {
	e := newEvaluator(t, sem)
	out := make([]bool, t.Len())
	for i := range out {
		out[i] = e.value(f, i)
	}
	return out
}

type evaluator struct {
	t   Trace
	n   int
	sem Semantics
	// last is the largest position at which formulas are evaluated: n-1
	// under LTLf (0 for the empty trace) and n under RosuHavelund.
	last int
	memo map[Formula][]int8 // 0 unknown, 1 false, 2 true; indexed by position
}

func newEvaluator(t Trace, sem Semantics) *evaluator {
	n := t.Len()
	last := n - 1
	if sem == RosuHavelund || n == 0 {
		last = n
	}
	return &evaluator{t: t, n: n, sem: sem, last: last, memo: map[Formula][]int8{}}
}

// end is one past the last real position: the F/U/M ranges stop before it
// under LTLf and include it under RosuHavelund.
func (e *evaluator) strongEnd() int {
	if e.sem == RosuHavelund {
		return e.n + 1
	}
	return e.n
}

func (e *evaluator) value(f Formula, i int) bool {
	m := e.memo[f]
	if m == nil {
		m = make([]int8, e.last+1)
		e.memo[f] = m
	}
	if v := m[i]; v != 0 {
		return v == 2
	}
	v := e.compute(f, i)
	if v {
		m[i] = 2
	} else {
		m[i] = 1
	}
	return v
}

func (e *evaluator) compute(f Formula, i int) bool {
	l, r := f.Left(), f.Right()
	switch f.Op() {
	case OpTrue:
		return true
	case OpFalse:
		return false
	case OpAtom:
		return i < e.n && e.t.Holds(i, f.Name())
	case OpNot:
		return !e.value(l, i)
	case OpAnd:
		return e.value(l, i) && e.value(r, i)
	case OpOr:
		return e.value(l, i) || e.value(r, i)
	case OpXor:
		return e.value(l, i) != e.value(r, i)
	case OpImplies:
		return !e.value(l, i) || e.value(r, i)
	case OpIff:
		return e.value(l, i) == e.value(r, i)

	case OpNext: // i+1 is a position at which f holds
		return i+1 <= e.last && i < e.n && e.value(l, i+1)
	case OpWeakNext: // no next position, or f holds there
		return !(i+1 <= e.last && i < e.n) || e.value(l, i+1)
	case OpEventually:
		for k := i; k < e.strongEnd(); k++ {
			if e.value(l, k) {
				return true
			}
		}
		return false
	case OpAlways:
		for k := i; k < e.n; k++ {
			if !e.value(l, k) {
				return false
			}
		}
		return true
	case OpUntil:
		return e.until(l, r, i)
	case OpWeakUntil:
		if e.until(l, r, i) {
			return true
		}
		for k := i; k < e.n; k++ {
			if !e.value(l, k) {
				return false
			}
		}
		return true
	case OpRelease: // for all k ≥ i: g at k, or f at some j in [i, k)
		for k := i; k < e.n; k++ {
			if !e.value(r, k) {
				return false // and f nowhere in [i, k)
			}
			if e.value(l, k) {
				return true // every later k has f at j = k
			}
		}
		return true
	case OpStrongRelease: // some k ≥ i has f ∧ g, and g holds on [i, k)
		for k := i; k < e.strongEnd(); k++ {
			if e.value(l, k) && e.value(r, k) {
				return true
			}
			if !e.value(r, k) {
				return false
			}
		}
		return false

	case OpYesterday:
		if i == 0 {
			return e.sem == RosuHavelund && e.value(l, 0)
		}
		return e.value(l, i-1)
	case OpWeakYesterday:
		if i == 0 {
			return e.sem != RosuHavelund || e.value(l, 0)
		}
		return e.value(l, i-1)
	case OpOnce:
		for k := i; k >= 0 && e.exists(k); k-- {
			if e.value(l, k) {
				return true
			}
		}
		return false
	case OpHistorically:
		for k := i; k >= 0 && e.exists(k); k-- {
			if !e.value(l, k) {
				return false
			}
		}
		return true
	case OpSince:
		return e.since(l, r, i)
	case OpWeakSince:
		if e.since(l, r, i) {
			return true
		}
		for k := i; k >= 0 && e.exists(k); k-- {
			if !e.value(l, k) {
				return false
			}
		}
		return true
	case OpStart:
		return i > 0 && e.value(l, i) && !e.value(l, i-1)
	case OpEnd:
		return i > 0 && !e.value(l, i) && e.value(l, i-1)
	case OpIntervalStrong:
		return e.interval(l, r, i)
	case OpIntervalWeak:
		if e.interval(l, r, i) {
			return true
		}
		for k := i; k >= 0 && e.exists(k); k-- {
			if e.value(r, k) {
				return false
			}
		}
		return true
	}
	return false
}

// exists reports whether position k is a position of the trace for the past
// operators: under LTLf the empty trace has none, so the ranges of O, H, S
// and the intervals are empty there.
func (e *evaluator) exists(k int) bool {
	return e.sem == RosuHavelund || k < e.n
}

func (e *evaluator) until(f, g Formula, i int) bool {
	for k := i; k < e.strongEnd(); k++ {
		if e.value(g, k) {
			return true
		}
		if !e.value(f, k) {
			return false
		}
	}
	return false
}

// since: some j ≤ i has g, and f holds on (j, i].
func (e *evaluator) since(f, g Formula, i int) bool {
	for j := i; j >= 0 && e.exists(j); j-- {
		if e.value(g, j) {
			return true
		}
		if !e.value(f, j) {
			return false
		}
	}
	return false
}

// interval [f, g)s: some j ≤ i has f, and g holds nowhere in [j, i].
func (e *evaluator) interval(f, g Formula, i int) bool {
	for j := i; j >= 0 && e.exists(j); j-- {
		if e.value(g, j) {
			return false
		}
		if e.value(f, j) {
			return true
		}
	}
	return false
}
