package monitor

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file explains values: why a formula is true or false at a position
// of a trace, as a chain of reasons down to the atoms and positions
// responsible. The values come from an O(n·m) table filled by the DP
// programs (forward for the past subformulas, backward for the rest), so
// explanations are cheap on long traces too.

// Reason is one step of an explanation: Formula has value Holds at
// Position, and Why says so and why, in one self-contained sentence such as
// "start(p) is true at 3: p is false at 2 and true at 3". Under
// ltl.RosuHavelund, Position may be the trace's length: the empty suffix.
type Reason struct {
	Formula  ltl.Formula
	Position int
	Holds    bool
	Why      string
}

func (r Reason) String() string { return r.Why }

// Explain returns why f has the value it has at position pos of t under
// sem: the first reason is about f at pos, and each later reason explains a
// subformula value that an earlier reason rests on (depth first, each fact
// once). Each reason names a minimal witness: the position where an
// eventuality is fulfilled or an invariant first breaks, the position where
// the left side of an until fails, "there is no next position" for X at the
// end, and so on; claims about whole ranges ("p never holds in 4…9") are
// not expanded further. An explanation has at most 200 reasons (deeply
// nested formulas would give one per level). pos must be a position of t (0
// for the empty trace).
func Explain(f ltl.Formula, t *Trace, pos int, sem ltl.Semantics) ([]Reason, error) {
	return ExplainAs(f, t, pos, sem, nil)
}

// ExplainAs is Explain with the positions in the reasons' text named by
// name (Reason.Position stays the position in t): for a trace that stands
// for a longer one, such as the last events of a monitored run after a
// prefix standing in for the events no longer kept. A nil name names
// positions by their numbers, as Explain does.
func ExplainAs(f ltl.Formula, t *Trace, pos int, sem ltl.Semantics, name func(int) string) ([]Reason, error) {
	if f.IsZero() {
		return nil, fmt.Errorf("monitor: explain: invalid (zero) formula")
	}
	if t == nil {
		t = &Trace{}
	}
	if n := t.Len(); pos < 0 || (pos >= n && !(n == 0 && pos == 0)) {
		return nil, fmt.Errorf("monitor: explain %s: position %d is outside the trace of %d events", f, pos, n)
	}
	vt, err := newValueTable(f, t, sem)
	if err != nil {
		return nil, fmt.Errorf("monitor: explain %s: %w", f, err)
	}
	e := &explainer{vt: vt, n: t.Len(), sem: sem, name: name}
	seen := map[fact]bool{}
	stack := []fact{{f, pos}}
	var out []Reason
	for len(stack) > 0 && len(out) < maxReasons {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		v := vt.value(x.f, x.i)
		why, rests := e.reason(x.f, x.i, v)
		line := fmt.Sprintf("%s is %s at %s", x.f, truthWord(v), e.pos(x.i))
		if why != "" {
			line += ": " + why
		}
		out = append(out, Reason{Formula: x.f, Position: x.i, Holds: v, Why: line})
		for k := len(rests) - 1; k >= 0; k-- {
			stack = append(stack, rests[k])
		}
	}
	return out, nil
}

// maxReasons bounds the length of an explanation.
const maxReasons = 200

// valueTable holds the value of every subformula of a formula at every
// position of a trace: the register file of each stage of the formula's
// Future (compiled with a register per subformula), row by row.
type valueTable struct {
	empty map[ltl.Formula]bool // the empty trace under LTLf
	m     *Future
	rows  [][]uint64 // by stage: words[k] words per position
	words []int
}

func newValueTable(f ltl.Formula, t *Trace, sem ltl.Semantics) (*valueTable, error) {
	if t.Len() == 0 && sem == ltl.LTLf {
		return &valueTable{empty: emptyValues(topoOrder([]ltl.Formula{f}))}, nil
	}
	m, err := buildFuture(f, sem, false)
	if err != nil {
		return nil, err
	}
	letters, err := t.Letters(m.Atoms())
	if err != nil {
		return nil, err
	}
	positions := t.Len()
	if sem == ltl.RosuHavelund {
		positions++ // the empty suffix
	}
	vt := &valueTable{m: m}
	for _, st := range m.stages {
		w := wordsFor(len(st.prog.init))
		vt.words = append(vt.words, w)
		vt.rows = append(vt.rows, make([]uint64, positions*w))
	}
	m.run(letters, nil, func(k, i int, vals []uint8) {
		w := vt.words[k]
		row := vt.rows[k][i*w : (i+1)*w]
		for j, v := range vals {
			row[j/64] |= uint64(v) << uint(j%64)
		}
	})
	return vt, nil
}

func wordsFor(bits int) int { return (bits + 63) / 64 }

// value is g's value at position i (g a subformula of the table's formula).
func (vt *valueTable) value(g ltl.Formula, i int) bool {
	if vt.empty != nil {
		return vt.empty[g]
	}
	for k, st := range vt.m.stages {
		if j, ok := st.prog.slot[g]; ok {
			return vt.rows[k][i*vt.words[k]+int(j)/64]>>(j%64)&1 == 1
		}
	}
	panic(fmt.Sprintf("monitor: internal error: %s has no register", g))
}

// explainer words the reason for one value.
type explainer struct {
	vt   *valueTable
	n    int
	sem  ltl.Semantics
	name func(int) string // names positions of the trace; nil: their numbers
}

// fact is a value a reason rests on.
type fact struct {
	f ltl.Formula
	i int
}

func (e *explainer) val(g ltl.Formula, i int) bool { return e.vt.value(g, i) }

// pos names position i; under RosuHavelund, position n is the empty suffix.
func (e *explainer) pos(i int) string {
	if i >= e.n && e.n > 0 {
		return fmt.Sprintf("%d (the empty suffix)", i)
	}
	if e.name != nil {
		return e.name(i)
	}
	return fmt.Sprint(i)
}

// span names the positions a…b, after "in" or "at": "4…9", or "4" when
// a = b. Use it as where does.
func (e *explainer) span(a, b int) string {
	if a == b {
		return e.pos(a)
	}
	return fmt.Sprintf("%s…%s", e.pos(a), e.pos(b))
}

// where is "in a…b", or "at a" when a = b.
func (e *explainer) where(a, b int) string {
	if a == b {
		return "at " + e.pos(a)
	}
	return "in " + e.span(a, b)
}

// strongEnd is one past the last position F, U and M range over; end the
// same for G, W and R.
func (e *explainer) strongEnd() int {
	if e.sem == ltl.RosuHavelund {
		return e.n + 1
	}
	return e.n
}

func truthWord(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

// reason returns why g has value v at i (without the "g is v at i" part),
// and the facts that sentence rests on.
func (e *explainer) reason(g ltl.Formula, i int, v bool) (string, []fact) {
	l, r := g.Left(), g.Right()
	op := g.Op()
	if e.n == 0 && e.sem == ltl.LTLf && (op == ltl.OpAtom || !op.IsBoolean()) {
		return "the trace is empty", nil
	}
	switch op {
	case ltl.OpTrue, ltl.OpFalse:
		return "", nil
	case ltl.OpAtom:
		if i >= e.n {
			return "no atom holds on the empty suffix", nil
		}
		return "", nil
	case ltl.OpNot:
		return fmt.Sprintf("%s is %s at %s", l, truthWord(!v), e.pos(i)), []fact{{l, i}}
	case ltl.OpAnd, ltl.OpOr:
		if v == (op == ltl.OpOr) { // one operand decides
			w := l
			if e.val(l, i) != v {
				w = r
			}
			return fmt.Sprintf("%s is %s at %s", w, truthWord(v), e.pos(i)), []fact{{w, i}}
		}
		return fmt.Sprintf("%s and %s are both %s at %s", l, r, truthWord(v), e.pos(i)), []fact{{l, i}, {r, i}}
	case ltl.OpImplies:
		switch {
		case !e.val(l, i):
			return fmt.Sprintf("%s is false at %s", l, e.pos(i)), []fact{{l, i}}
		case v:
			return fmt.Sprintf("%s is true at %s", r, e.pos(i)), []fact{{r, i}}
		}
		return fmt.Sprintf("%s is true and %s is false at %s", l, r, e.pos(i)), []fact{{l, i}, {r, i}}
	case ltl.OpXor, ltl.OpIff:
		return fmt.Sprintf("%s is %s and %s is %s at %s", l, truthWord(e.val(l, i)), r, truthWord(e.val(r, i)), e.pos(i)),
			[]fact{{l, i}, {r, i}}

	case ltl.OpNext, ltl.OpWeakNext:
		last := e.n - 1
		if e.sem == ltl.RosuHavelund {
			last = e.n
		}
		if i+1 > last || i >= e.n {
			return "there is no next position", nil
		}
		return fmt.Sprintf("%s is %s at %s", l, truthWord(v), e.pos(i+1)), []fact{{l, i + 1}}
	case ltl.OpEventually:
		return e.exists(l, i, e.strongEnd()-1, 1, v)
	case ltl.OpAlways:
		return e.forall(l, i, e.n-1, 1, v)
	case ltl.OpUntil, ltl.OpWeakUntil:
		end := e.strongEnd()
		if op == ltl.OpWeakUntil {
			end = e.n
		}
		for k := i; k < end; k++ {
			if e.val(r, k) {
				return e.reached(r, l, i, k), []fact{{r, k}}
			}
			if !e.val(l, k) {
				return e.brokeFirst(l, r, i, k), []fact{{l, k}}
			}
		}
		if op == ltl.OpWeakUntil {
			return e.forall(l, i, e.n-1, 1, true)
		}
		return e.exists(r, i, end-1, 1, false)
	case ltl.OpRelease, ltl.OpStrongRelease:
		end := e.n
		if op == ltl.OpStrongRelease {
			end = e.strongEnd()
		}
		for k := i; k < end; k++ {
			if !e.val(r, k) {
				why := fmt.Sprintf("%s is false at %s", r, e.pos(k))
				if k > i {
					why += fmt.Sprintf(" and %s does not hold %s", l, e.between(i, k))
				}
				return why, []fact{{r, k}}
			}
			if e.val(l, k) {
				why := fmt.Sprintf("%s and %s are both true at %s", l, r, e.pos(k))
				if k > i {
					why += fmt.Sprintf(", and %s holds %s", r, e.where(i, k-1))
				}
				return why, []fact{{l, k}}
			}
		}
		if op == ltl.OpRelease {
			return e.forall(r, i, e.n-1, 1, true)
		}
		return e.exists(l, i, end-1, 1, false)

	case ltl.OpYesterday, ltl.OpWeakYesterday:
		if i == 0 {
			if e.sem == ltl.RosuHavelund {
				return fmt.Sprintf("the past before the first position is taken to be stationary, and %s is %s at 0", l, truthWord(v)),
					[]fact{{l, 0}}
			}
			return "there is no previous position", nil
		}
		return fmt.Sprintf("%s is %s at %s", l, truthWord(v), e.pos(i-1)), []fact{{l, i - 1}}
	case ltl.OpOnce:
		return e.exists(l, i, 0, -1, v)
	case ltl.OpHistorically:
		return e.forall(l, i, 0, -1, v)
	case ltl.OpSince, ltl.OpWeakSince:
		for k := i; k >= 0; k-- {
			if e.val(r, k) {
				return e.reached(r, l, i, k), []fact{{r, k}}
			}
			if !e.val(l, k) {
				return e.brokeFirst(l, r, i, k), []fact{{l, k}}
			}
		}
		if op == ltl.OpWeakSince {
			return e.forall(l, i, 0, -1, true)
		}
		return e.exists(r, i, 0, -1, false)
	case ltl.OpStart, ltl.OpEnd:
		if i == 0 {
			return "there is no previous position", nil
		}
		before, now := e.val(l, i-1), e.val(l, i)
		switch {
		case v:
			return fmt.Sprintf("%s is %s at %s and %s at %s", l, truthWord(before), e.pos(i-1), truthWord(now), e.pos(i)),
				[]fact{{l, i - 1}, {l, i}}
		case before == now:
			return fmt.Sprintf("%s is %s at %s, as at %s", l, truthWord(now), e.pos(i), e.pos(i-1)), []fact{{l, i}}
		case (op == ltl.OpStart) != now: // start: now false; end: now true
			return fmt.Sprintf("%s is %s at %s", l, truthWord(now), e.pos(i)), []fact{{l, i}}
		}
		return fmt.Sprintf("%s is %s at %s", l, truthWord(before), e.pos(i-1)), []fact{{l, i - 1}}
	case ltl.OpIntervalStrong, ltl.OpIntervalWeak:
		for k := i; k >= 0; k-- {
			if e.val(r, k) {
				last := -1
				for j := k; j >= 0; j-- {
					if e.val(l, j) {
						last = j
						break
					}
				}
				var why string
				switch {
				case last == k:
					why = fmt.Sprintf("%s is true at %s, where %s last holds", r, e.pos(k), l)
				case last >= 0:
					why = fmt.Sprintf("%s is true at %s, after the last %s at %s", r, e.pos(k), l, e.pos(last))
				default:
					why = fmt.Sprintf("%s is true at %s, and %s never holds %s", r, e.pos(k), l, e.where(0, k))
				}
				return why, []fact{{r, k}}
			}
			if e.val(l, k) {
				why := fmt.Sprintf("%s is true at %s", l, e.pos(k))
				if k < i {
					why += fmt.Sprintf(" and %s does not hold %s", r, e.where(k, i))
				} else {
					why += fmt.Sprintf(" and %s is false there", r)
				}
				return why, []fact{{l, k}}
			}
		}
		if op == ltl.OpIntervalWeak {
			return e.exists(r, i, 0, -1, false)
		}
		return e.exists(l, i, 0, -1, false)
	}
	return "", nil
}

// exists explains "g holds somewhere from i to j" (stepping by dir, j
// included; never an empty range) having value v: the nearest witness, or
// a range claim.
func (e *explainer) exists(g ltl.Formula, i, j, dir int, v bool) (string, []fact) {
	if v {
		for k := i; ; k += dir {
			if e.val(g, k) {
				return fmt.Sprintf("%s is true at %s", g, e.pos(k)), []fact{{g, k}}
			}
		}
	}
	if i == j {
		return fmt.Sprintf("%s is false at %s", g, e.pos(i)), []fact{{g, i}}
	}
	return fmt.Sprintf("%s never holds in %s", g, e.span(min(i, j), max(i, j))), nil
}

// forall explains "g holds at every position from i to j" (stepping by dir,
// j included) having value v: the nearest counterexample, or a range claim.
// The range is empty for G on the empty suffix.
func (e *explainer) forall(g ltl.Formula, i, j, dir int, v bool) (string, []fact) {
	if (j-i)*dir < 0 {
		return "no position is left", nil
	}
	if !v {
		for k := i; ; k += dir {
			if !e.val(g, k) {
				return fmt.Sprintf("%s is false at %s", g, e.pos(k)), []fact{{g, k}}
			}
		}
	}
	if i == j {
		return fmt.Sprintf("%s is true at %s", g, e.pos(i)), []fact{{g, i}}
	}
	return fmt.Sprintf("%s holds at every position in %s", g, e.span(min(i, j), max(i, j))), nil
}

// between is where the positions from i up to (not including) k are, in
// either direction.
func (e *explainer) between(i, k int) string {
	if k > i {
		return e.where(i, k-1)
	}
	return e.where(k+1, i)
}

// reached explains an until or since made true by goal at k, cond holding
// at the positions from i up to (not including) k.
func (e *explainer) reached(goal, cond ltl.Formula, i, k int) string {
	why := fmt.Sprintf("%s is true at %s", goal, e.pos(k))
	if k != i {
		why += fmt.Sprintf(" and %s holds %s", cond, e.between(i, k))
	}
	return why
}

// brokeFirst explains an until or since made false by cond failing at k
// before goal ever held (goal is false from i to k, k included).
func (e *explainer) brokeFirst(cond, goal ltl.Formula, i, k int) string {
	if k == i {
		return fmt.Sprintf("%s and %s are both false at %s", cond, goal, e.pos(k))
	}
	return fmt.Sprintf("%s is false at %s and %s does not hold %s", cond, e.pos(k), goal, e.where(min(i, k), max(i, k)))
}
