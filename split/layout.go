package split

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// exposure is a local predicate made visible to all processes (§4.3 of the
// thesis: "a local predicate p is exposed by adding an auxiliary shared
// variable x_p, in such a manner that the invariant x_p ≡ p is
// maintained"). For every process k instantiating it there is a Boolean
// auxiliary shared variable that k's transitions set to m(L_k′), that the
// initial condition sets to m(L_k), and that other processes keep.
//
// Predicates are found on one process (rep) and, when the program says
// processes share a template, instantiated for every process of the
// template, so a parameterised protocol needs a handful of refinements
// rather than one per process.
type exposure struct {
	id     int
	rep    *Process
	pred   serial     // over rep's variables (current copies)
	procs  []*Process // instances
	text   string     // the predicate in words, over rep's local names
	reason string     // the refinement step that found it
}

// describe prints the exposure for reports.
func (e *exposure) describe() string {
	names := make([]string, len(e.procs))
	for i, p := range e.procs {
		names[i] = p.name
	}
	who := strings.Join(names, ", ")
	if len(names) > 4 {
		who = fmt.Sprintf("%s … %s (%d processes)", names[0], names[len(names)-1], len(names))
	}
	return fmt.Sprintf("x%d ≡ %s for %s (%s)", e.id, e.text, who, e.reason)
}

// layout is the variable structure of one verification round: which
// variables are shared (the program's shared variables, local variables
// promoted to shared because a property reads them, and the auxiliary
// variables of exposures), and what each process owns.
type layout struct {
	prog     *Program
	shared   []*Var
	locals   [][]*Var // per process: local variables that stay local
	owned    [][]*Var // per process: every variable only it writes (locals, promoted, auxiliary)
	aux      [][]*Var // per process: its auxiliary variables
	exps     []*exposure
	promoted map[*Var]bool
}

func newLayout(p *Program, promoted map[*Var]bool, exps []*exposure) *layout {
	l := &layout{prog: p, promoted: promoted, exps: exps}
	n := len(p.procs)
	l.locals = make([][]*Var, n)
	l.owned = make([][]*Var, n)
	l.aux = make([][]*Var, n)
	promotedOf := make([][]*Var, n)
	for _, pr := range p.procs {
		for _, v := range pr.locals {
			if promoted[v] {
				promotedOf[pr.index] = append(promotedOf[pr.index], v)
			} else {
				l.locals[pr.index] = append(l.locals[pr.index], v)
			}
			l.owned[pr.index] = append(l.owned[pr.index], v)
		}
	}
	for _, e := range exps {
		for _, pr := range e.procs {
			a := &Var{name: fmt.Sprintf("%s#x%d", pr.name, e.id), hi: 1, bool: true, index: -1, aux: e, auxIdx: pr.index}
			l.aux[pr.index] = append(l.aux[pr.index], a)
		}
	}
	for k := range n {
		l.locals[k] = interleaveArrays(l.locals[k])
		l.owned[k] = append(l.owned[k], l.aux[k]...)
	}
	// The shared variables a process owns (promoted locals, then its
	// auxiliary variables, grouped: predicates of one process are
	// correlated, those of different processes much less) follow the last
	// program shared variable the process accesses (see sharedSlots).
	slots := sharedSlots(p)
	for pos := 0; pos <= len(p.shared); pos++ {
		if pos > 0 {
			l.shared = append(l.shared, p.shared[pos-1])
		}
		for k := range n {
			if slots[k] == pos {
				l.shared = append(l.shared, promotedOf[k]...)
				l.shared = append(l.shared, l.aux[k]...)
			}
		}
	}
	return l
}

// sharedSlots returns, per process, where the shared variables it owns go
// in the order: after the sharedSlots[k]-th program shared variable, the
// last one its commands read or write (after all of them if it accesses
// none). Its local state, which those variables expose, is correlated
// with the shared variables it touches. With every owned variable below
// the program's shared ones, a ring like DINING-PHIL (P[k] touches f[k]
// and f[k+1]) makes every set over X remember all of f[1..N] above the
// first exposed predicate: the split invariants of the refinement rounds
// grew with 2^N (docs/split.md).
func sharedSlots(p *Program) []int {
	pos := map[*Var]int{}
	for i, v := range p.shared {
		pos[v] = i + 1
	}
	slots := make([]int, len(p.procs))
	for k, pr := range p.procs {
		last := 0
		see := func(v *Var) {
			if at, ok := pos[v]; ok && at > last {
				last = at
			}
		}
		for _, c := range pr.commands {
			c.Guard.vars(see)
			for _, u := range c.Updates {
				see(u.Var)
				u.Value.vars(see)
			}
		}
		if last == 0 {
			last = len(p.shared)
		}
		slots[k] = last
	}
	return slots
}

// isShared reports whether v is shared in this layout.
func (l *layout) isShared(v *Var) bool { return v.owner == nil || l.promoted[v] }

// instance maps rep's local variables to those of pr (same template).
func instance(rep, pr *Process) map[*Var]*Var {
	if rep == pr {
		return nil
	}
	m := make(map[*Var]*Var, len(rep.locals))
	for i, v := range rep.locals {
		if i < len(pr.locals) {
			m[v] = pr.locals[i]
		}
	}
	return m
}

// interleaveArrays is the BDD order of a process's locals: scalars first
// (in declaration order), then the elements of arrays grouped by their
// (last) index, in declaration order within an index — cache[1], chan[1],
// cache[2], chan[2], … rather than cache[1], cache[2], …, chan[1], ….
// Elements with one index usually describe one client or peer (German's
// per-client cache state and channels; the thesis's regrouped Q[i] is a
// home node with the fragments of all N clients), and the reachable states
// correlate them far more than elements of one array: declared array by
// array, GERMAN N = 5's split invariant took 30 s and 308,400 nodes,
// interleaved 1.9 s and 5,360 nodes (docs/split.md).
func interleaveArrays(vars []*Var) []*Var {
	type keyed struct {
		v   *Var
		idx int // -1 for a scalar
		pos int
	}
	ks := make([]keyed, len(vars))
	for i, v := range vars {
		ks[i] = keyed{v, lastIndex(v.name), i}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if a.idx != b.idx {
			return a.idx - b.idx
		}
		return a.pos - b.pos
	})
	out := make([]*Var, len(vars))
	for i, k := range ks {
		out[i] = k.v
	}
	return out
}

// lastIndex is i for a name ending in "[i]" (i ≥ 0), else -1.
func lastIndex(name string) int {
	if !strings.HasSuffix(name, "]") {
		return -1
	}
	open := strings.LastIndexByte(name, '[')
	if open < 0 {
		return -1
	}
	i, err := strconv.Atoi(name[open+1 : len(name)-1])
	if err != nil || i < 0 {
		return -1
	}
	return i
}
