package automaton

import (
	"context"
	"errors"
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// maxAtoms is the size of the alphabet a DFA can read: one Letter bit each.
const maxAtoms = monitor.MaxAtoms

// Errors a translation can wrap. A caller that gets them has no verdict and
// must report the check as unknown, not as passed.
var (
	// ErrUnsupported: the request is outside what the automaton handles.
	ErrUnsupported = errors.New("unsupported")
	// ErrTooLarge: the automaton exceeded a size bound (states, BDD nodes,
	// atoms per letter).
	ErrTooLarge = errors.New("automaton too large")
)

// Default bounds of a translation.
const (
	DefaultMaxStates = 1 << 22
	DefaultMaxNodes  = 1 << 26
)

// Options configures FromFormula. The zero value is the default.
type Options struct {
	// Atoms are atoms to add to the alphabet besides the formula's own;
	// they also come first in the decision diagrams' variable order, so
	// two formulas translated with the same Atoms list (covering both)
	// have the same alphabet and order and can be combined by product.
	Atoms []string
	// MaxStates bounds the states explored before minimization;
	// 0 means DefaultMaxStates.
	MaxStates int
	// MaxNodes bounds the BDD nodes of the construction; 0 means
	// DefaultMaxNodes.
	MaxNodes int
	// ExactPast translates past operators into the automaton itself
	// instead of computing maximal pure-past subformulas with a
	// monitor.Past and reading them as fresh atoms. The DFA is then the
	// minimal DFA of the formula over its own atoms, and a Monitor's
	// Violated and Satisfied verdicts are exact for mixed formulas too,
	// at the price of DFA states that remember past values. Formulas
	// that apply a past operator to a future subformula are always
	// translated this way.
	ExactPast bool
	// Unminimized returns the DFA of the subset construction as it is,
	// states renumbered breadth-first, instead of the minimal one
	// (for ltl automaton -minimal=false).
	Unminimized bool
}

// A DFA is a complete deterministic finite automaton over letters — the
// valuations of its Atoms — whose transitions are guard-labelled: each
// state's transition function is a decision diagram over the atoms whose
// leaves are states, shared between states. It reads a trace one letter
// per position and accepts it when the state reached is accepting; the
// initial state accepts exactly when the formula holds on the empty trace.
//
// A DFA built from a formula with past operators reads, besides the
// formula's other atoms, one fresh atom per maximal pure-past subformula
// (see PastAtoms); its Monitor computes those from the formula's own atoms.
// A DFA is immutable and safe for concurrent use; its Monitors are not.
type DFA struct {
	formula ltl.Formula
	atoms   []string
	order   []int // order[level] is the letter bit tested at that level
	nodes   []ddNode
	roots   []int32 // transition function of each state: a reference into nodes
	accept  []bool
	initial int32

	inputs  []string      // atoms a monitor is fed (the formula's atoms, sorted)
	past    []ltl.Formula // past[j] is the formula of atom atoms[visible+j]
	visible int

	// Derived by finish.
	verdicts []monitor.Verdict
	walk     []walkNode
	flat     []int32 // flat[s<<flatBits|letter]: the whole table, for small alphabets
	flatBits uint
}

// walkNode is a ddNode with its level resolved to a letter mask, for
// stepping.
type walkNode struct {
	mask   monitor.Letter
	lo, hi int32
}

func newDFAShell(p *prepared) *DFA {
	return &DFA{
		formula: p.orig,
		atoms:   p.atoms,
		order:   p.order,
		inputs:  p.inputs,
		past:    p.past,
		visible: p.visible,
	}
}

// FromFormula returns the minimal complete DFA of f under LTLf: a rejecting
// sink, when there is one, counts as a state, and the initial state accepts
// exactly when f holds on the empty trace. ctx is checked while the DFA is
// built (the construction is exponential in the worst case); the zero
// Options are the defaults.
func FromFormula(ctx context.Context, f ltl.Formula, opts Options) (*DFA, error) {
	p, err := prepare(f, opts.Atoms, opts.ExactPast)
	if err != nil {
		return nil, err
	}
	lim := opts.limits()
	var raw *DFA
	composed := !opts.Unminimized && composable(p)
	if composed {
		raw, err = composeMinimal(ctx, p, lim)
	} else {
		raw, err = subsetConstruction(ctx, p, lim)
	}
	if err != nil {
		return nil, err
	}
	if len(raw.past) > 0 {
		// Monitor builds one per monitor; fail here, not there.
		if _, err := monitor.NewPast(ltl.LTLf, raw.past...); err != nil {
			return nil, fmt.Errorf("automaton: monitoring the past subformulas of %s: %w", f, err)
		}
	}
	if opts.Unminimized {
		d := renumber(raw)
		d.finish(false)
		return d, nil
	}
	d := raw
	if !composed {
		// The compositional construction minimizes as it goes.
		d = minimize(raw)
	}
	d.finish(true)
	return d, nil
}

// limits returns the bounds opts sets, defaults filled in.
func (opts Options) limits() limits {
	lim := limits{maxStates: opts.MaxStates, maxNodes: opts.MaxNodes}
	if lim.maxStates <= 0 {
		lim.maxStates = DefaultMaxStates
	}
	if lim.maxNodes <= 0 {
		lim.maxNodes = DefaultMaxNodes
	}
	return lim
}

// Formula returns the formula the DFA was built from.
func (d *DFA) Formula() ltl.Formula { return d.formula }

// Atoms returns the alphabet: bit i of a Letter is the value of Atoms()[i].
// The formula's atoms outside past subformulas come first, sorted, then one
// fresh atom per past subformula (PastAtoms). The caller must not modify
// the slice.
func (d *DFA) Atoms() []string { return d.atoms }

// PastAtoms returns, for a DFA of a formula with past operators, the
// maximal pure-past subformulas that its fresh atoms stand for: fresh atom
// Atoms()[len(Atoms())-len(PastAtoms())+j] is the value of PastAtoms()[j]
// at the current position. Their names are the subformulas' printed forms
// (with a prime appended if that collides with an atom of the formula).
func (d *DFA) PastAtoms() []ltl.Formula { return d.past }

// NumStates is the number of states, the rejecting sink included.
func (d *DFA) NumStates() int { return len(d.roots) }

// Initial returns the initial state. States are numbered 0…NumStates()-1
// in breadth-first order from the initial state, which is 0.
func (d *DFA) Initial() int { return int(d.initial) }

// Accepting reports whether state s is accepting: a trace that ends in s
// satisfies the formula.
func (d *DFA) Accepting(s int) bool { return d.accept[s] }

// Verdict returns what reaching state s says about the formula: Violated
// if no accepting state is reachable from s, Satisfied if only accepting
// states are, otherwise CurrentlyTrue or CurrentlyFalse by whether s is
// accepting.
func (d *DFA) Verdict(s int) monitor.Verdict { return d.verdicts[s] }

// Next returns the state reached from s on letter l (a valuation of
// Atoms()).
func (d *DFA) Next(s int, l monitor.Letter) int {
	return int(d.next(int32(s), l))
}

func (d *DFA) next(s int32, l monitor.Letter) int32 {
	if d.flat != nil {
		return d.flat[uint64(s)<<d.flatBits|uint64(l)&(1<<d.flatBits-1)]
	}
	r := d.roots[s]
	for r >= 0 {
		n := &d.walk[r]
		if l&n.mask != 0 {
			r = n.hi
		} else {
			r = n.lo
		}
	}
	return ^r
}

// Accepts runs the DFA on a trace of letters and reports whether it
// accepts.
func (d *DFA) Accepts(trace []monitor.Letter) bool {
	s := d.initial
	for _, l := range trace {
		s = d.next(s, l)
	}
	return d.accept[s]
}

// Letter returns the letter in which exactly the named atoms hold; names
// outside Atoms() are ignored.
func (d *DFA) Letter(names ...string) monitor.Letter {
	var l monitor.Letter
	for _, n := range names {
		for i, a := range d.atoms {
			if a == n {
				l |= 1 << uint(i)
			}
		}
	}
	return l
}

// flatLimit bounds the size of the flat transition table: it is built when
// states × 2^|atoms| is at most this many entries.
const flatLimit = 1 << 16

// finish computes the derived tables: per-state verdicts and the stepping
// structures. minimal says d is minimal, which makes verdicts cheaper.
func (d *DFA) finish(minimal bool) {
	d.walk = make([]walkNode, len(d.nodes))
	for i, n := range d.nodes {
		d.walk[i] = walkNode{mask: 1 << uint(d.order[n.level]), lo: n.lo, hi: n.hi}
	}
	d.flat = nil
	if k := len(d.atoms); k <= 12 && len(d.roots)<<uint(k) <= flatLimit {
		d.flatBits = uint(k)
		flat := make([]int32, len(d.roots)<<uint(k))
		d.flat = nil // next must walk while the table is filled
		for s := range d.roots {
			for l := 0; l < 1<<uint(k); l++ {
				flat[s<<uint(k)|l] = d.next(int32(s), monitor.Letter(l))
			}
		}
		d.flat = flat
	}

	d.verdicts = make([]monitor.Verdict, len(d.roots))
	canAccept, canReject := d.reachability(minimal)
	for s := range d.roots {
		switch {
		case !canAccept[s]:
			d.verdicts[s] = monitor.Violated
		case !canReject[s]:
			d.verdicts[s] = monitor.Satisfied
		case d.accept[s]:
			d.verdicts[s] = monitor.CurrentlyTrue
		default:
			d.verdicts[s] = monitor.CurrentlyFalse
		}
	}
}

// reachability reports for each state whether an accepting and whether a
// rejecting state is reachable from it.
func (d *DFA) reachability(minimal bool) (canAccept, canReject []bool) {
	n := len(d.roots)
	canAccept, canReject = make([]bool, n), make([]bool, n)
	if minimal {
		// In a minimal DFA the states from which no accepting state is
		// reachable have the empty language, so there is at most one of
		// them and all its transitions loop (the rejecting sink);
		// likewise only the universal sink reaches no rejecting state.
		for s, r := range d.roots {
			loops := r == ^int32(s)
			canAccept[s] = !loops || d.accept[s]
			canReject[s] = !loops || !d.accept[s]
		}
		return canAccept, canReject
	}
	preds := make([][]int32, n)
	sc := newSuccessorScanner(d)
	for s := range d.roots {
		for _, t := range sc.successors(s) {
			preds[t] = append(preds[t], int32(s))
		}
	}
	backward := func(seen []bool, from bool) {
		var queue []int32
		for s := range seen {
			if d.accept[s] == from {
				seen[s] = true
				queue = append(queue, int32(s))
			}
		}
		for len(queue) > 0 {
			s := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, p := range preds[s] {
				if !seen[p] {
					seen[p] = true
					queue = append(queue, p)
				}
			}
		}
	}
	backward(canAccept, true)
	backward(canReject, false)
	return canAccept, canReject
}

// successorScanner lists the distinct successors of states without
// allocating per call: it marks visited nodes and states with a generation
// number.
type successorScanner struct {
	d          *DFA
	nodeMark   []uint32
	stateMark  []uint32
	gen        uint32
	stack, out []int32
}

func newSuccessorScanner(d *DFA) *successorScanner {
	return &successorScanner{d: d, nodeMark: make([]uint32, len(d.nodes)), stateMark: make([]uint32, len(d.roots))}
}

// successors returns the distinct states reachable from s in one step, in
// the order a lo-first traversal of its decision diagram meets them. The
// result is valid until the next call.
func (sc *successorScanner) successors(s int) []int32 {
	sc.gen++
	sc.out = sc.out[:0]
	sc.stack = append(sc.stack[:0], sc.d.roots[s])
	for len(sc.stack) > 0 {
		r := sc.stack[len(sc.stack)-1]
		sc.stack = sc.stack[:len(sc.stack)-1]
		if r < 0 {
			if t := ^r; sc.stateMark[t] != sc.gen {
				sc.stateMark[t] = sc.gen
				sc.out = append(sc.out, t)
			}
			continue
		}
		if sc.nodeMark[r] == sc.gen {
			continue
		}
		sc.nodeMark[r] = sc.gen
		n := sc.d.nodes[r]
		sc.stack = append(sc.stack, n.hi, n.lo)
	}
	return sc.out
}

func (d *DFA) String() string {
	return fmt.Sprintf("DFA(%s: %d states, %d atoms)", d.formula, len(d.roots), len(d.atoms))
}
