package monitor

// This file is the tabulated step: a compiled program's step function as
// one table lookup per event, used by both DP engines when the state and
// input bits are few.

// maxTableBits bounds tabulation: a program whose state bits plus input
// bits are at most this many runs as one table lookup per step (a table of
// 2^maxTableBits uint64 entries, 128 KiB, at most).
const maxTableBits = 14

// stepTable is a program's step function tabulated. An entry's index is
// state<<inBits | input; the entry holds the next state in the same place,
// so that entry&smask | input is the next index, and the outputs from bit
// outShift up.
type stepTable struct {
	entries  []uint64
	inBits   uint   // input bits of the index
	inMask   uint64 // (1<<inBits)-1
	smask    uint64 // the state bits, in place
	outShift uint   // inBits + number of state bits
}

// tabulate returns p's step function over inputs of inBits bits (the low
// nAtoms bits are the letter, the rest aux[0]), or nil when it is too
// large. Only the rows of states reachable after the first step are filled
// (a search from the states the first step can reach), so construction
// costs 2^inBits steps per reachable state; the other rows are never read.
func tabulate(p *program, nAtoms, inBits int, outs []uint32) *stepTable {
	ns := len(p.state)
	if ns+inBits > maxTableBits || ns+inBits+len(outs) > 64 {
		return nil
	}
	t := &stepTable{
		entries:  make([]uint64, 1<<uint(ns+inBits)),
		inBits:   uint(inBits),
		inMask:   1<<uint(inBits) - 1,
		smask:    (1<<uint(ns) - 1) << uint(inBits),
		outShift: uint(ns + inBits),
	}
	vals := make([]uint8, len(p.init))
	aux := make([]uint64, 1)
	letterMask := uint64(1)<<uint(nAtoms) - 1
	// run executes code on state s (nil: the initial registers) and input
	// in, returning the new state and the outputs.
	run := func(code []instr, s *uint64, in uint64) (uint64, uint64) {
		copy(vals, p.init)
		if s != nil {
			unpackState(p, vals, *s)
		}
		aux[0] = in >> uint(nAtoms)
		exec(code, vals, in&letterMask, aux)
		return packState(p, vals), packOutputs(vals, outs)
	}
	seen := make([]bool, 1<<uint(ns))
	var queue []uint64
	push := func(s uint64) {
		if !seen[s] {
			seen[s] = true
			queue = append(queue, s)
		}
	}
	if p.first == nil {
		push(packState(p, p.init))
	} else {
		for in := uint64(0); in <= t.inMask; in++ {
			s, _ := run(p.first, nil, in)
			push(s)
		}
	}
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for in := uint64(0); in <= t.inMask; in++ {
			next, out := run(p.code, &s, in)
			t.entries[s<<t.inBits|in] = next<<t.inBits | out<<t.outShift
			push(next)
		}
	}
	return t
}

func packState(p *program, vals []uint8) uint64 {
	var s uint64
	for j, k := range p.state {
		s |= uint64(vals[k]) << uint(j)
	}
	return s
}

func unpackState(p *program, vals []uint8, s uint64) {
	for j, k := range p.state {
		vals[k] = uint8(s >> uint(j) & 1)
	}
}

func packOutputs(vals []uint8, outs []uint32) uint64 {
	var o uint64
	for j, k := range outs {
		o |= uint64(vals[k]) << uint(j)
	}
	return o
}
