package automaton

// This file is the explicit finite-trace tableau of the thesis on LTL
// checking in Java PathFinder: GPVW node expansion with the Giannakopoulou–Havelund
// modifications — nodes are equivalent when their NEXT sets are equal, and
// edges carry the literals of the target node's OLD field — extended with
// the end-of-trace meaning of every future operator. The NEXT set holds
// obligations X g (strong: a next position must exist) and N g (weak); a
// node accepts the end of the trace exactly when its NEXT set has no strong
// obligation. This generalizes the thesis's "no U formula in NEXT" (U and F
// leave X obligations; W, R and G leave N ones) to strong and weak next, M,
// and formulas that hold on the empty trace.
//
// The DFA construction (translate.go) runs the same expansion rules
// symbolically; this explicit automaton exists to be inspected and printed
// (Promela never claims in the thesis's format), and is tested to accept
// the same language.

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/henceforth-go/henceforth/ltl"
)

// An NFA is the tableau automaton of a formula: nondeterministic, with
// edges guarded by conjunctions of literals. State 0 is the initial
// (pre-initial) node, whose NEXT set is the formula itself: the first
// letter of a trace is read on an edge leaving it.
type NFA struct {
	// Formula is the formula translated, after past subformulas were
	// replaced by atoms and negations pushed to the atoms (ltl.NNF).
	Formula ltl.Formula
	// Atoms are the atoms of Formula, sorted.
	Atoms  []string
	States []NFAState
}

// An NFAState is a tableau node.
type NFAState struct {
	// Next is the node's NEXT set: what the rest of the trace after it
	// must satisfy. Its strong obligations are printed X g, its weak
	// ones N g.
	Next []Obligation
	// Accepting reports whether a trace may end in this node: Next has no
	// strong obligation.
	Accepting bool
	// Edges leave the node, in construction order.
	Edges []NFAEdge
}

// An Obligation is a formula the next position must satisfy; Strong says
// the next position must exist (X), otherwise the end of the trace also
// satisfies it (N).
type Obligation struct {
	Formula ltl.Formula
	Strong  bool
}

func (o Obligation) String() string {
	op := ltl.WeakNext
	if o.Strong {
		op = ltl.Next
	}
	return op(o.Formula).String()
}

// An NFAEdge is a transition on every letter that satisfies Guard, a
// conjunction of literals (empty means true).
type NFAEdge struct {
	Guard []Literal
	To    int
}

// A Literal is an atom or its negation.
type Literal struct {
	Atom    string
	Negated bool
}

func (l Literal) String() string {
	s := ltl.Atom(l.Atom).String()
	if l.Negated {
		return "!" + s
	}
	return s
}

// maxNFANodes bounds the explicit tableau, which is exponential in the
// formula.
const maxNFANodes = 1 << 16

// NFAFromFormula returns the tableau NFA of f. Past subformulas become
// fresh atoms, as for the DFA. The construction stops with ctx's error
// when ctx is cancelled.
func NFAFromFormula(ctx context.Context, f ltl.Formula) (*NFA, error) {
	p, err := prepare(f, nil, false)
	if err != nil {
		return nil, err
	}
	if p.exactPast {
		return nil, fmt.Errorf("automaton: tableau of %s: %w: a past operator over a future subformula", f, ErrUnsupported)
	}
	nnf := ltl.NNF(p.f, ltl.LTLf)
	x := &tableau{ctx: ctx, index: map[string]int{}}
	init := &tnode{
		incoming: []int{-1},
		old:      [][]Literal{nil},
		next:     []Obligation{{nnf, !p.emptyHolds}},
	}
	if err := x.run(init); err != nil {
		return nil, err
	}
	a := &NFA{Formula: nnf, Atoms: nnf.Atoms()}
	for _, n := range x.nodes {
		st := NFAState{Next: n.next, Accepting: true}
		for _, o := range n.next {
			if o.Strong {
				st.Accepting = false
			}
		}
		a.States = append(a.States, st)
	}
	for id, n := range x.nodes {
		for i, src := range n.incoming {
			if src >= 0 {
				a.States[src].Edges = append(a.States[src].Edges, NFAEdge{Guard: n.old[i], To: id})
			}
		}
	}
	for i := range a.States {
		slices.SortStableFunc(a.States[i].Edges, func(e, f NFAEdge) int { return cmp.Compare(e.To, f.To) })
	}
	return a, nil
}

// tnode is a tableau node under construction. incoming[i] is a predecessor
// (-1 for none: the initial node) and old[i] the literals on that edge;
// while a node is being expanded it has exactly one of each.
type tnode struct {
	id       int
	incoming []int
	old      [][]Literal
	pending  []ltl.Formula // NEW
	done     map[ltl.Formula]bool
	next     []Obligation
}

type tableau struct {
	ctx   context.Context
	nodes []*tnode
	index map[string]int // key of a NEXT set → node id
	steps int
}

func nextKey(next []Obligation) string {
	parts := make([]string, len(next))
	for i, o := range next {
		parts[i] = o.String()
	}
	slices.Sort(parts)
	return strings.Join(parts, "\x00")
}

func (n *tnode) copy() *tnode {
	c := &tnode{
		incoming: slices.Clone(n.incoming),
		old:      [][]Literal{slices.Clone(n.old[0])},
		pending:  slices.Clone(n.pending),
		done:     map[ltl.Formula]bool{},
		next:     slices.Clone(n.next),
	}
	for k := range n.done {
		c.done[k] = true
	}
	return c
}

func (n *tnode) addNew(fs ...ltl.Formula) {
	for _, f := range fs {
		if !n.done[f] && !slices.Contains(n.pending, f) {
			n.pending = append(n.pending, f)
		}
	}
}

func (n *tnode) addNext(f ltl.Formula, strong bool) {
	o := Obligation{f, strong}
	if !slices.Contains(n.next, o) {
		n.next = append(n.next, o)
	}
}

// run expands nodes depth first, in the order of the thesis's recursive
// expand (Figure 8): a split node's first branch and all its successors
// before the second branch.
func (x *tableau) run(init *tnode) error {
	// The initial node is processed at once: it is state 0.
	init.done = map[ltl.Formula]bool{}
	stack := []*tnode{}
	x.add(init)
	stack = append(stack, x.successor(init))
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for {
			x.steps++
			if x.steps&1023 == 0 {
				if err := x.ctx.Err(); err != nil {
					return fmt.Errorf("automaton: tableau stopped: %w", err)
				}
			}
			if len(n.pending) == 0 {
				key := nextKey(n.next)
				if id, ok := x.index[key]; ok {
					x.merge(x.nodes[id], n)
				} else {
					if len(x.nodes) >= maxNFANodes {
						return fmt.Errorf("automaton: %w: tableau has more than %d nodes", ErrTooLarge, maxNFANodes)
					}
					x.add(n)
					stack = append(stack, x.successor(n))
				}
				break
			}
			f := n.pending[0]
			n.pending = n.pending[1:]
			n.done[f] = true
			alive, second := x.step(n, f)
			if second != nil {
				stack = append(stack, second)
			}
			if !alive {
				break
			}
		}
	}
	return nil
}

func (x *tableau) add(n *tnode) {
	n.id = len(x.nodes)
	x.nodes = append(x.nodes, n)
	x.index[nextKey(n.next)] = n.id
}

// successor is the node that starts the next position after n: its NEW
// field is n's obligations.
func (x *tableau) successor(n *tnode) *tnode {
	s := &tnode{incoming: []int{n.id}, old: [][]Literal{nil}, done: map[ltl.Formula]bool{}}
	for _, o := range n.next {
		s.addNew(o.Formula)
	}
	return s
}

// merge adds the incoming edges of the processed node n to the equivalent
// node m (same NEXT set), skipping duplicate (source, literals) pairs.
func (x *tableau) merge(m, n *tnode) {
	for _, src := range n.incoming {
		dup := false
		for i, s := range m.incoming {
			if s == src && slices.Equal(m.old[i], n.old[0]) {
				dup = true
				break
			}
		}
		if !dup {
			m.incoming = append(m.incoming, src)
			m.old = append(m.old, n.old[0])
		}
	}
}

// step processes formula f of node n. It reports whether n survives (false
// when f contradicts it) and returns the second node of a split, if any.
func (x *tableau) step(n *tnode, f ltl.Formula) (bool, *tnode) {
	switch f.Op() {
	case ltl.OpTrue:
		return true, nil
	case ltl.OpFalse:
		return false, nil
	case ltl.OpAtom, ltl.OpNot: // NNF: ! only on atoms
		lit := Literal{Atom: f.Name(), Negated: false}
		if f.Op() == ltl.OpNot {
			lit = Literal{Atom: f.Left().Name(), Negated: true}
		}
		for _, l := range n.old[0] {
			if l.Atom == lit.Atom && l.Negated != lit.Negated {
				return false, nil
			}
		}
		if !slices.Contains(n.old[0], lit) {
			n.old[0] = append(n.old[0], lit)
			slices.SortFunc(n.old[0], compareLiterals)
		}
		return true, nil
	case ltl.OpAnd:
		n.addNew(f.Left(), f.Right())
		return true, nil
	case ltl.OpNext:
		n.addNext(f.Left(), true)
		return true, nil
	case ltl.OpWeakNext:
		n.addNext(f.Left(), false)
		return true, nil
	case ltl.OpAlways: // G g = g ∧ N G g: no split
		n.addNew(f.Left())
		n.addNext(f, false)
		return true, nil
	}
	// Splits. The first branch continues in n, the second is a copy.
	m := n.copy()
	l, r := f.Left(), f.Right()
	switch f.Op() {
	case ltl.OpOr:
		n.addNew(l)
		m.addNew(r)
	case ltl.OpEventually: // F g = X F g ∨ g
		n.addNext(f, true)
		m.addNew(l)
	case ltl.OpUntil: // g U h = (g ∧ X(g U h)) ∨ h
		n.addNew(l)
		n.addNext(f, true)
		m.addNew(r)
	case ltl.OpWeakUntil: // g W h = (g ∧ N(g W h)) ∨ h
		n.addNew(l)
		n.addNext(f, false)
		m.addNew(r)
	case ltl.OpRelease: // g R h = (h ∧ N(g R h)) ∨ (g ∧ h)
		n.addNew(r)
		n.addNext(f, false)
		m.addNew(l, r)
	case ltl.OpStrongRelease: // g M h = (h ∧ X(g M h)) ∨ (g ∧ h)
		n.addNew(r)
		n.addNext(f, true)
		m.addNew(l, r)
	default:
		// NNF leaves no other operator.
		return false, nil
	}
	return true, m
}

// Accepts runs the NFA on a trace and reports whether it accepts. When it
// does not, stuck is the position at which no edge could be taken, or -1
// if the run reached the end in non-accepting nodes only (the thesis's two
// ways to report a violation).
func (a *NFA) Accepts(trace ltl.Sets) (ok bool, stuck int) {
	cur := map[int]bool{0: true}
	for i := range trace {
		nxt := map[int]bool{}
		for s := range cur {
			for _, e := range a.States[s].Edges {
				if guardHolds(e.Guard, trace, i) {
					nxt[e.To] = true
				}
			}
		}
		if len(nxt) == 0 {
			return false, i
		}
		cur = nxt
	}
	for s := range cur {
		if a.States[s].Accepting {
			return true, -1
		}
	}
	return false, -1
}

// compareLiterals orders literals by atom, the positive one first.
func compareLiterals(a, b Literal) int {
	if c := cmp.Compare(a.Atom, b.Atom); c != 0 {
		return c
	}
	switch {
	case a.Negated == b.Negated:
		return 0
	case b.Negated:
		return -1
	}
	return 1
}

func guardHolds(g []Literal, t ltl.Sets, i int) bool {
	for _, l := range g {
		if t.Holds(i, l.Atom) == l.Negated {
			return false
		}
	}
	return true
}
