// Package monitor owns henceforth's runtime-verification engines built on
// dynamic programming — the Havelund–Roşu past-time monitor (forward, online,
// constant memory) and the Roşu–Havelund future-time monitor (backward over a
// stored trace) — the Go code generator for monitors, explanations of
// verdicts, and the types every engine shares: recorded traces, letters
// (valuations of a monitor's atoms) and verdicts.
//
// To check a formula on a recorded trace, call automaton.Check: it runs
// every engine (Options.Engine) — this package's DP engines, the reference
// evaluator and the minimal DFA of package automaton, which imports this
// one — and explains a failed verdict. Past and Future are the engines
// themselves, for online use and for generated code.
package monitor

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

// MaxAtoms is the number of distinct atoms one monitor can watch: a Letter
// has one bit per atom.
const MaxAtoms = 64

// A Letter is a valuation of a monitor's atoms: bit i is set when the i-th
// atom of the monitor's Atoms() holds.
type Letter uint64

// Has reports whether atom i holds in l.
func (l Letter) Has(i int) bool { return l&(1<<uint(i)) != 0 }

// Trace is a recorded finite trace: a sequence of positions, each with the
// set of atoms that hold there, over a vocabulary of atom names that grows as
// atoms are first seen. An atom not in the vocabulary holds nowhere. Trace
// implements ltl.Trace. The zero Trace is empty and ready to use; a Trace is
// not safe for concurrent use.
type Trace struct {
	atoms []string
	index map[string]int
	words int      // uint64 words per position
	bits  []uint64 // position i occupies bits[i*words : (i+1)*words]
	n     int
}

// NewTrace returns an empty trace whose vocabulary starts with atoms, in that
// order (duplicates are ignored).
func NewTrace(atoms ...string) *Trace {
	t := &Trace{}
	for _, a := range atoms {
		t.atomIndex(a)
	}
	return t
}

// Len is the number of positions.
func (t *Trace) Len() int { return t.n }

// Atoms returns the vocabulary in the order atoms were first seen. The caller
// must not modify it.
func (t *Trace) Atoms() []string { return t.atoms }

// Holds reports whether atom holds at position i.
func (t *Trace) Holds(i int, atom string) bool {
	k, ok := t.index[atom]
	if !ok || i < 0 || i >= t.n {
		return false
	}
	return t.bits[i*t.words+k/64]&(1<<uint(k%64)) != 0
}

// At returns the atoms that hold at position i, in vocabulary order.
func (t *Trace) At(i int) []string {
	var out []string
	row := t.bits[i*t.words : (i+1)*t.words]
	for w, word := range row {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			out = append(out, t.atoms[w*64+b])
			word &^= 1 << uint(b)
		}
	}
	return out
}

// Append adds a position at which exactly the given atoms hold.
func (t *Trace) Append(atoms ...string) {
	ks := make([]int, len(atoms))
	for j, a := range atoms {
		ks[j] = t.atomIndex(a)
	}
	row := t.grow()
	for _, k := range ks {
		row[k/64] |= 1 << uint(k%64)
	}
}

// AppendValuation adds a position at which exactly the atoms mapped to true
// hold; atoms mapped to false join the vocabulary.
func (t *Trace) AppendValuation(v map[string]bool) {
	names := make([]string, 0, len(v))
	for a := range v {
		names = append(names, a)
	}
	// Deterministic vocabulary order for atoms first seen here.
	sort.Strings(names)
	var on []string
	for _, a := range names {
		t.atomIndex(a)
		if v[a] {
			on = append(on, a)
		}
	}
	t.Append(on...)
}

// grow appends a zeroed row and returns it.
func (t *Trace) grow() []uint64 {
	for i := 0; i < t.words; i++ {
		t.bits = append(t.bits, 0)
	}
	t.n++
	return t.bits[(t.n-1)*t.words:]
}

// atomIndex returns the index of atom, adding it to the vocabulary (and
// widening every row when a new word is needed) if it is new.
func (t *Trace) atomIndex(atom string) int {
	if k, ok := t.index[atom]; ok {
		return k
	}
	if t.index == nil {
		t.index = map[string]int{}
	}
	k := len(t.atoms)
	t.atoms = append(t.atoms, atom)
	t.index[atom] = k
	if need := (k + 64) / 64; need > t.words {
		wide := make([]uint64, t.n*need)
		for i := 0; i < t.n; i++ {
			copy(wide[i*need:], t.bits[i*t.words:(i+1)*t.words])
		}
		t.bits, t.words = wide, need
	}
	return k
}

// Letters projects the trace onto atoms (at most MaxAtoms of them): letter i
// has bit j set when atoms[j] holds at position i. Atoms outside the
// vocabulary hold nowhere.
func (t *Trace) Letters(atoms []string) ([]Letter, error) {
	if len(atoms) > MaxAtoms {
		return nil, fmt.Errorf("monitor: %d atoms; a monitor watches at most %d", len(atoms), MaxAtoms)
	}
	type src struct{ word, bit, dst int }
	var srcs []src
	for j, a := range atoms {
		if k, ok := t.index[a]; ok {
			srcs = append(srcs, src{k / 64, k % 64, j})
		}
	}
	out := make([]Letter, t.n)
	for i := range out {
		row := t.bits[i*t.words : (i+1)*t.words]
		var l Letter
		for _, s := range srcs {
			l |= Letter((row[s.word]>>uint(s.bit))&1) << uint(s.dst)
		}
		out[i] = l
	}
	return out, nil
}

// Slice returns positions [from, to) as a new trace with the same vocabulary.
func (t *Trace) Slice(from, to int) *Trace {
	if from < 0 {
		from = 0
	}
	if to > t.n {
		to = t.n
	}
	if from > to {
		from = to
	}
	s := &Trace{atoms: t.atoms, index: t.index, words: t.words, n: to - from}
	s.bits = append([]uint64(nil), t.bits[from*t.words:to*t.words]...)
	return s
}

// String formats the trace one position per line: "i: {a, b}".
func (t *Trace) String() string {
	var b strings.Builder
	for i := 0; i < t.n; i++ {
		fmt.Fprintf(&b, "%d: {%s}\n", i, strings.Join(t.At(i), ", "))
	}
	return b.String()
}

// Verdict is what a monitor knows about a formula after some prefix of a
// trace. The four values are never folded into each other: Violated and
// Satisfied are decided for every continuation of the prefix; CurrentlyTrue
// and CurrentlyFalse say only what the verdict would be if the trace ended
// now.
type Verdict uint8

const (
	// CurrentlyFalse: undecided; the formula would not hold if the trace
	// ended now.
	CurrentlyFalse Verdict = iota
	// CurrentlyTrue: undecided; the formula would hold if the trace ended now.
	CurrentlyTrue
	// Violated: no continuation of the prefix satisfies the formula.
	Violated
	// Satisfied: every continuation of the prefix satisfies the formula.
	Satisfied
)

func (v Verdict) String() string {
	switch v {
	case CurrentlyFalse:
		return "currently false"
	case CurrentlyTrue:
		return "currently true"
	case Violated:
		return "violated"
	case Satisfied:
		return "satisfied"
	}
	return "invalid"
}

// Decided reports whether v holds for every continuation.
func (v Verdict) Decided() bool { return v == Violated || v == Satisfied }

// Holds reports the verdict if the trace ended now.
func (v Verdict) Holds() bool { return v == CurrentlyTrue || v == Satisfied }
