package monitor

import (
	"fmt"
	"math/bits"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file is the compiled form both DP engines (past.go, future.go)
// share: a formula DAG becomes a flat program of instructions over a
// byte-per-value register file, one slot per subformula plus one per
// "previous value of the operand" bit. A program is run once per event: forward over the trace for past operators, backward
// for future ones (future.go). Past and future operators pair up on the
// same instructions: Y/X read the operand's value at the neighbouring
// position; O/F, H/G, S/U (and B/W) accumulate their own value; the
// direction is only a matter of which way the trace is fed and how the
// state is initialized.

// opcode is what one instruction computes. v is the instruction's
// destination slot, a and b its operand slots, s a state slot.
type opcode uint8

const (
	opConst    opcode = iota // v = a (0 or 1)
	opAtom                   // v = bit a of the letter
	opInput                  // v = bit b of aux[a] (past roots inside a Future)
	opLookup                 // v = bit (letter bits pos[0..n-1], gathered) of tt
	opCopy                   // v = vals[a]; initializes a state slot on the first step
	opNot                    // v = !a
	opAnd                    // v = a && b
	opOr                     // v = a || b
	opXor                    // v = a != b
	opImplies                // v = !a || b
	opIff                    // v = a == b
	opPrev                   // v = vals[s]; vals[s] = a          (Y Z; X N)
	opStart                  // v = a && !vals[s]; vals[s] = a    (start)
	opEnd                    // v = !a && vals[s]; vals[s] = a    (end)
	opAccumOr                // v = a || v                        (O; F)
	opAccumAnd               // v = a && v                        (H; G)
	opSince                  // v = b || (a && v)                 (S B; U W)
	opRelease                // v = b && (a || v)                 (R M)
	opInterval               // v = (v || a) && !b                ([)s [)w)
)

// maxLookupAtoms is the most atoms a propositional subtree may have to run
// as one truth-table instruction (a uint64 holds the table).
const maxLookupAtoms = 6

// instr is one instruction. Self-accumulating operators (O H S B and the
// intervals; F G U W R M) keep their state in their own slot v, which
// nothing else writes; the neighbour operators (Y Z start end; X N) keep the
// operand's value at the previous step in slot s.
type instr struct {
	op   opcode
	n    uint8 // opLookup: number of gathered atoms
	pos  [maxLookupAtoms]uint8
	v    uint32
	a, b uint32
	s    uint32
	tt   uint64
}

// program is a compiled formula DAG. The register file vals persists from
// step to step; init is its value before the first step. first runs on the
// first step instead of code (nil: code): it initializes the "stationary"
// state bits of the past-time paper and, backward, the empty suffix of the
// future-time paper. state lists the slots that carry information from one
// step to the next, in the order of the bits of a tabulated state.
type program struct {
	atoms []string
	code  []instr
	first []instr
	init  []uint8
	state []uint32
	slot  map[ltl.Formula]uint32 // slot of every compiled subformula
}

// direction is which way a program reads the trace.
type direction uint8

const (
	dirForward  direction = iota // past operators: position i after i-1
	dirBackward                  // future operators: position i after i+1
)

// compiler turns formulas into a program.
type compiler struct {
	sem      ltl.Semantics
	dir      direction
	collapse bool                   // run propositional subtrees as truth tables
	atomPos  map[string]int         // letter bit of each atom
	inputs   map[ltl.Formula][2]int // opInput operands of formulas given as inputs
	p        *program
	lookup   map[ltl.Formula]bool     // nodes compiled to one opLookup
	atomSets map[ltl.Formula]uint64   // letter bits a propositional node reads
	needed   map[ltl.Formula]struct{} // nodes that get an instruction
}

// compile builds the program computing roots (and all the subformulas they
// need); order is topoOrder(roots), or nil to compute it. Formulas in
// inputs are not compiled: they read a bit of the auxiliary input instead.
// The caller has checked that every atom is in atoms and that the roots fit
// the direction: no future operator forward, no past operator backward
// except inside inputs. collapse runs propositional subtrees as single
// truth-table instructions; without it every subformula has a slot.
func compile(sem ltl.Semantics, dir direction, collapse bool, atoms []string,
	inputs map[ltl.Formula][2]int, roots, order []ltl.Formula) *program {
	c := &compiler{
		sem: sem, dir: dir, collapse: collapse, inputs: inputs,
		atomPos:  map[string]int{},
		p:        &program{atoms: atoms, slot: map[ltl.Formula]uint32{}},
		lookup:   map[ltl.Formula]bool{},
		atomSets: map[ltl.Formula]uint64{},
		needed:   map[ltl.Formula]struct{}{},
	}
	for i, a := range atoms {
		c.atomPos[a] = i
	}
	if order == nil {
		order = topoOrder(roots)
	}
	c.markNeeded(order, roots)
	hasFirst := false
	for _, f := range order {
		if _, ok := c.needed[f]; ok {
			hasFirst = c.emit(f) || hasFirst
		}
	}
	if !hasFirst {
		c.p.first = nil
	}
	return c.p
}

// topoOrder returns the distinct subformulas of roots, operands before the
// formulas that use them.
func topoOrder(roots []ltl.Formula) []ltl.Formula {
	if len(roots) == 1 {
		return roots[0].Subformulas()
	}
	seen := map[ltl.Formula]bool{}
	var order []ltl.Formula
	for _, r := range roots {
		for _, f := range r.Subformulas() {
			if !seen[f] {
				seen[f] = true
				order = append(order, f)
			}
		}
	}
	return order
}

// markNeeded decides which nodes get an instruction: the roots, and the
// operands of every needed node that is neither an input nor a collapsed
// propositional subtree. It walks parents before operands.
func (c *compiler) markNeeded(order, roots []ltl.Formula) {
	for _, f := range order {
		if !c.isPropositional(f) {
			continue
		}
		set := c.atomSets[f]
		c.lookup[f] = c.collapse && f.Op().Arity() > 0 && bits.OnesCount64(set) <= maxLookupAtoms
	}
	for _, r := range roots {
		c.needed[r] = struct{}{}
	}
	for i := len(order) - 1; i >= 0; i-- {
		f := order[i]
		if _, ok := c.needed[f]; !ok {
			continue
		}
		if _, ok := c.inputs[f]; ok || c.lookup[f] {
			continue
		}
		for k := range f.Op().Arity() {
			c.needed[operand(f, k)] = struct{}{}
		}
	}
}

// isPropositional reports whether f has no temporal operator, recording
// the letter bits of its atoms in c.atomSets. Operands must have been
// visited.
func (c *compiler) isPropositional(f ltl.Formula) bool {
	if !f.Op().IsBoolean() {
		return false
	}
	var set uint64
	if f.Op() == ltl.OpAtom {
		set = 1 << uint(c.atomPos[f.Name()])
	}
	for k := range f.Op().Arity() {
		s, ok := c.atomSets[operand(f, k)]
		if !ok {
			return false
		}
		set |= s
	}
	c.atomSets[f] = set
	return true
}

// newSlot allocates a register with the given initial value.
func (c *compiler) newSlot(init uint8) uint32 {
	c.p.init = append(c.p.init, init)
	return uint32(len(c.p.init) - 1)
}

// emit appends f's instruction to code and first. It reports whether first
// differs from code.
func (c *compiler) emit(f ltl.Formula) bool {
	var a, b uint32
	if n := f.Op().Arity(); n > 0 && !c.lookup[f] && !isInput(c.inputs, f) {
		a = c.p.slot[f.Left()]
		if n == 2 {
			b = c.p.slot[f.Right()]
		}
	}
	in := instr{a: a, b: b}
	var first []instr // replaces in on the first step, if set
	selfInit := uint8(0)
	state := false // in.v carries state (self-accumulating)
	prevInit := -1 // >= 0: allocate a previous-value slot with this init
	stationary := false
	weak := uint8(0) // 1 for the weak variant of an operator pair

	switch op := f.Op(); {
	case !isInput(c.inputs, f) && (op.IsPast() && c.dir != dirForward || op.IsFuture() && c.dir != dirBackward):
		panic(fmt.Sprintf("monitor: internal error: %v compiled in the wrong direction", op))
	case isInput(c.inputs, f):
		ref := c.inputs[f]
		in.op, in.a, in.b = opInput, uint32(ref[0]), uint32(ref[1])
	case c.lookup[f]:
		in.op = opLookup
		set := c.atomSets[f]
		for set != 0 {
			k := bits.TrailingZeros64(set)
			in.pos[in.n] = uint8(k)
			in.n++
			set &^= 1 << uint(k)
		}
		in.tt = truthTable(f, in.pos[:in.n], c.atomPos)
	case op == ltl.OpTrue:
		in.op, in.a = opConst, 1
	case op == ltl.OpFalse:
		in.op, in.a = opConst, 0
	case op == ltl.OpAtom:
		in.op, in.a = opAtom, uint32(c.atomPos[f.Name()])
	case op == ltl.OpNot:
		in.op = opNot
	case op == ltl.OpAnd:
		in.op = opAnd
	case op == ltl.OpOr:
		in.op = opOr
	case op == ltl.OpXor:
		in.op = opXor
	case op == ltl.OpImplies:
		in.op = opImplies
	case op == ltl.OpIff:
		in.op = opIff

	// Forward: the past operators. Their value at the first position is
	// the paper's table (dp_ltl.md §1.2), with Y and Z false/true there
	// under LTLf and stationary under RosuHavelund.
	case op == ltl.OpYesterday || op == ltl.OpWeakYesterday:
		in.op = opPrev
		if op == ltl.OpWeakYesterday {
			weak = 1
		}
		prevInit = int(weak)
		stationary = c.sem == ltl.RosuHavelund
	case op == ltl.OpStart || op == ltl.OpEnd:
		in.op = opStart
		if op == ltl.OpEnd {
			in.op = opEnd
		}
		prevInit, stationary = 0, true
	case op == ltl.OpOnce || op == ltl.OpHistorically:
		in.op, state = opAccumOr, true
		if op == ltl.OpHistorically {
			in.op, selfInit = opAccumAnd, 1
		}
	case op == ltl.OpSince || op == ltl.OpWeakSince:
		in.op, state = opSince, true
		if op == ltl.OpWeakSince {
			selfInit = 1
		}
	case op == ltl.OpIntervalStrong || op == ltl.OpIntervalWeak:
		in.op, state = opInterval, true
		if op == ltl.OpIntervalWeak {
			selfInit = 1
		}

	// Backward: the future operators, started from the empty suffix. Under
	// LTLf the state before the last position is the empty suffix's value
	// (X false, N true; F U M false; G W R true), so the last position needs
	// no special code and X never sees its operand beyond the end. Under
	// RosuHavelund the empty suffix is a real row, run by first, where G, W
	// and R are true outright.
	case op == ltl.OpNext || op == ltl.OpWeakNext:
		in.op = opPrev
		if op == ltl.OpWeakNext {
			weak = 1
		}
		prevInit = int(weak)
	case op == ltl.OpEventually || op == ltl.OpAlways:
		in.op, state = opAccumOr, true
		if op == ltl.OpAlways {
			in.op, selfInit, weak = opAccumAnd, 1, 1
		}
	case op == ltl.OpUntil || op == ltl.OpWeakUntil:
		in.op, state = opSince, true
		if op == ltl.OpWeakUntil {
			selfInit, weak = 1, 1
		}
	case op == ltl.OpRelease || op == ltl.OpStrongRelease:
		in.op, state = opRelease, true
		if op == ltl.OpRelease {
			selfInit, weak = 1, 1
		}
	default:
		panic(fmt.Sprintf("monitor: internal error: cannot compile %v", op))
	}

	in.v = c.newSlot(selfInit)
	c.p.slot[f] = in.v
	if state {
		c.p.state = append(c.p.state, in.v)
		if c.dir == dirBackward && c.sem == ltl.RosuHavelund && weak == 1 {
			// G, W, R on the empty suffix: true, whatever the operands.
			first = []instr{{op: opConst, v: in.v, a: 1}}
		}
	}
	if prevInit >= 0 {
		in.s = c.newSlot(uint8(prevInit))
		c.p.state = append(c.p.state, in.s)
		if stationary {
			// The past before the first event is taken to be stationary:
			// the operand's previous value is its first value.
			first = []instr{{op: opCopy, v: in.s, a: in.a}, in}
		}
	}
	c.p.code = append(c.p.code, in)
	if first != nil {
		c.p.first = append(c.p.first, first...)
		return true
	}
	c.p.first = append(c.p.first, in)
	return false
}

// operand returns f's k-th operand (0 or 1).
func operand(f ltl.Formula, k int) ltl.Formula {
	if k == 0 {
		return f.Left()
	}
	return f.Right()
}

func isInput(inputs map[ltl.Formula][2]int, f ltl.Formula) bool {
	_, ok := inputs[f]
	return ok
}

// truthTable returns bit x = value of the propositional formula f when the
// atom at letter bit pos[j] has value bit j of x. It evaluates all 64 rows
// at once, one bit per row.
func truthTable(f ltl.Formula, pos []uint8, atomPos map[string]int) uint64 {
	// column[j] has bit x set when bit j of x is set.
	var column [maxLookupAtoms]uint64
	for j := range column {
		for x := 0; x < 64; x++ {
			if x>>uint(j)&1 == 1 {
				column[j] |= 1 << uint(x)
			}
		}
	}
	local := map[int]int{}
	for j, p := range pos {
		local[int(p)] = j
	}
	val := map[ltl.Formula]uint64{}
	for _, g := range f.Subformulas() {
		if g.Op() == ltl.OpAtom {
			val[g] = column[local[atomPos[g.Name()]]]
		} else {
			val[g] = applyBoolean(g.Op(), val[g.Left()], val[g.Right()])
		}
	}
	return val[f]
}

// applyBoolean applies a Boolean connective (or constant) to operand
// values given as bit vectors, bitwise: all ones is true. Other operators
// give 0.
func applyBoolean(op ltl.Op, l, r uint64) uint64 {
	switch op {
	case ltl.OpTrue:
		return ^uint64(0)
	case ltl.OpNot:
		return ^l
	case ltl.OpAnd:
		return l & r
	case ltl.OpOr:
		return l | r
	case ltl.OpXor:
		return l ^ r
	case ltl.OpImplies:
		return ^l | r
	case ltl.OpIff:
		return ^(l ^ r)
	}
	return 0
}

// exec runs code for one step on the register file vals, with letter the
// atoms' values at this position and aux the inputs' words.
func exec(code []instr, vals []uint8, letter uint64, aux []uint64) {
	for i := range code {
		in := &code[i]
		switch in.op {
		case opConst:
			vals[in.v] = uint8(in.a)
		case opAtom:
			vals[in.v] = uint8(letter >> in.a & 1)
		case opInput:
			vals[in.v] = uint8(aux[in.a] >> in.b & 1)
		case opLookup:
			var x uint
			for j := uint8(0); j < in.n; j++ {
				x |= uint(letter>>in.pos[j]&1) << j
			}
			vals[in.v] = uint8(in.tt >> x & 1)
		case opCopy:
			vals[in.v] = vals[in.a]
		case opNot:
			vals[in.v] = vals[in.a] ^ 1
		case opAnd:
			vals[in.v] = vals[in.a] & vals[in.b]
		case opOr:
			vals[in.v] = vals[in.a] | vals[in.b]
		case opXor:
			vals[in.v] = vals[in.a] ^ vals[in.b]
		case opImplies:
			vals[in.v] = (vals[in.a] ^ 1) | vals[in.b]
		case opIff:
			vals[in.v] = vals[in.a] ^ vals[in.b] ^ 1
		case opPrev:
			vals[in.v] = vals[in.s]
			vals[in.s] = vals[in.a]
		case opStart:
			x := vals[in.a]
			vals[in.v] = x &^ vals[in.s]
			vals[in.s] = x
		case opEnd:
			x := vals[in.a]
			vals[in.v] = vals[in.s] &^ x
			vals[in.s] = x
		case opAccumOr:
			vals[in.v] |= vals[in.a]
		case opAccumAnd:
			vals[in.v] &= vals[in.a]
		case opSince:
			vals[in.v] = vals[in.b] | (vals[in.a] & vals[in.v])
		case opRelease:
			vals[in.v] = vals[in.b] & (vals[in.a] | vals[in.v])
		case opInterval:
			vals[in.v] = (vals[in.v] | vals[in.a]) &^ vals[in.b]
		}
	}
}
