package split

// This file translates LTL over infinite computations into Büchi automata.
// [NOTE for the lead] It belongs in package automaton (issue 8 asks for "an
// LTL → generalized Büchi translation for infinite computations" there,
// "same tableau, Büchi acceptance"); it lives here because automaton is
// owned by another engineer. It depends only on package ltl.
//
// The translation is the GPVW tableau in the transition-based form of
// Couvreur: a state is the set of obligations (formulas in negation normal
// form) the rest of the word must satisfy; expanding a state's conjunction
// by the rules
//
//	g U h = h ∨ (g ∧ X(g U h))      g R h = h ∧ (g ∨ X(g R h))
//
// gives its outgoing edges: the literals the current letter must satisfy
// and the obligations of the next position. An edge is accepting for an
// until u = g U h unless it postponed u (took the g ∧ X u branch), so a run
// cannot postpone an eventuality forever (generalized Büchi acceptance with
// one set per until). degeneralize then turns the sets into a single
// accepting set with the usual counter.

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/henceforth-go/henceforth/ltl"
)

// buchi is a transition-based Büchi automaton over valuations of atoms.
// After degeneralize, acc has one mark per edge (accepting or not).
type buchi struct {
	states int
	init   []int
	edges  []bedge
	nsets  int // generalized acceptance: edge marks are bit sets of nsets bits
	names  []string
}

// bedge is an edge whose guard is a conjunction of literals.
type bedge struct {
	from, to int
	pos, neg []string // atoms that must be true / false
	acc      uint64   // acceptance marks (bit i: in set i)
}

// maxBuchiStates bounds the translation.
const maxBuchiStates = 1 << 14

// nnfInf rewrites f into negation normal form for infinite words, over
// true, false, literals, ∧, ∨, X, U and R.
func nnfInf(f ltl.Formula, neg bool) (ltl.Formula, error) {
	op := f.Op()
	if op.IsPast() || op == ltl.OpStart || op == ltl.OpEnd || op == ltl.OpIntervalStrong || op == ltl.OpIntervalWeak {
		return ltl.Formula{}, fmt.Errorf("%w: past operator %s in a property over infinite computations", ErrUnsupported, op)
	}
	sub := func(g ltl.Formula, n bool) (ltl.Formula, error) { return nnfInf(g, n) }
	both := func(a, b ltl.Formula, na, nb bool, mk func(x, y ltl.Formula) ltl.Formula) (ltl.Formula, error) {
		x, err := sub(a, na)
		if err != nil {
			return x, err
		}
		y, err := sub(b, nb)
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
		return sub(l, !neg)
	case ltl.OpAnd:
		return both(l, r, neg, neg, and)
	case ltl.OpOr:
		return both(l, r, neg, neg, or)
	case ltl.OpImplies: // ¬l ∨ r
		return both(l, r, !neg, neg, or)
	case ltl.OpIff, ltl.OpXor:
		// l ↔ r = (l ∧ r) ∨ (¬l ∧ ¬r); xor is its negation.
		n := neg != (op == ltl.OpXor)
		x, err := both(l, r, false, false, ltl.And)
		if err != nil {
			return x, err
		}
		y, err := both(l, r, true, true, ltl.And)
		if err != nil {
			return y, err
		}
		if !n {
			return ltl.Or(x, y), nil
		}
		// ¬((l∧r) ∨ (¬l∧¬r)) = (l ∨ r) ∧ (¬l ∨ ¬r)
		a, err := both(l, r, false, false, ltl.Or)
		if err != nil {
			return a, err
		}
		b, err := both(l, r, true, true, ltl.Or)
		if err != nil {
			return b, err
		}
		return ltl.And(a, b), nil
	case ltl.OpNext, ltl.OpWeakNext: // the same on infinite words; self-dual
		x, err := sub(l, neg)
		return ltl.Next(x), err
	case ltl.OpEventually: // true U l
		return sub(ltl.Until(ltl.True(), l), neg)
	case ltl.OpAlways: // false R l
		return sub(ltl.Release(ltl.False(), l), neg)
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
		return sub(ltl.Release(r, ltl.Or(l, r)), neg)
	case ltl.OpStrongRelease: // l M r = r U (l ∧ r)
		return sub(ltl.Until(r, ltl.And(l, r)), neg)
	}
	return ltl.Formula{}, fmt.Errorf("%w: operator %s", ErrUnsupported, op)
}

// tableauTerm is one expansion of a state: a letter constraint, the next
// obligations and the untils it postponed.
type tableauTerm struct {
	lits      map[string]bool
	next      map[ltl.Formula]bool
	postponed map[ltl.Formula]bool
}

// expand returns the terms of the conjunction of todo.
func expand(todo []ltl.Formula) []tableauTerm {
	var out []tableauTerm
	var rec func(todo []ltl.Formula, t tableauTerm)
	rec = func(todo []ltl.Formula, t tableauTerm) {
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
				rec(append(cloneFormulas(todo), f.Left()), t.clone())
				todo = append(todo, f.Right())
			case ltl.OpUntil:
				rec(append(cloneFormulas(todo), f.Right()), t.clone())
				todo = append(todo, f.Left())
				t.next[f] = true
				t.postponed[f] = true
			case ltl.OpRelease:
				rec(append(cloneFormulas(todo), f.Left(), f.Right()), t.clone())
				todo = append(todo, f.Right())
				t.next[f] = true
			}
		}
		out = append(out, t)
	}
	rec(todo, tableauTerm{lits: map[string]bool{}, next: map[ltl.Formula]bool{}, postponed: map[ltl.Formula]bool{}})
	return out
}

func cloneFormulas(fs []ltl.Formula) []ltl.Formula { return append([]ltl.Formula(nil), fs...) }

func (t tableauTerm) clone() tableauTerm {
	c := tableauTerm{lits: map[string]bool{}, next: map[ltl.Formula]bool{}, postponed: map[ltl.Formula]bool{}}
	for k, v := range t.lits {
		c.lits[k] = v
	}
	for k := range t.next {
		c.next[k] = true
	}
	for k := range t.postponed {
		c.postponed[k] = true
	}
	return c
}

// toBuchi translates f (an LTL formula over infinite words, future
// operators only) into a generalized transition-based Büchi automaton.
func toBuchi(ctx context.Context, f ltl.Formula) (*buchi, error) {
	g, err := nnfInf(f, false)
	if err != nil {
		return nil, err
	}
	var untils []ltl.Formula
	for _, s := range g.Subformulas() {
		if s.Op() == ltl.OpUntil {
			untils = append(untils, s)
		}
	}
	if len(untils) > 63 {
		return nil, fmt.Errorf("%w: more than 63 eventualities", ErrUnsupported)
	}
	b := &buchi{nsets: len(untils)}
	index := map[string]int{}
	var queue [][]ltl.Formula
	key := func(set map[ltl.Formula]bool) (string, []ltl.Formula) {
		fs := make([]ltl.Formula, 0, len(set))
		for h := range set {
			fs = append(fs, h)
		}
		names := make([]string, len(fs))
		for i, h := range fs {
			names[i] = h.String()
		}
		sort.Sort(byName{fs, names})
		return strings.Join(names, " ∧ "), fs
	}
	state := func(set map[ltl.Formula]bool) (int, error) {
		k, fs := key(set)
		if i, ok := index[k]; ok {
			return i, nil
		}
		if b.states >= maxBuchiStates {
			return 0, fmt.Errorf("%w: Büchi automaton over %d states", ErrUnsupported, maxBuchiStates)
		}
		i := b.states
		b.states++
		index[k] = i
		b.names = append(b.names, k)
		queue = append(queue, fs)
		return i, nil
	}
	s0, _ := state(map[ltl.Formula]bool{g: true})
	b.init = []int{s0}
	for i := 0; i < len(queue); i++ {
		if i%256 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, t := range expand(queue[i]) {
			to, err := state(t.next)
			if err != nil {
				return nil, err
			}
			e := bedge{from: i, to: to}
			for a, v := range t.lits {
				if v {
					e.pos = append(e.pos, a)
				} else {
					e.neg = append(e.neg, a)
				}
			}
			sort.Strings(e.pos)
			sort.Strings(e.neg)
			for j, u := range untils {
				if !t.postponed[u] {
					e.acc |= 1 << uint(j)
				}
			}
			b.edges = append(b.edges, e)
		}
	}
	return b, nil
}

type byName struct {
	fs    []ltl.Formula
	names []string
}

func (s byName) Len() int           { return len(s.fs) }
func (s byName) Less(i, j int) bool { return s.names[i] < s.names[j] }
func (s byName) Swap(i, j int) {
	s.fs[i], s.fs[j] = s.fs[j], s.fs[i]
	s.names[i], s.names[j] = s.names[j], s.names[i]
}

// degeneralize returns an equivalent automaton with one acceptance set
// (acc is 1 on accepting edges): states (q, c), where the counter c is the
// next set the run must visit.
func (b *buchi) degeneralize() *buchi {
	m := b.nsets
	if m <= 1 {
		d := *b
		d.edges = append([]bedge(nil), b.edges...)
		for i := range d.edges {
			if m == 0 || d.edges[i].acc&1 != 0 {
				d.edges[i].acc = 1
			} else {
				d.edges[i].acc = 0
			}
		}
		d.nsets = 1
		return &d
	}
	d := &buchi{states: b.states * m, nsets: 1}
	for _, q := range b.init {
		d.init = append(d.init, q*m)
	}
	for q := range b.states {
		for c := range m {
			d.names = append(d.names, fmt.Sprintf("%s [%d]", b.names[q], c))
		}
	}
	for _, e := range b.edges {
		for c := range m {
			j := c
			for j < m && e.acc&(1<<uint(j)) != 0 {
				j++
			}
			ne := bedge{from: e.from*m + c, pos: e.pos, neg: e.neg}
			if j == m {
				ne.acc = 1
				ne.to = e.to * m
			} else {
				ne.to = e.to*m + j
			}
			d.edges = append(d.edges, ne)
		}
	}
	return d.trim()
}

// trim drops states unreachable from the initial ones and renumbers.
func (b *buchi) trim() *buchi {
	out := map[int][]int{}
	for i, e := range b.edges {
		out[e.from] = append(out[e.from], i)
	}
	seen := map[int]int{}
	var order []int
	var stack []int
	for _, q := range b.init {
		if _, ok := seen[q]; !ok {
			seen[q] = len(order)
			order = append(order, q)
			stack = append(stack, q)
		}
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, i := range out[q] {
			t := b.edges[i].to
			if _, ok := seen[t]; !ok {
				seen[t] = len(order)
				order = append(order, t)
				stack = append(stack, t)
			}
		}
	}
	r := &buchi{states: len(order), nsets: b.nsets}
	for _, q := range b.init {
		r.init = append(r.init, seen[q])
	}
	for _, q := range order {
		if q < len(b.names) {
			r.names = append(r.names, b.names[q])
		}
	}
	for _, e := range b.edges {
		f, ok := seen[e.from]
		if !ok {
			continue
		}
		e.from, e.to = f, seen[e.to]
		r.edges = append(r.edges, e)
	}
	return r
}

// acceptsLasso reports whether the automaton accepts the infinite word
// u·v^ω given as letters 0..n-1 with position n-1 followed by position
// loop. letter(i, atom) says whether atom holds at position i. For tests
// and cross-checks; the word is small.
func (b *buchi) acceptsLasso(n, loop int, letter func(i int, atom string) bool) bool {
	succ := func(i int) int {
		if i == n-1 {
			return loop
		}
		return i + 1
	}
	match := func(e bedge, i int) bool {
		for _, a := range e.pos {
			if !letter(i, a) {
				return false
			}
		}
		for _, a := range e.neg {
			if letter(i, a) {
				return false
			}
		}
		return true
	}
	type node struct{ i, q int }
	out := map[int][]bedge{}
	for _, e := range b.edges {
		out[e.from] = append(out[e.from], e)
	}
	reach := func(from []node) map[node]bool {
		seen := map[node]bool{}
		stack := append([]node(nil), from...)
		for _, s := range from {
			seen[s] = true
		}
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, e := range out[s.q] {
				if match(e, s.i) {
					t := node{succ(s.i), e.to}
					if !seen[t] {
						seen[t] = true
						stack = append(stack, t)
					}
				}
			}
		}
		return seen
	}
	var starts []node
	for _, q := range b.init {
		starts = append(starts, node{0, q})
	}
	fromInit := reach(starts)
	for s := range fromInit {
		for _, e := range out[s.q] {
			if e.acc&1 == 0 || !match(e, s.i) {
				continue
			}
			t := node{succ(s.i), e.to}
			if reach([]node{t})[s] {
				return true
			}
		}
	}
	return false
}
