package monitor

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file is the future-time DP (Roşu–Havelund): the trace is stored and
// read backwards, keeping one row of subformula values (the "next" row of
// the paper: the register file holds 2m bits at most). Formulas that mix
// past and future operators run in stages that alternate direction: a
// stage computes, in one pass over the trace, every subformula whose
// operators look the stage's way, reading the subformulas that earlier
// stages computed (one stored bit per position each) like atoms. A future
// formula with past subformulas is two stages: the past-time DP forward,
// then the backward pass; a past operator applied to a future formula adds
// a third, and so on with the alternation depth.

// Future evaluates a formula of any shape (future, past or mixed) on stored
// traces, in O(n·m) time. A Future is immutable once built and safe for
// concurrent use.
type Future struct {
	f     ltl.Formula
	sem   ltl.Semantics
	atoms []string
	// stages run in order; the last one computes f. Even stages run
	// forward, odd ones backward; stages with nothing to do are left out.
	stages []stage
	// rowWords is the number of words per position of the stored row:
	// the values of the subformulas one stage computes for later ones.
	rowWords int
	// empty is the verdict on the empty trace under LTLf, where every
	// temporal operator takes its empty-range value.
	empty bool
}

// stage is one pass over the trace.
type stage struct {
	dir  direction
	prog *program
	// outs are the slots of the subformulas later stages read, stored at
	// bits base, base+1, … of the row; in the last stage, outs ends with
	// the slot of the formula itself.
	outs  []uint32
	base  int
	final bool
	table *stepTable // over state, letter and the row's first word
}

// NewFuture compiles f under sem. It is an error for f to be zero or to have
// more than MaxAtoms distinct atoms.
func NewFuture(f ltl.Formula, sem ltl.Semantics) (*Future, error) {
	return buildFuture(f, sem, true)
}

// buildFuture compiles f. fast makes the form for evaluation (propositional
// subtrees as truth tables, tabulated steps); otherwise every subformula
// gets a register and no step is tabulated, as explanations need.
func buildFuture(f ltl.Formula, sem ltl.Semantics, fast bool) (*Future, error) {
	if f.IsZero() {
		return nil, fmt.Errorf("monitor: future-time monitor: invalid (zero) formula")
	}
	order := topoOrder([]ltl.Formula{f})
	atoms, err := atomsOf(order)
	if err != nil {
		return nil, fmt.Errorf("monitor: future-time monitor: %w", err)
	}
	m := &Future{f: f, sem: sem, atoms: atoms, empty: emptyValues(order)[f]}

	plan := planStages(f, order)
	inputs := map[ltl.Formula][2]int{}
	bit := 0
	for k, stored := range plan {
		final := k == len(plan)-1
		if len(stored) == 0 && !final {
			continue
		}
		roots := stored
		if final {
			roots = append(append([]ltl.Formula(nil), stored...), f)
		}
		st := stage{dir: direction(k % 2), base: bit, final: final}
		st.prog = compile(sem, st.dir, fast, atoms, inputs, roots, nil)
		for _, r := range roots {
			st.outs = append(st.outs, st.prog.slot[r])
		}
		for _, r := range stored {
			inputs[r] = [2]int{bit / 64, bit % 64}
			bit++
		}
		m.stages = append(m.stages, st)
	}
	m.rowWords = wordsFor(bit)
	if fast && m.rowWords <= 1 {
		for k := range m.stages {
			st := &m.stages[k]
			st.table = tabulate(st.prog, len(atoms), len(atoms)+bit, st.outs)
		}
	}
	return m, nil
}

// planStages assigns every subformula of f with a temporal operator to the
// earliest stage that can compute it: stage 0 runs forward, 1 backward,
// 2 forward and so on; a temporal operator goes to the first stage of its
// direction not before its operands' stages, and strictly after operands
// computed in the other direction; a Boolean connective goes with its
// latest operand. Propositional subformulas belong to no stage: every
// stage computes them from the letter. It returns, for each stage, the
// subformulas it stores for later stages; the last stage computes f.
func planStages(f ltl.Formula, order []ltl.Formula) [][]ltl.Formula {
	stageOf := map[ltl.Formula]int{}
	for _, g := range order {
		k := -1
		op := g.Op()
		var dir int
		switch {
		case op.IsPast():
			dir = int(dirForward)
		case op.IsFuture():
			dir = int(dirBackward)
		}
		for j := range op.Arity() {
			kc := stageOf[operand(g, j)]
			if kc >= 0 && !op.IsBoolean() && kc%2 != dir {
				kc++ // computed the other way: one stage later
			}
			k = max(k, kc)
		}
		if !op.IsBoolean() {
			k = max(k, dir)
			if k%2 != dir {
				k++
			}
		}
		stageOf[g] = k
	}
	last := max(stageOf[f], 0) // a propositional formula: one forward stage
	stored := make([][]ltl.Formula, last+1)
	seen := map[ltl.Formula]bool{}
	for _, g := range order {
		for j := range g.Op().Arity() {
			c := operand(g, j)
			kc := stageOf[c]
			if kc >= 0 && kc < stageOf[g] && !seen[c] {
				seen[c] = true
				stored[kc] = append(stored[kc], c)
			}
		}
	}
	return stored
}

// emptyValues returns the value on the empty trace under LTLf of every
// formula of order (operands first, as topoOrder returns them): atoms, X F
// U M Y O S start end and the strong interval are false; N G W R Z H B and
// the weak interval true; the Boolean connectives as usual.
func emptyValues(order []ltl.Formula) map[ltl.Formula]bool {
	val := map[ltl.Formula]bool{}
	for _, g := range order {
		switch op := g.Op(); op {
		case ltl.OpWeakNext, ltl.OpAlways, ltl.OpWeakUntil, ltl.OpRelease,
			ltl.OpWeakYesterday, ltl.OpHistorically, ltl.OpWeakSince, ltl.OpIntervalWeak:
			val[g] = true
		default: // atoms and the strong operators false; Boolean as usual
			val[g] = applyBoolean(op, bitsOf(val[g.Left()]), bitsOf(val[g.Right()])) != 0
		}
	}
	return val
}

// bitsOf is v as a bit vector: all ones for true.
func bitsOf(v bool) uint64 {
	if v {
		return ^uint64(0)
	}
	return 0
}

// Formula returns the formula the monitor evaluates.
func (m *Future) Formula() ltl.Formula { return m.f }

// Atoms is the monitor's input vocabulary, sorted: bit i of a Letter is the
// value of Atoms()[i]. The caller must not modify it.
func (m *Future) Atoms() []string { return m.atoms }

// Eval returns the verdict of the formula on trace: its value at position
// 0, or on the empty trace the empty-trace rules of the semantics.
func (m *Future) Eval(trace []Letter) bool {
	if len(trace) == 0 && m.sem == ltl.LTLf {
		return m.empty
	}
	return m.run(trace, nil, nil)
}

// EvalAll returns the formula's value at every position of trace (an empty
// slice for the empty trace).
func (m *Future) EvalAll(trace []Letter) []bool {
	out := make([]bool, len(trace))
	m.run(trace, out, nil)
	return out
}

// run evaluates the stages over trace and returns the formula's value at
// position 0; if out is not nil, it also stores the value at every position
// in it. If step is not nil, every stage runs interpreted and step sees its
// register file after each position. Under RosuHavelund every stage also
// visits position len(trace), the empty suffix, where no atom holds.
func (m *Future) run(trace []Letter, out []bool, step func(k, i int, vals []uint8)) bool {
	n := len(trace)
	last := n - 1
	if m.sem == ltl.RosuHavelund {
		last = n
	}
	if last < 0 {
		return m.empty
	}
	r := &runner{m: m, trace: trace, out: out, last: last,
		rows: make([]uint64, (last+1)*m.rowWords)}
	for k := range m.stages {
		st := &m.stages[k]
		if st.table != nil && step == nil {
			r.tabled(st)
		} else {
			r.interpreted(k, st, step)
		}
	}
	return r.v0
}

// runner is the state of one run: the trace, the stored rows, and the
// formula's values.
type runner struct {
	m     *Future
	trace []Letter
	rows  []uint64
	last  int
	out   []bool
	v0    bool
}

func (r *runner) letter(i int) uint64 {
	if i < len(r.trace) {
		return uint64(r.trace[i]) & (1<<uint(len(r.m.atoms)) - 1)
	}
	return 0 // the empty suffix
}

// bounds returns the first position a stage visits, the one after its
// last, and the step.
func (r *runner) bounds(st *stage) (from, to, inc int) {
	if st.dir == dirBackward {
		return r.last, -1, -1
	}
	return 0, r.last + 1, 1
}

// result records the formula's value at i.
func (r *runner) result(i int, v bool) {
	if i == 0 {
		r.v0 = v
	}
	if r.out != nil && i < len(r.out) {
		r.out[i] = v
	}
}

func (r *runner) interpreted(k int, st *stage, step func(k, i int, vals []uint8)) {
	w := r.m.rowWords
	vals := append([]uint8(nil), st.prog.init...)
	nstored := len(st.outs)
	if st.final {
		nstored--
	}
	from, to, inc := r.bounds(st)
	for i := from; i != to; i += inc {
		code := st.prog.code
		if i == from && st.prog.first != nil {
			code = st.prog.first
		}
		row := r.rows[i*w : (i+1)*w]
		exec(code, vals, r.letter(i), row)
		if step != nil {
			step(k, i, vals)
		}
		for j := 0; j < nstored; j++ {
			b := st.base + j
			row[b/64] |= uint64(vals[st.outs[j]]) << uint(b%64)
		}
		if st.final {
			r.result(i, vals[st.outs[nstored]] == 1)
		}
	}
}

// tabled runs a tabulated stage: one table lookup per position, after the
// first position if that one has its own program. The row has at most one
// word.
func (r *runner) tabled(st *stage) {
	t := st.table
	w := r.m.rowWords
	nAtoms := uint(len(r.m.atoms))
	nstored := uint(len(st.outs))
	if st.final {
		nstored--
	}
	from, to, inc := r.bounds(st)
	vals := append([]uint8(nil), st.prog.init...)
	if st.prog.first != nil {
		var row []uint64
		if w == 1 {
			row = r.rows[from : from+1]
		}
		exec(st.prog.first, vals, r.letter(from), row)
		out := packOutputs(vals, st.outs)
		r.store(st, from, out, nstored)
		from += inc
	}
	s := packState(st.prog, vals) << t.inBits
	if st.dir == dirBackward && w == 0 && r.out == nil && from >= 0 && from < len(r.trace) {
		// The verdict alone, from a backward pass over the real positions
		// reading nothing but the letters: the common case, kept tight.
		mask := uint64(1)<<nAtoms - 1
		var e uint64
		for i := from; i >= 0; i-- {
			e = t.entries[s|uint64(r.trace[i])&mask]
			s = e & t.smask
		}
		r.store(st, 0, e>>t.outShift, nstored)
		return
	}
	for i := from; i != to; i += inc {
		x := r.letter(i)
		if w == 1 {
			x |= r.rows[i] << nAtoms
		}
		e := t.entries[s|x]
		s = e & t.smask
		r.store(st, i, e>>t.outShift, nstored)
	}
}

// store writes a stage's packed outputs at position i: the stored bits into
// the row (of at most one word), the last bit as the formula's value in the
// final stage.
func (r *runner) store(st *stage, i int, out uint64, nstored uint) {
	if nstored > 0 {
		r.rows[i] |= (out & (1<<nstored - 1)) << uint(st.base)
	}
	if st.final {
		r.result(i, out>>nstored&1 == 1)
	}
}
