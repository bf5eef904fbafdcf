package monitor

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file is the past-time DP monitor (Havelund–Roşu): the program of
// compile.go run forward, one event at a time, by a table lookup
// (steptable.go), the word machine (past_word.go) or the instruction
// interpreter.

// Past is the past-time DP monitor: it computes online, in constant memory
// and O(m) time per event, the values of one or more propositional or pure
// past formulas (its roots) at each position of a trace fed to it event by
// event. When the formulas are small (state bits plus atoms at most 14) the
// step is a single table lookup built at construction; otherwise, from the
// second event on, it runs the word machine (see wordProgram), a few
// tabulated groups of subformulas, or, beyond 31 atoms and materialized
// subformulas, the instruction interpreter.
//
// Under ltl.LTLf, Y is false and Z true at the first position; under
// ltl.RosuHavelund both equal their operand there (the paper's stationary
// past). start and end are false at the first position in both. A Past is
// not safe for concurrent use.
type Past struct {
	prog  *program
	roots []ltl.Formula
	outs  []uint32 // slot of each root
	table *stepTable
	vals  []uint8 // the registers, when stepping interpreted
	n     int

	// The word machine, in use from the second event on when word is not
	// nil (and table is nil): w is its register word.
	word *wordProgram
	w    uint64

	// The tabulated step, in use from the second event on when table is
	// not nil: fast is set then, and state holds the packed registers in
	// place in a table index (see stepTable).
	fast     bool
	state    uint64
	entries  []uint64
	inMask   uint64
	smask    uint64
	outShift uint8
}

// NewPast returns a monitor of roots under sem. It is an error for a root to
// be zero or to use a future operator, for there to be more than 64 roots,
// or for the roots to have more than MaxAtoms distinct atoms.
func NewPast(sem ltl.Semantics, roots ...ltl.Formula) (*Past, error) {
	return newPast(sem, true, roots)
}

// NewPastInterpreted is NewPast without the tabulated step function: every
// event runs the interpreter (the word machine, or the instruction
// interpreter for the first event and for formulas too big for a word), as
// NewPast does for formulas too big to tabulate. It exists to measure the
// interpreter (and to check it against the table); the verdicts are the
// same.
func NewPastInterpreted(sem ltl.Semantics, roots ...ltl.Formula) (*Past, error) {
	return newPast(sem, false, roots)
}

func newPast(sem ltl.Semantics, allowTable bool, roots []ltl.Formula) (*Past, error) {
	if len(roots) == 0 {
		return nil, fmt.Errorf("monitor: past-time monitor: no formula")
	}
	if len(roots) > 64 {
		return nil, fmt.Errorf("monitor: past-time monitor: %d formulas; at most 64 per monitor", len(roots))
	}
	for i, r := range roots {
		if r.IsZero() {
			return nil, fmt.Errorf("monitor: past-time monitor: formula %d is invalid (zero)", i)
		}
	}
	order := topoOrder(roots)
	for _, g := range order {
		if g.Op().IsFuture() {
			r := rootUsing(roots, g)
			return nil, fmt.Errorf("monitor: past-time monitor: %s uses the future operator %s; the past-time DP takes propositional and past formulas only", r, g.Op())
		}
	}
	atoms, err := atomsOf(order)
	if err != nil {
		return nil, fmt.Errorf("monitor: past-time monitor: %w", err)
	}
	roots = slices.Clone(roots)
	p := compile(sem, dirForward, true, atoms, nil, roots, order)
	outs := make([]uint32, len(roots))
	for i, r := range roots {
		outs[i] = p.slot[r]
	}
	m := &Past{roots: roots}
	if allowTable {
		m.table = tabulate(p, len(atoms), len(atoms), outs)
	}
	if m.table == nil {
		// The word machine needs every subformula's value after the
		// first step, so that step runs a program without collapsed
		// subtrees.
		full := compile(sem, dirForward, false, atoms, nil, roots, order)
		if m.word = compileWord(full, roots, order); m.word != nil {
			p = full
			for i, r := range roots {
				outs[i] = p.slot[r]
			}
		}
	}
	m.prog, m.outs, m.vals = p, outs, make([]uint8, len(p.init))
	m.Reset()
	return m, nil
}

// rootUsing returns the first of roots that has g as a subformula.
func rootUsing(roots []ltl.Formula, g ltl.Formula) ltl.Formula {
	for _, r := range roots {
		for _, h := range topoOrder([]ltl.Formula{r}) {
			if h == g {
				return r
			}
		}
	}
	return roots[0]
}

// atomsOf returns the sorted distinct atoms of formulas (all the
// subformulas of some formulas, as topoOrder returns them), at most
// MaxAtoms.
func atomsOf(order []ltl.Formula) ([]string, error) {
	var atoms []string
	for _, g := range order {
		if g.Op() == ltl.OpAtom {
			atoms = append(atoms, g.Name())
		}
	}
	slices.Sort(atoms)
	atoms = slices.Compact(atoms)
	if len(atoms) > MaxAtoms {
		return nil, fmt.Errorf("%d distinct atoms; a monitor watches at most %d", len(atoms), MaxAtoms)
	}
	return atoms, nil
}

// Atoms is the monitor's input vocabulary, sorted: bit i of a Letter given
// to Step is the value of Atoms()[i]. The caller must not modify it.
func (m *Past) Atoms() []string { return m.prog.atoms }

// Roots returns the formulas the monitor computes, in output bit order. The
// caller must not modify it.
func (m *Past) Roots() []ltl.Formula { return m.roots }

// Len is the number of events seen since construction or Reset.
func (m *Past) Len() int { return m.n }

// Reset forgets all events.
func (m *Past) Reset() {
	copy(m.vals, m.prog.init)
	m.n = 0
	m.fast = false
	m.state = 0
	m.w = 0
}

// Step advances the monitor by one event at which the atoms of in hold (bits
// beyond len(Atoms()) are ignored) and returns the roots' values at that
// position: bit i is the value of the i-th root. It does not allocate.
func (m *Past) Step(in Letter) Letter {
	if m.fast {
		e := m.entries[m.state|uint64(in)&m.inMask]
		m.state = e & m.smask
		m.n++
		return Letter(e >> m.outShift)
	}
	wp := m.word
	if wp == nil || m.n == 0 {
		return m.stepInterpreted(in)
	}
	// The word machine (see wordProgram), inlined here: a call per event
	// is a sizeable share of its time.
	w := m.w<<wordHalf | uint64(in)&wp.letterMask
	for i := range wp.code {
		c := &wp.code[i]
		x := (bits.RotateLeft64(w, int(c.rot[0]))&1 | bits.RotateLeft64(w, int(c.rot[1]))&2) |
			(bits.RotateLeft64(w, int(c.rot[2]))&4 | bits.RotateLeft64(w, int(c.rot[3]))&8) |
			(bits.RotateLeft64(w, int(c.rot[4]))&16 | bits.RotateLeft64(w, int(c.rot[5]))&32) |
			(bits.RotateLeft64(w, int(c.rot[6]))&64 | bits.RotateLeft64(w, int(c.rot[7]))&128)
		w |= c.tab[x]
	}
	m.w = w
	m.n++
	if len(wp.outs) == 1 {
		return Letter(w >> (wp.outs[0] & 63) & 1)
	}
	return wp.outputs(w)
}

// stepInterpreted runs the instructions: on the first event (which has its
// own program), and on every event when there is neither a table nor a
// word machine.
func (m *Past) stepInterpreted(in Letter) Letter {
	code := m.prog.code
	if m.n == 0 && m.prog.first != nil {
		code = m.prog.first
	}
	exec(code, m.vals, uint64(in), nil)
	m.n++
	if m.word != nil {
		m.w = m.word.seedWord(m.vals, in)
	}
	if t := m.table; t != nil {
		m.fast = true
		m.state = packState(m.prog, m.vals) << t.inBits
		m.entries, m.inMask, m.smask, m.outShift = t.entries, t.inMask, t.smask, uint8(t.outShift)
	}
	if len(m.outs) == 1 {
		return Letter(m.vals[m.outs[0]])
	}
	return Letter(packOutputs(m.vals, m.outs))
}
