package explore

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Happens-before and races of long executions in near-linear time.
//
// newHBWith compares every event with every earlier one (quadratic: 4.5 s
// for a 40000-step execution of one goroutine), and the race loop of
// analyze compared every pair again, with a cubic test of directness.
// Most of those pairs are trivially ordered: they belong to one goroutine,
// or to a chain of conflicting operations on one object. depIndex keeps,
// for the events seen so far, only those another event may still need to
// be compared with:
//
//   - per goroutine (clock component), its last event, and its last
//     event that is not a pseudo-event: every event touching the
//     component happens before them (each event touching a component is
//     ordered after the previous one);
//   - the last barrier (every barrier happens after every earlier
//     non-pseudo event, since it depends on all of them);
//   - per dependency class, its frontier: the events of the class that
//     happen before no later event of the class (an antichain, so at most
//     one event per goroutine).
//
// A dependency class groups the events that every event depends on alike,
// apart from the goroutine clauses of depends (same goroutine, partner):
// those with equal obj, also-set, kind, write, join and ind (depends
// reads no other field than these, g, partner, pseudo and barrier).
// Pseudo-events and barriers are in no class.
//
// Invariant (why the results equal the quadratic ones): for an event j and
// the set D of earlier events i with dependent(i, j), every i ∈ D happens
// before or is one of the candidates (candidates) of j that are in D: if
// i depends on j through a goroutine clause, i touches one of j's
// components and happens before its last event; if through its class
// (obj, also, kind, write, join, ind), it happens before an element f of its
// class's frontier, and f, of the same class, depends on j the same way;
// a barrier happens before the last barrier; an event of goroutine q that
// a join of q depends on happens before q's last non-pseudo event. So
// joining the vector clocks of the candidates in D joins those of D, and
// the maximal elements of D (the races of analyze) are candidates. The
// indexed classes to look at for j are those whose obj or also-set meets
// j's obj or also-set, and those that join j's goroutines (depends'
// obj, also and join clauses). TestDepIndexEquivalence checks this
// against the quadratic computations on random events.
type depIndex struct {
	h *hb
	// last and lastReal are, per component, the last event touching it
	// and the last that is not a pseudo-event, plus 1 (0: none).
	last, lastReal []int
	lastBarrier    int // plus 1
	classIndex[*[]int]
	seen []int // candidates: marks (generation) to drop duplicates
	gen  int
}

// depClass identifies a dependency class (see depIndex).
type depClass struct {
	obj   evKey
	also  string
	kind  opKind
	write bool
	join  uint64
	ind   indep // commute's labels (independence.go)
}

func classOf(e *event) depClass {
	return depClass{obj: e.obj, also: alsoKey(e.also), kind: e.kind, write: e.write, join: e.join, ind: e.ind}
}

// classIndex holds the dependency classes (of depIndex and depLists) by
// the keys depends' obj, also and join clauses match.
type classIndex[T comparable] struct {
	classes map[depClass]T
	byObj   map[evKey][]T
	byAlso  map[evKey][]T
	byJoin  map[uint64][]T
}

func newClassIndex[T comparable]() classIndex[T] {
	return classIndex[T]{classes: map[depClass]T{}, byObj: map[evKey][]T{}, byAlso: map[evKey][]T{}, byJoin: map[uint64][]T{}}
}

// addClass records c as the class key of e.
func (x *classIndex[T]) addClass(key depClass, e *event, c T) {
	x.classes[key] = c
	x.byObj[e.obj] = append(x.byObj[e.obj], c)
	for _, k := range e.also {
		if !slices.Contains(x.byAlso[k], c) {
			x.byAlso[k] = append(x.byAlso[k], c)
		}
	}
	if e.join != 0 {
		x.byJoin[e.join] = append(x.byJoin[e.join], c)
	}
}

// eachClasses calls f with the lists of classes e may depend on through
// depends' obj, also and join clauses (a class may come more than once).
func (x *classIndex[T]) eachClasses(e *event, f func([]T)) {
	f(x.byObj[e.obj])
	f(x.byAlso[e.obj])
	for _, k := range e.also {
		f(x.byObj[k])
		f(x.byAlso[k])
	}
	f(x.byJoin[e.g])
	if e.partner != 0 {
		f(x.byJoin[e.partner])
	}
}

func newDepIndex(h *hb) *depIndex {
	n := len(h.gidx)
	return &depIndex{h: h, last: make([]int, n), lastReal: make([]int, n), classIndex: newClassIndex[*[]int](),
		seen: make([]int, len(h.evs))}
}

func alsoKey(also []evKey) string {
	if len(also) == 0 {
		return ""
	}
	var b strings.Builder
	for _, k := range also {
		b.WriteString(strconv.FormatUint(k.id, 36))
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(k.off))
		b.WriteByte(',')
	}
	return b.String()
}

// add records event j, whose vector clock is computed.
func (d *depIndex) add(j int) {
	e := &d.h.evs[j]
	for _, k := range [2]uint64{e.g, e.partner} {
		if c, ok := d.h.gidx[k]; ok && (k == e.g || k != 0) {
			d.last[c] = j + 1
			if !e.pseudo {
				d.lastReal[c] = j + 1
			}
		}
	}
	switch {
	case e.pseudo:
		return
	case e.barrier:
		d.lastBarrier = j + 1
		return
	}
	key := classOf(e)
	f, ok := d.classes[key]
	if !ok {
		f = new([]int)
		d.addClass(key, e, f)
	}
	// keep the antichain: drop the elements j happens after
	kept := (*f)[:0]
	for _, i := range *f {
		if !d.h.before(i, j) {
			kept = append(kept, i)
		}
	}
	*f = append(kept, j)
}

// candidates calls visit, once each, with the earlier events (added so
// far) that may be maximal among those e depends on or shares a goroutine
// with: a superset of those maximal elements, each happening before e or
// not related to it (the caller filters with dependent and sameThread).
func (d *depIndex) candidates(e *event, visit func(i int)) {
	d.gen++
	mark := func(i int) {
		if d.seen[i] != d.gen {
			d.seen[i] = d.gen
			visit(i)
		}
	}
	comp := func(k uint64, lasts []int) {
		if c, ok := d.h.gidx[k]; ok && lasts[c] > 0 {
			mark(lasts[c] - 1)
		}
	}
	comp(e.g, d.last)
	if e.partner != 0 {
		comp(e.partner, d.last)
	}
	if e.pseudo {
		return
	}
	if e.barrier {
		for _, l := range d.lastReal {
			if l > 0 {
				mark(l - 1)
			}
		}
	}
	if d.lastBarrier > 0 {
		mark(d.lastBarrier - 1)
	}
	if e.join != 0 {
		comp(e.join, d.lastReal)
	}
	d.eachClasses(e, func(fs []*[]int) {
		for _, f := range fs {
			for _, i := range *f {
				mark(i)
			}
		}
	})
}

// newHBIndexed is newHBWith(evs, dependent) computed with a depIndex:
// each event's clock joins its goroutines' last events, its spawner and
// the candidates it depends on, instead of every earlier event it
// depends on (the same clock: see depIndex).
func newHBIndexed(evs []event) *hb {
	h := &hb{evs: evs, gidx: map[uint64]int{}, seq: make([]int32, len(evs)), vc: make([][]int32, len(evs))}
	for i := range evs {
		for _, k := range [2]uint64{evs[i].g, evs[i].partner} {
			if _, ok := h.gidx[k]; !ok && (k == evs[i].g || k != 0) {
				h.gidx[k] = len(h.gidx)
			}
		}
	}
	n := len(h.gidx)
	count := make([]int32, n)
	d := newDepIndex(h)
	for j := range evs {
		e := &evs[j]
		vc := make([]int32, n)
		join := func(k int) {
			for c, v := range h.vc[k] {
				if v > vc[c] {
					vc[c] = v
				}
			}
		}
		if e.spawner >= 0 && e.spawner < j {
			join(e.spawner)
		}
		gi := h.gidx[e.g]
		d.candidates(e, func(i int) {
			// its own goroutines' last events unconditionally, as
			// newHBWith
			ei := &evs[i]
			if d.last[gi] == i+1 || e.partner != 0 && d.last[h.gidx[e.partner]] == i+1 || dependent(ei, e) {
				join(i)
			}
		})
		count[gi]++
		h.seq[j] = count[gi]
		vc[gi] = count[gi]
		if e.partner != 0 {
			pi := h.gidx[e.partner]
			count[pi]++
			vc[pi] = count[pi]
		}
		h.vc[j] = vc
		d.add(j)
	}
	return h
}

// races calls race(i, j) for each race of analyze, in its order: j
// ascending (barriers skipped), for each j the events i < min(j, real)
// ascending from the latest, such that i is not a barrier, does not share
// a goroutine with j, depends on j, and happens before no event k with
// i < k < min(j, real) that depends on or shares a goroutine with j.
// Events from real on (the operations goroutines wait at when the
// execution ends) take part as j only. It stops, reporting false, when
// done is closed (checked every 1024 events).
func races(h *hb, real int, race func(i, j int), done <-chan struct{}) bool {
	evs := h.evs
	d := newDepIndex(h)
	var cands, found []int
	for j := range evs {
		if j&1023 == 1023 {
			select {
			case <-done:
				return false
			default:
			}
		}
		ej := &evs[j]
		if !ej.barrier && j > 0 {
			cands = cands[:0]
			d.candidates(ej, func(i int) {
				if dependent(&evs[i], ej) || sameThread(&evs[i], ej) {
					cands = append(cands, i)
				}
			})
			found = found[:0]
			for _, i := range cands {
				ei := &evs[i]
				if ei.barrier || sameThread(ei, ej) || !dependent(ei, ej) {
					continue
				}
				direct := true
				for _, k := range cands {
					if k > i && h.before(i, k) {
						direct = false
						break
					}
				}
				if direct {
					found = append(found, i)
				}
			}
			slices.Sort(found)
			for a := len(found) - 1; a >= 0; a-- {
				race(found[a], j)
			}
		}
		if j < real {
			d.add(j)
		}
	}
	return true
}

// componentEvents lists, per clock component of h, the indices of the
// events before end that touch it (as goroutine or partner), ascending:
// each happens before the next.
func componentEvents(h *hb, end int) [][]int {
	out := make([][]int, len(h.gidx))
	for i := range h.evs[:end] {
		e := &h.evs[i]
		c := h.gidx[e.g]
		out[c] = append(out[c], i)
		if e.partner != 0 {
			if p := h.gidx[e.partner]; p != c {
				out[p] = append(out[p], i)
			}
		}
	}
	return out
}

// depLists indexes the events before real by dependency class (as
// depIndex, but every member, ascending) and by clock component, for the
// searches of blockedRaces: the events a blocked operation v depends on
// through depends' obj, also and join clauses are in the lists relevant
// returns.
type depLists struct {
	h *hb
	classIndex[*depList]
	comp [][]int
}

// depList is the events of a class, ascending. chain: any two of them
// are ordered by happens-before (they depend on each other, whatever
// their goroutines), so the events before one that happens before an
// event happen before it too.
type depList struct {
	idx   []int
	chain bool
}

func newDepLists(h *hb, real int) *depLists {
	l := &depLists{h: h, classIndex: newClassIndex[*depList](), comp: componentEvents(h, real)}
	for i := range h.evs[:real] {
		e := &h.evs[i]
		if e.pseudo || e.barrier {
			continue
		}
		key := classOf(e)
		c, ok := l.classes[key]
		if !ok {
			// two members of distinct goroutines (keys no event has)
			a, b := *e, *e
			a.g, a.partner, b.g, b.partner = 1<<64-1, 0, 1<<64-2, 0
			c = &depList{chain: dependent(&a, &b)}
			l.addClass(key, e, c)
		}
		c.idx = append(c.idx, i)
	}
	return l
}

// relevant returns the lists holding every event that v depends on and
// that does not touch v's goroutines and is not a barrier or a
// pseudo-event; false if v is a barrier or a pseudo-event itself (then
// any event may be).
func (l *depLists) relevant(v *event) ([]*depList, bool) {
	if v.barrier || v.pseudo {
		return nil, false
	}
	var out []*depList
	l.eachClasses(v, func(ls []*depList) {
		for _, c := range ls {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	})
	if v.join != 0 {
		if c, ok := l.h.gidx[v.join]; ok {
			out = append(out, &depList{idx: l.comp[c], chain: true})
		}
	}
	return out, true
}

// lastCandidate is the latest event before end that may race with r's
// operation (r.candidate), -1 if none: the first candidate of a scan from
// end-1 down, looking only at the lists relevant to the operation (in a
// chain, down to the first event that happens before the operation).
func (r *goRace) lastCandidate(l *depLists, end int) int {
	lists, ok := l.relevant(r.v)
	if !ok {
		for j := end - 1; j >= 0; j-- {
			if r.candidate(j) {
				return j
			}
		}
		return -1
	}
	best := -1
	for _, c := range lists {
		idx := c.idx[:sort.SearchInts(c.idx, end)]
		for _, k := range slices.Backward(idx) {
			if k <= best {
				break
			}
			if r.candidate(k) {
				best = k
				break
			}
			if c.chain && r.beforeQ(k) {
				break
			}
		}
	}
	return best
}

// candidatesIn calls visit with the events of [from, to) that may race
// with r's operation, ascending.
func (r *goRace) candidatesIn(l *depLists, from, to int, visit func(j int)) {
	lists, ok := l.relevant(r.v)
	if !ok {
		for j := from; j < to; j++ {
			if r.candidate(j) {
				visit(j)
			}
		}
		return
	}
	var js []int
	for _, c := range lists {
		lo, hi := sort.SearchInts(c.idx, from), sort.SearchInts(c.idx, to)
		js = append(js, c.idx[lo:hi]...)
	}
	slices.Sort(js)
	for a, j := range js {
		if (a == 0 || js[a-1] != j) && r.candidate(j) {
			visit(j)
		}
	}
}
