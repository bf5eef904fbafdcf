package synth

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// AIG is an and-inverter graph in the AIGER format's terms (version 1.9's
// header without the B, C, J and F sections): variable 0 is the constant
// false, literal 2v+1 is the negation of literal 2v, inputs are variables
// 1…I, latches I+1…I+L and and-gates I+L+1…M in that order, every gate
// after its operands. Latches start at 0.
//
// As a controller, following SYNTCOMP's conventions, the inputs are the
// environment's variables and the outputs the system's, one per bit: a
// Boolean variable's bit is named after it, bit b of an integer variable
// "name@b" (its value minus its lower bound, least significant bit 0).
type AIG struct {
	MaxVar  int
	Inputs  int       // variables 1…Inputs
	Latches []AIGNext // variable Inputs+1+i is latch i
	Outputs []uint32  // literals
	Ands    []AIGAnd  // variable Inputs+len(Latches)+1+i is Ands[i]

	InputNames, LatchNames, OutputNames []string
	Comment                             string
}

// AIGNext is a latch's next-state literal.
type AIGNext struct{ Next uint32 }

// AIGAnd is an and-gate: the conjunction of two literals.
type AIGAnd struct{ A, B uint32 }

// aigBuilder builds an AIG with structural hashing.
type aigBuilder struct {
	a    *AIG
	ands map[[2]uint32]uint32
}

// and returns a literal for x ∧ y, simplifying constants and reusing gates.
func (b *aigBuilder) and(x, y uint32) uint32 {
	switch {
	case x == 0 || y == 0 || x == y^1:
		return 0
	case x == 1 || x == y:
		return y
	case y == 1:
		return x
	}
	if x < y {
		x, y = y, x
	}
	k := [2]uint32{x, y}
	if l, ok := b.ands[k]; ok {
		return l
	}
	b.a.Ands = append(b.a.Ands, AIGAnd{x, y})
	l := uint32(2 * (b.a.Inputs + len(b.a.Latches) + len(b.a.Ands)))
	b.ands[k] = l
	return l
}

func (b *aigBuilder) or(x, y uint32) uint32 { return b.and(x^1, y^1) ^ 1 }

// ite returns c ? t : e.
func (b *aigBuilder) ite(c, t, e uint32) uint32 {
	switch {
	case t == e:
		return t
	case t == 1 && e == 0:
		return c
	case t == 0 && e == 1:
		return c ^ 1
	}
	return b.or(b.and(c, t), b.and(c^1, e))
}

// AIG returns the circuit as an and-inverter graph: one AIG input per input
// bit, a latch per Circuit latch plus a last latch "#started" (0 in the
// first step), one output per output bit, and up to three and-gates per
// decision node (fewer where a child is constant or nodes coincide).
func (c *Circuit) AIG() (*AIG, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	nIn, nL := len(c.InputBits), len(c.Latches)+1
	a := &AIG{Inputs: nIn, Latches: make([]AIGNext, nL), Comment: fmt.Sprintf("controller for %s, synthesized by henceforth's synth package", c.Name)}
	b := &aigBuilder{a: a, ands: map[[2]uint32]uint32{}}
	sig := make([]uint32, len(c.Latches)+nIn)
	for l := range c.Latches {
		sig[l] = uint32(2 * (nIn + 1 + l))
		a.LatchNames = append(a.LatchNames, c.Latches[l].aigName())
	}
	a.LatchNames = append(a.LatchNames, "#started")
	started := uint32(2 * (nIn + nL))
	for i, bit := range c.InputBits {
		sig[len(c.Latches)+i] = uint32(2 * (i + 1))
		a.InputNames = append(a.InputNames, c.inputName(bit))
	}
	// Literals of the decision nodes, made on demand per step kind (the
	// same node is one gate whichever roots share it).
	lit := make([]uint32, len(c.Nodes)+2)
	lit[0], lit[1] = 0, 1
	for i, n := range c.Nodes {
		lit[i+2] = b.ite(sig[n.Signal], lit[n.Hi], lit[n.Lo])
	}
	computed := make([]uint32, len(c.ComputedBits))
	for k := range c.ComputedBits {
		computed[k] = b.ite(started, lit[c.Step.Computed[k]], lit[c.Init.Computed[k]])
	}
	for l, x := range c.Next {
		if x >= 0 {
			a.Latches[l].Next = sig[x]
		} else {
			a.Latches[l].Next = computed[-x-1]
		}
	}
	a.Latches[nL-1].Next = 1
	nOut := bitCount(c.Outputs)
	for k := range nOut {
		a.Outputs = append(a.Outputs, computed[k])
		a.OutputNames = append(a.OutputNames, c.outputName(c.ComputedBits[k]))
	}
	a.MaxVar = nIn + nL + len(a.Ands)
	return a, nil
}

func (b CircuitBit) aigName() string { return b.String() }

// inputName is SYNTCOMP's name for an input bit: the variable's name for a
// Boolean, name@b for a bit of an integer.
func (c *Circuit) inputName(b CircuitBit) string { return aigBitName(c.Inputs, b) }

func (c *Circuit) outputName(b CircuitBit) string { return aigBitName(c.Outputs, b) }

func aigBitName(vars []Var, b CircuitBit) string {
	for _, v := range vars {
		if v.Name == b.Var && v.Bool {
			return v.Name
		}
	}
	return b.String()
}

// NumAnds returns the number of and-gates.
func (a *AIG) NumAnds() int { return len(a.Ands) }

// WriteAAG writes the graph in the ASCII AIGER format (.aag).
func (a *AIG) WriteAAG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "aag %d %d %d %d %d\n", a.MaxVar, a.Inputs, len(a.Latches), len(a.Outputs), len(a.Ands))
	for i := range a.Inputs {
		fmt.Fprintf(bw, "%d\n", 2*(i+1))
	}
	for l, x := range a.Latches {
		fmt.Fprintf(bw, "%d %d\n", 2*(a.Inputs+1+l), x.Next)
	}
	for _, o := range a.Outputs {
		fmt.Fprintf(bw, "%d\n", o)
	}
	for i, g := range a.Ands {
		fmt.Fprintf(bw, "%d %d %d\n", 2*(a.Inputs+len(a.Latches)+1+i), g.A, g.B)
	}
	a.writeSymbols(bw)
	return bw.Flush()
}

// WriteAIG writes the graph in the binary AIGER format (.aig): inputs and
// latches implicit, and-gates as two delta-encoded differences.
func (a *AIG) WriteAIG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "aig %d %d %d %d %d\n", a.MaxVar, a.Inputs, len(a.Latches), len(a.Outputs), len(a.Ands))
	for _, x := range a.Latches {
		fmt.Fprintf(bw, "%d\n", x.Next)
	}
	for _, o := range a.Outputs {
		fmt.Fprintf(bw, "%d\n", o)
	}
	for i, g := range a.Ands {
		lhs := uint32(2 * (a.Inputs + len(a.Latches) + 1 + i))
		putDelta(bw, lhs-g.A)
		putDelta(bw, g.A-g.B)
	}
	a.writeSymbols(bw)
	return bw.Flush()
}

func putDelta(w *bufio.Writer, x uint32) {
	for x&^0x7f != 0 {
		w.WriteByte(byte(x&0x7f | 0x80))
		x >>= 7
	}
	w.WriteByte(byte(x))
}

func (a *AIG) writeSymbols(w *bufio.Writer) {
	for i, n := range a.InputNames {
		fmt.Fprintf(w, "i%d %s\n", i, n)
	}
	for i, n := range a.LatchNames {
		fmt.Fprintf(w, "l%d %s\n", i, n)
	}
	for i, n := range a.OutputNames {
		fmt.Fprintf(w, "o%d %s\n", i, n)
	}
	if a.Comment != "" {
		fmt.Fprintf(w, "c\n%s\n", strings.ReplaceAll(a.Comment, "\n", " "))
	}
}
