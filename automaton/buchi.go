package automaton

// This file translates LTL over infinite words into Büchi automata, for
// checks of programs whose computations are infinite (package split's
// liveness algorithms, monolithic LTL model checking).
//
// The translation is the GPVW tableau in the transition-based form of
// Couvreur: a state is the set of obligations (formulas in negation normal
// form) the rest of the word must satisfy; expanding a state's conjunction
// by the rules
//
//	g U h = h ∨ (g ∧ X(g U h))      g R h = h ∧ (g ∨ X(g R h))
//
// gives its outgoing edges: the literals the current letter must satisfy
// and the obligations of the next position. An edge is in the acceptance
// set of an until u = g U h unless it postponed u (took the g ∧ X u
// branch), so an accepting run cannot postpone an eventuality forever
// (generalized Büchi acceptance with one set per until). Degeneralize then
// turns the sets into a single accepting set with the usual counter.

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/henceforth-go/henceforth/ltl"
)

// GBA is a transition-based generalized Büchi automaton over the
// valuations of Atoms: it reads infinite words, one set of true atoms per
// position. A run starts in one of Initial, takes at every position an edge
// whose Guard the letter satisfies, and is accepting when, for every
// acceptance set 0 ≤ s < Sets, it takes edges in s infinitely often. With
// Sets = 0 every infinite run is accepting.
//
// Invariants: Sets ≤ 64; every edge's To and every Initial index a state;
// Acc has no bit at or above Sets. A GBA is not modified after it is
// returned, so it may be shared between goroutines.
type GBA struct {
	// Formula is the formula translated, in negation normal form for
	// infinite words (over true, false, literals, ∧, ∨, X, U and R).
	Formula ltl.Formula
	// Atoms are the atoms of Formula, sorted.
	Atoms   []string
	States  []GBAState
	Initial []int
	Sets    int
}

// A GBAState is a tableau node: Name is the conjunction of the obligations
// the rest of the word must satisfy (after Degeneralize, followed by the
// counter in brackets).
type GBAState struct {
	Name  string
	Edges []GBAEdge
}

// A GBAEdge is a transition on every letter that satisfies Guard (a
// conjunction of literals; empty means true). Bit s of Acc says the edge
// is in acceptance set s.
type GBAEdge struct {
	Guard []Literal
	To    int
	Acc   uint64
}

// In reports whether the edge is in acceptance set s.
func (e GBAEdge) In(s int) bool { return s >= 0 && s < 64 && e.Acc&(1<<uint(s)) != 0 }

// MaxBuchiStates bounds the tableau of Buchi: a larger automaton is an
// ErrTooLarge error.
const MaxBuchiStates = 1 << 14

// Buchi translates f, read over infinite words (LTL's usual semantics: X is
// the next position, which always exists; F, U and M are strong; G, W and
// R weak; N is X), into a transition-based generalized Büchi automaton that
// accepts exactly the words satisfying f. Past and finite-trace monitoring
// operators (Y, O, S, start, […)) are ErrUnsupported. Use Degeneralize for
// a single acceptance set. The construction stops with ctx's error when ctx
// is cancelled.
func Buchi(ctx context.Context, f ltl.Formula) (*GBA, error) {
	g, err := nnfInfinite(f, false)
	if err != nil {
		return nil, fmt.Errorf("automaton: Büchi automaton of %s: %w", f, err)
	}
	var untils []ltl.Formula
	for _, s := range g.Subformulas() {
		if s.Op() == ltl.OpUntil {
			untils = append(untils, s)
		}
	}
	if len(untils) > 64 {
		return nil, fmt.Errorf("automaton: Büchi automaton of %s: %w: %d eventualities (at most 64)", f, ErrTooLarge, len(untils))
	}
	b := &GBA{Formula: g, Atoms: g.Atoms(), Sets: len(untils)}
	sort.Strings(b.Atoms)
	index := map[string]int{}
	var queue [][]ltl.Formula
	state := func(set map[ltl.Formula]bool) (int, error) {
		name, fs := obligationKey(set)
		if i, ok := index[name]; ok {
			return i, nil
		}
		if len(b.States) >= MaxBuchiStates {
			return 0, fmt.Errorf("automaton: Büchi automaton of %s: %w: over %d states", f, ErrTooLarge, MaxBuchiStates)
		}
		i := len(b.States)
		index[name] = i
		b.States = append(b.States, GBAState{Name: name})
		queue = append(queue, fs)
		return i, nil
	}
	s0, _ := state(map[ltl.Formula]bool{g: true})
	b.Initial = []int{s0}
	for i := 0; i < len(queue); i++ {
		if i%256 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, t := range expandInfinite(queue[i]) {
			to, err := state(t.next)
			if err != nil {
				return nil, err
			}
			e := GBAEdge{To: to}
			for a, v := range t.lits {
				e.Guard = append(e.Guard, Literal{Atom: a, Negated: !v})
			}
			sort.Slice(e.Guard, func(x, y int) bool { return e.Guard[x].Atom < e.Guard[y].Atom })
			for j, u := range untils {
				if t.accepting(u) {
					e.Acc |= 1 << uint(j)
				}
			}
			b.States[i].Edges = append(b.States[i].Edges, e)
		}
	}
	return b, nil
}

// obligationKey names a set of obligations canonically (sorted, joined by
// ∧) and returns them in that order.
func obligationKey(set map[ltl.Formula]bool) (string, []ltl.Formula) {
	type named struct {
		f    ltl.Formula
		name string
	}
	ns := make([]named, 0, len(set))
	for h := range set {
		ns = append(ns, named{h, h.String()})
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i].name < ns[j].name })
	fs := make([]ltl.Formula, len(ns))
	names := make([]string, len(ns))
	for i, n := range ns {
		fs[i], names[i] = n.f, n.name
	}
	return strings.Join(names, " ∧ "), fs
}

// nnfInfinite rewrites f (negated if neg) into negation normal form for
// infinite words, over true, false, literals, ∧, ∨, X, U and R.
func nnfInfinite(f ltl.Formula, neg bool) (ltl.Formula, error) {
	op := f.Op()
	if op.IsPast() || op == ltl.OpStart || op == ltl.OpEnd || op == ltl.OpIntervalStrong || op == ltl.OpIntervalWeak {
		return ltl.Formula{}, fmt.Errorf("%w: past operator %s over infinite words", ErrUnsupported, op)
	}
	both := func(a, b ltl.Formula, na, nb bool, mk func(x, y ltl.Formula) ltl.Formula) (ltl.Formula, error) {
		x, err := nnfInfinite(a, na)
		if err != nil {
			return x, err
		}
		y, err := nnfInfinite(b, nb)
		if err != nil {
			return y, err
		}
		return mk(x, y), nil
	}
	and, or := ltl.And, ltl.Or
	if neg {
		and, or = ltl.Or, ltl.And
	}
	l, r := f.Left(), f.Right()
	switch op {
	case ltl.OpTrue, ltl.OpFalse:
		if (op == ltl.OpTrue) != neg {
			return ltl.True(), nil
		}
		return ltl.False(), nil
	case ltl.OpAtom:
		if neg {
			return ltl.Not(f), nil
		}
		return f, nil
	case ltl.OpNot:
		return nnfInfinite(l, !neg)
	case ltl.OpAnd:
		return both(l, r, neg, neg, and)
	case ltl.OpOr:
		return both(l, r, neg, neg, or)
	case ltl.OpImplies: // ¬l ∨ r
		return both(l, r, !neg, neg, or)
	case ltl.OpIff, ltl.OpXor:
		// l ↔ r = (l ∧ r) ∨ (¬l ∧ ¬r); its negation, and xor, is
		// (l ∨ r) ∧ (¬l ∨ ¬r).
		n := neg != (op == ltl.OpXor)
		mk, outer := ltl.And, ltl.Or
		if n {
			mk, outer = ltl.Or, ltl.And
		}
		x, err := both(l, r, false, false, mk)
		if err != nil {
			return x, err
		}
		y, err := both(l, r, true, true, mk)
		if err != nil {
			return y, err
		}
		return outer(x, y), nil
	case ltl.OpNext, ltl.OpWeakNext: // the same on infinite words; self-dual
		x, err := nnfInfinite(l, neg)
		return ltl.Next(x), err
	case ltl.OpEventually: // true U l
		return nnfInfinite(ltl.Until(ltl.True(), l), neg)
	case ltl.OpAlways: // false R l
		return nnfInfinite(ltl.Release(ltl.False(), l), neg)
	case ltl.OpUntil:
		if neg { // ¬(l U r) = ¬l R ¬r
			return both(l, r, true, true, ltl.Release)
		}
		return both(l, r, false, false, ltl.Until)
	case ltl.OpRelease:
		if neg { // ¬(l R r) = ¬l U ¬r
			return both(l, r, true, true, ltl.Until)
		}
		return both(l, r, false, false, ltl.Release)
	case ltl.OpWeakUntil: // l W r = r R (l ∨ r)
		return nnfInfinite(ltl.Release(r, ltl.Or(l, r)), neg)
	case ltl.OpStrongRelease: // l M r = r U (l ∧ r)
		return nnfInfinite(ltl.Until(r, ltl.And(l, r)), neg)
	}
	return ltl.Formula{}, fmt.Errorf("%w: operator %s over infinite words", ErrUnsupported, op)
}

// gbaTerm is one expansion of a state: a letter constraint, the next
// obligations and the untils it postponed.
type gbaTerm struct {
	lits      map[string]bool
	next      map[ltl.Formula]bool
	postponed map[ltl.Formula]bool
	fulfilled map[ltl.Formula]bool // untils whose right side this term requires now
}

func newGBATerm() gbaTerm {
	return gbaTerm{lits: map[string]bool{}, next: map[ltl.Formula]bool{}, postponed: map[ltl.Formula]bool{}, fulfilled: map[ltl.Formula]bool{}}
}

// accepting reports whether the term's edge is in the acceptance set of
// until u: it does not postpone u, or it fulfils u now anyway (Couvreur's
// condition; a conjunction may hold u twice, once postponed and once
// fulfilled).
func (t gbaTerm) accepting(u ltl.Formula) bool { return !t.postponed[u] || t.fulfilled[u] }

func (t gbaTerm) clone() gbaTerm {
	c := newGBATerm()
	for k, v := range t.lits {
		c.lits[k] = v
	}
	for k := range t.next {
		c.next[k] = true
	}
	for k := range t.postponed {
		c.postponed[k] = true
	}
	for k := range t.fulfilled {
		c.fulfilled[k] = true
	}
	return c
}

// expandInfinite returns the consistent terms of the conjunction of todo
// (formulas in the negation normal form of nnfInfinite).
func expandInfinite(todo []ltl.Formula) []gbaTerm {
	var out []gbaTerm
	var rec func(todo []ltl.Formula, t gbaTerm)
	branch := func(todo []ltl.Formula, extra ...ltl.Formula) []ltl.Formula {
		return append(append([]ltl.Formula(nil), todo...), extra...)
	}
	rec = func(todo []ltl.Formula, t gbaTerm) {
		for len(todo) > 0 {
			f := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			switch f.Op() {
			case ltl.OpTrue:
			case ltl.OpFalse:
				return
			case ltl.OpAtom:
				if v, ok := t.lits[f.Name()]; ok && !v {
					return
				}
				t.lits[f.Name()] = true
			case ltl.OpNot: // of an atom, in NNF
				if v, ok := t.lits[f.Left().Name()]; ok && v {
					return
				}
				t.lits[f.Left().Name()] = false
			case ltl.OpAnd:
				todo = append(todo, f.Left(), f.Right())
			case ltl.OpNext:
				t.next[f.Left()] = true
			case ltl.OpOr:
				rec(branch(todo, f.Left()), t.clone())
				todo = append(todo, f.Right())
			case ltl.OpUntil:
				c := t.clone()
				c.fulfilled[f] = true
				rec(branch(todo, f.Right()), c)
				todo = append(todo, f.Left())
				t.next[f] = true
				t.postponed[f] = true
			case ltl.OpRelease:
				rec(branch(todo, f.Left(), f.Right()), t.clone())
				todo = append(todo, f.Right())
				t.next[f] = true
			}
		}
		out = append(out, t)
	}
	rec(todo, newGBATerm())
	return out
}

// Degeneralize returns an equivalent automaton with one acceptance set
// (Sets = 1; an edge is accepting when Acc is 1): states (q, c), where the
// counter c is the next set a run must visit, and an edge that completes
// the round of all sets is accepting and resets c. States unreachable from
// the initial ones are dropped.
func (g *GBA) Degeneralize() *GBA {
	m := g.Sets
	d := &GBA{Formula: g.Formula, Atoms: g.Atoms, Sets: 1}
	if m <= 1 {
		d.Initial = append([]int(nil), g.Initial...)
		d.States = make([]GBAState, len(g.States))
		for q, s := range g.States {
			d.States[q] = GBAState{Name: s.Name, Edges: make([]GBAEdge, len(s.Edges))}
			for i, e := range s.Edges {
				if m == 0 || e.In(0) {
					e.Acc = 1
				} else {
					e.Acc = 0
				}
				d.States[q].Edges[i] = e
			}
		}
		return d.trim()
	}
	for _, q := range g.Initial {
		d.Initial = append(d.Initial, q*m)
	}
	d.States = make([]GBAState, len(g.States)*m)
	for q, s := range g.States {
		for c := range m {
			ds := &d.States[q*m+c]
			ds.Name = fmt.Sprintf("%s [%d]", s.Name, c)
			for _, e := range s.Edges {
				j := c
				for j < m && e.In(j) {
					j++
				}
				ne := GBAEdge{Guard: e.Guard}
				if j == m {
					ne.Acc, ne.To = 1, e.To*m
				} else {
					ne.To = e.To*m + j
				}
				ds.Edges = append(ds.Edges, ne)
			}
		}
	}
	return d.trim()
}

// trim drops the states unreachable from the initial ones and renumbers
// the rest in discovery order.
func (g *GBA) trim() *GBA {
	seen := map[int]int{}
	var order, stack []int
	visit := func(q int) {
		if _, ok := seen[q]; !ok {
			seen[q] = len(order)
			order = append(order, q)
			stack = append(stack, q)
		}
	}
	for _, q := range g.Initial {
		visit(q)
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.States[q].Edges {
			visit(e.To)
		}
	}
	r := &GBA{Formula: g.Formula, Atoms: g.Atoms, Sets: g.Sets, States: make([]GBAState, len(order))}
	for _, q := range g.Initial {
		r.Initial = append(r.Initial, seen[q])
	}
	for i, q := range order {
		s := g.States[q]
		r.States[i].Name = s.Name
		for _, e := range s.Edges {
			e.To = seen[e.To]
			r.States[i].Edges = append(r.States[i].Edges, e)
		}
	}
	return r
}

// Lasso is the ultimately periodic infinite word u·v^ω: the positions
// 0…n-1 of Word (n = Word.Len() ≥ 1), where position n-1 is followed by
// position Loop (0 ≤ Loop < n) again, forever.
type Lasso struct {
	Word ltl.Trace
	Loop int
}

// check reports a lasso that is not well formed.
func (l Lasso) check() (int, error) {
	if l.Word == nil || l.Word.Len() == 0 {
		return 0, fmt.Errorf("automaton: empty lasso")
	}
	n := l.Word.Len()
	if l.Loop < 0 || l.Loop >= n {
		return 0, fmt.Errorf("automaton: lasso of %d positions looping to %d", n, l.Loop)
	}
	return n, nil
}

// succ is the position after i.
func (l Lasso) succ(i, n int) int {
	if i == n-1 {
		return l.Loop
	}
	return i + 1
}

// matches reports whether position i of the word satisfies guard.
func matches(guard []Literal, w ltl.Trace, i int) bool {
	for _, lit := range guard {
		if w.Holds(i, lit.Atom) == lit.Negated {
			return false
		}
	}
	return true
}

// Accepts reports whether g accepts the lasso: some run from an initial
// state visits every acceptance set infinitely often. It explores the
// product of g with the lasso's positions, so it is meant for small words
// (tests, cross-checks, confirming counterexamples).
func (g *GBA) Accepts(l Lasso) (bool, error) {
	n, err := l.check()
	if err != nil {
		return false, err
	}
	// Nodes (position, state) of the product; an accepting run exists iff
	// some reachable nontrivial SCC contains an edge of every set.
	type node struct{ i, q int }
	id := map[node]int{}
	var nodes []node
	var succ [][]int
	var marks [][]uint64
	add := func(x node) int {
		if k, ok := id[x]; ok {
			return k
		}
		id[x] = len(nodes)
		nodes = append(nodes, x)
		succ = append(succ, nil)
		marks = append(marks, nil)
		return len(nodes) - 1
	}
	for _, q := range g.Initial {
		add(node{0, q})
	}
	for k := 0; k < len(nodes); k++ {
		x := nodes[k]
		for _, e := range g.States[x.q].Edges {
			if matches(e.Guard, l.Word, x.i) {
				t := add(node{l.succ(x.i, n), e.To})
				succ[k] = append(succ[k], t)
				marks[k] = append(marks[k], e.Acc)
			}
		}
	}
	// The component of k: the nodes reachable from k that reach k back.
	pred := make([][]int, len(nodes))
	for k, ts := range succ {
		for _, t := range ts {
			pred[t] = append(pred[t], k)
		}
	}
	reach := func(from int, adj [][]int) []bool {
		seen := make([]bool, len(nodes))
		seen[from] = true
		stack := []int{from}
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, t := range adj[k] {
				if !seen[t] {
					seen[t] = true
					stack = append(stack, t)
				}
			}
		}
		return seen
	}
	all := uint64(1)<<uint(g.Sets) - 1
	if g.Sets == 64 {
		all = ^uint64(0)
	}
	done := make([]bool, len(nodes))
	for k := range nodes {
		if done[k] {
			continue
		}
		fwd, bwd := reach(k, succ), reach(k, pred)
		var seen uint64
		cyclic := false
		for x := range nodes {
			if !fwd[x] || !bwd[x] {
				continue
			}
			done[x] = true
			for j, t := range succ[x] {
				if fwd[t] && bwd[t] {
					cyclic = true
					seen |= marks[x][j]
				}
			}
		}
		if cyclic && seen&all == all {
			return true, nil
		}
	}
	return false, nil
}
