package monitor

import (
	"slices"

	"github.com/henceforth-go/henceforth/ltl"
)

// The word machine: how the interpreter steps once the first event is
// past, when the formula is too big to tabulate. The register file is one
// uint64 w: its low half ("now") holds the values at the current position
// of the atoms (bits 0…len(atoms)-1) and of some compiled subformulas (the
// materialized ones, from len(atoms) up); its high half ("pre") holds the
// same bits at the previous position. A step shifts now into pre, loads
// the letter, and runs a list of luts, each of which sets one now bit to a
// Boolean function of at most six bits of w, given as a truth table. Every
// operator's value at a position after the first is such a function of
// the now and pre bits (start(a) = a && !pre a; a S b = b || a && pre(a S
// b); …), so whole subtrees, temporal operators included, run as one lut:
// a subformula is materialized (gets a bit and a lut) only when a
// self-accumulating operator needs its own previous value, when its
// previous value cannot be computed from pre bits, when it is a root, or
// when inlining it would give a lut more than six inputs. Consecutive luts
// then run as one instruction, a lutGroup: a table indexed by the (at most
// eight) bits they read from outside the group, holding the bits they
// write; for start(p) -> [q, end(r | s)) that is one lookup per event. The
// first step,
// whose conventions differ by operator and semantics, runs the instruction
// interpreter on a program with a slot per subformula, whose registers then
// seed w.

// wordHalf is the number of now bits of a word machine.
const wordHalf = 32

// lut is a step of the word machine as compiled: w's now bit v becomes
// bit x of tt, where bit j of x is the bit of w at leaves[j]. Consecutive
// luts run together as one group (see lutGroup).
type lut struct {
	leaves []uint8
	v      uint8
	tt     uint64
}

// eval returns c's bit given w.
func (c *lut) eval(w uint64) uint64 {
	var x uint
	for j, a := range c.leaves {
		x |= uint(w>>a&1) << uint(j)
	}
	return c.tt >> x & 1
}

// groupInputs is the most bits of w a lutGroup reads.
const groupInputs = 8

// zeroBit is a now bit that is always 0 (never allocated): the input of a
// lutGroup's unused positions.
const zeroBit = wordHalf - 1

// lutGroup is one instruction of the word machine: consecutive luts whose
// inputs from outside the group are at most groupInputs bits of w,
// tabulated. It ORs tab[x] into w, where bit j of x is bit j of w rotated
// left by rot[j]; tab holds the group's now bits and nothing else.
type lutGroup struct {
	rot [groupInputs]uint8
	tab []uint64 // 1<<(number of inputs) entries
}

// wordProgram is a formula compiled for the word machine.
type wordProgram struct {
	code       []lutGroup
	letterMask uint64    // the atoms' bits of a letter
	outs       []uint8   // now bit of each root
	seed       []seedBit // the bits loaded from the registers after the first step
}

// seedBit is a materialized subformula's bit and its slot in the register
// file of the first-step program.
type seedBit struct {
	slot uint32
	bit  uint8
}

// boolFn is a Boolean function of at most maxLookupAtoms bits of w (its
// leaves: now bits below wordHalf, pre bits from wordHalf up): bit x of tt
// is its value when leaf j has the value of bit j of x.
//
// A function is timeless when it gives the subformula's value at the first
// position too: it has no temporal operator inlined (a materialized
// subformula is a leaf, seeded with its true first value). Only a timeless
// function's previous value is the same function of the pre bits: Y false
// inlines to false, but Z Y false is true at the first position.
type boolFn struct {
	leaves   []uint8
	tt       uint64
	temporal bool // not timeless
}

// identityTT is the truth table of the function equal to its leaf 0.
const identityTT = 0xAAAAAAAAAAAAAAAA

func leafFn(addr uint8) boolFn { return boolFn{leaves: []uint8{addr}, tt: identityTT} }

// isNowBit reports whether f is the value of a single now bit at every
// position, the first included, and which.
func (f boolFn) isNowBit() (uint8, bool) {
	if len(f.leaves) == 1 && f.tt == identityTT && f.leaves[0] < wordHalf && !f.temporal {
		return f.leaves[0], true
	}
	return 0, false
}

// pre returns f one position earlier: the same function of the pre bits.
// It fails when f is not timeless (see boolFn).
func (f boolFn) pre() (boolFn, bool) {
	if f.temporal {
		return boolFn{}, false
	}
	out := boolFn{leaves: make([]uint8, len(f.leaves)), tt: f.tt, temporal: true}
	for j, a := range f.leaves {
		out.leaves[j] = a + wordHalf
	}
	return out, true
}

// combine returns the function op(args[0], args[1], …), op given bitwise
// over up to three operands, or false when it would have more than
// maxLookupAtoms leaves.
func combine(args []boolFn, op func(v [3]uint64) uint64) (boolFn, bool) {
	var leaves []uint8
	temporal := false
	for _, a := range args {
		temporal = temporal || a.temporal
		for _, l := range a.leaves {
			if !slices.Contains(leaves, l) {
				leaves = append(leaves, l)
			}
		}
	}
	if len(leaves) > maxLookupAtoms {
		return boolFn{}, false
	}
	// cols[k] has bit x set when operand k is true in row x.
	var cols [3]uint64
	for k, a := range args {
		for x := uint(0); x < 64; x++ {
			var idx uint
			for j, l := range a.leaves {
				idx |= (x >> uint(slices.Index(leaves, l)) & 1) << uint(j)
			}
			cols[k] |= (a.tt >> idx & 1) << x
		}
	}
	return boolFn{leaves: leaves, tt: op(cols), temporal: temporal}, true
}

// wordBuilder compiles formulas for the word machine.
type wordBuilder struct {
	p    *program // the first-step program, with a slot per subformula
	fn   map[ltl.Formula]boolFn
	next uint8 // the next free now bit
	luts []lut // in order of evaluation
	wp   *wordProgram
}

// compileWord compiles roots (order: topoOrder(roots)) for the word
// machine, given p, their program with a slot per subformula (compiled
// without collapse). It returns nil when they need more than wordHalf now
// bits.
func compileWord(p *program, roots, order []ltl.Formula) *wordProgram {
	if len(p.atoms) > zeroBit {
		return nil
	}
	b := &wordBuilder{p: p, fn: map[ltl.Formula]boolFn{}, next: uint8(len(p.atoms)), wp: &wordProgram{}}
	b.wp.letterMask = uint64(1)<<uint(len(p.atoms)) - 1
	atomBit := map[string]uint8{}
	for i, a := range p.atoms {
		atomBit[a] = uint8(i)
	}
	for _, f := range order {
		if f.Op() == ltl.OpAtom {
			b.fn[f] = leafFn(atomBit[f.Name()])
		} else if !b.build(f) {
			return nil
		}
	}
	for _, r := range roots {
		bit, ok := b.fn[r].isNowBit()
		if !ok {
			if !b.materialize(r) {
				return nil
			}
			bit, _ = b.fn[r].isNowBit()
		}
		b.wp.outs = append(b.wp.outs, bit)
	}
	b.wp.code = groupLUTs(b.luts)
	return b.wp
}

// materialize gives g a now bit and a lut computing it, unless it has one.
func (b *wordBuilder) materialize(g ltl.Formula) bool {
	if _, ok := b.fn[g].isNowBit(); ok {
		return true
	}
	bit, ok := b.alloc(g)
	if ok {
		b.emit(bit, b.fn[g])
		b.fn[g] = leafFn(bit)
	}
	return ok
}

// alloc reserves a now bit for g, seeded from g's slot after the first step.
func (b *wordBuilder) alloc(g ltl.Formula) (uint8, bool) {
	if b.next >= zeroBit {
		return 0, false
	}
	bit := b.next
	b.next++
	b.wp.seed = append(b.wp.seed, seedBit{slot: b.p.slot[g], bit: bit})
	return bit, true
}

func (b *wordBuilder) emit(bit uint8, f boolFn) {
	b.luts = append(b.luts, lut{leaves: f.leaves, v: bit, tt: f.tt})
}

// groupLUTs packs code into groups, greedily: a lut joins the group before
// it while the group's inputs (the bits its luts read that no lut of the
// group writes) stay at most groupInputs.
func groupLUTs(code []lut) []lutGroup {
	var groups []lutGroup
	for i := 0; i < len(code); {
		var inputs []uint8
		var written uint64 // the now bits of the group's luts
		j := i
		for ; j < len(code); j++ {
			more := inputs
			for _, a := range code[j].leaves {
				if written>>a&1 == 0 && !slices.Contains(more, a) {
					more = append(more, a)
				}
			}
			if len(more) > groupInputs {
				break
			}
			inputs = more
			written |= 1 << code[j].v
		}
		groups = append(groups, tabulateGroup(code[i:j], inputs, written))
		i = j
	}
	return groups
}

// tabulateGroup runs members on every value of their inputs.
func tabulateGroup(members []lut, inputs []uint8, written uint64) lutGroup {
	g := lutGroup{tab: make([]uint64, 1<<len(inputs))}
	for j := range g.rot {
		src := uint8(zeroBit)
		if j < len(inputs) {
			src = inputs[j]
		}
		g.rot[j] = uint8(j-int(src)) & 63
	}
	for x := range g.tab {
		var w uint64
		for j, a := range inputs {
			w |= uint64(x>>uint(j)&1) << a
		}
		for k := range members {
			w |= members[k].eval(w) << members[k].v
		}
		g.tab[x] = w & written
	}
	return g
}

// build computes f's function from its operands', materializing operands
// while the function has too many leaves, and materializes f itself when
// it reads its own previous value.
func (b *wordBuilder) build(f ltl.Formula) bool {
	op := f.Op()
	var self uint8 // f's bit, for the operators that accumulate
	accumulates := false
	switch op {
	case ltl.OpOnce, ltl.OpHistorically, ltl.OpSince, ltl.OpWeakSince,
		ltl.OpIntervalStrong, ltl.OpIntervalWeak:
		bit, ok := b.alloc(f)
		if !ok {
			return false
		}
		self, accumulates = bit, true
	}
	var operands []ltl.Formula
	for k := range op.Arity() {
		operands = append(operands, operand(f, k))
	}
	for {
		args, ok := b.args(op, operands, self)
		if !ok {
			return false
		}
		g, fits := combine(args, func(v [3]uint64) uint64 { return applyWord(op, v) })
		if fits {
			if accumulates {
				b.emit(self, g)
				g = leafFn(self)
			}
			b.fn[f] = g
			return true
		}
		// Materialize the operand with the most leaves; some operand
		// has more than one, or the function would fit.
		widest := -1
		for k, o := range operands {
			if _, done := b.fn[o].isNowBit(); !done && (widest < 0 || len(b.fn[o].leaves) > len(b.fn[operands[widest]].leaves)) {
				widest = k
			}
		}
		if widest < 0 || !b.materialize(operands[widest]) {
			return false
		}
	}
}

// args returns the functions op is applied to (see applyWord),
// materializing an operand whose previous value is needed and cannot be
// computed from pre bits.
func (b *wordBuilder) args(op ltl.Op, operands []ltl.Formula, self uint8) ([]boolFn, bool) {
	var args []boolFn
	for _, o := range operands {
		args = append(args, b.fn[o])
	}
	switch op {
	case ltl.OpYesterday, ltl.OpWeakYesterday, ltl.OpStart, ltl.OpEnd:
		prev, ok := args[0].pre()
		if !ok {
			if !b.materialize(operands[0]) {
				return nil, false
			}
			args[0] = b.fn[operands[0]]
			prev, _ = args[0].pre()
		}
		args = append(args, prev)
	case ltl.OpOnce, ltl.OpHistorically, ltl.OpSince, ltl.OpWeakSince,
		ltl.OpIntervalStrong, ltl.OpIntervalWeak:
		args = append(args, leafFn(self+wordHalf))
	}
	return args, true
}

// applyWord is op's value at a position after the first, bitwise, given
// the operands' values (v[0], v[1]) and, last, the previous value the
// operator reads: its operand's (Y Z start end) or its own (the rest).
func applyWord(op ltl.Op, v [3]uint64) uint64 {
	switch op {
	case ltl.OpYesterday, ltl.OpWeakYesterday:
		return v[1]
	case ltl.OpStart:
		return v[0] &^ v[1]
	case ltl.OpEnd:
		return v[1] &^ v[0]
	case ltl.OpOnce:
		return v[0] | v[1]
	case ltl.OpHistorically:
		return v[0] & v[1]
	case ltl.OpSince, ltl.OpWeakSince:
		return v[1] | v[0]&v[2]
	case ltl.OpIntervalStrong, ltl.OpIntervalWeak:
		return (v[2] | v[0]) &^ v[1]
	}
	return applyBoolean(op, v[0], v[1])
}

// seedWord returns the word after the first step: the letter's atoms and
// the materialized subformulas' values in the registers, as now bits.
func (wp *wordProgram) seedWord(vals []uint8, in Letter) uint64 {
	w := uint64(in) & wp.letterMask
	for _, s := range wp.seed {
		w |= uint64(vals[s.slot]) << s.bit
	}
	return w
}

// outputs returns the roots' values in w's now half, bit j the j-th
// root's.
func (wp *wordProgram) outputs(w uint64) Letter {
	var o Letter
	for j, b := range wp.outs {
		o |= Letter(w>>(b&63)&1) << uint(j)
	}
	return o
}
