package ltl

import "math/rand/v2"

// This file generates random formulas and traces for property tests. Both
// are deterministic functions of the *rand.Rand they are given, so a test
// that logs its seed can be replayed exactly.

// RandomConfig says what Random generates. The zero value is usable: three
// atoms p, q, r, depth at most 4, every operator.
type RandomConfig struct {
	// Atoms are the atom names to draw from; default {"p", "q", "r"}. Names
	// that are not identifiers are fine (they print quoted).
	Atoms []string
	// MaxDepth bounds the height of the syntax tree (1 = a single atom or
	// constant); default 4.
	MaxDepth int
	// Ops are the operators to draw from: nil means AllOps, an empty
	// slice only leaves. OpsOf gives the operators of one Class.
	// Constants and atoms are always possible as leaves.
	Ops []Op
	// LeafWeight is the chance, in percent, that a node above the depth
	// bound is nevertheless a leaf; default 20. Use a negative value for 0.
	LeafWeight int
	// ConstWeight is the chance, in percent, that a leaf is true or false
	// rather than an atom; default 10. Use a negative value for 0.
	ConstWeight int
}

// AllOps returns every operator with operands: the Boolean connectives, the
// future and past operators, start, end and the intervals.
func AllOps() []Op {
	var ops []Op
	for op := OpNot; op < numOps; op++ {
		ops = append(ops, op)
	}
	return ops
}

// OpsOf returns the operators a formula of class c may use: the Boolean
// connectives for Propositional; those and the past operators (with start,
// end and the intervals) for PurePast; those and the future operators for
// PureFuture; all of them for Mixed.
func OpsOf(c Class) []Op {
	var ops []Op
	for _, op := range AllOps() {
		switch {
		case op.IsBoolean(),
			op.IsPast() && (c == PurePast || c == Mixed),
			op.IsFuture() && (c == PureFuture || c == Mixed):
			ops = append(ops, op)
		}
	}
	return ops
}

// Random returns a random formula drawn as cfg says. The result uses only
// the operators of cfg.Ops, but may by chance use fewer (a random "pure
// past" formula can be propositional).
func Random(rng *rand.Rand, cfg RandomConfig) Formula {
	cfg = cfg.withDefaults()
	return cfg.random(rng, cfg.MaxDepth)
}

func (cfg RandomConfig) withDefaults() RandomConfig {
	if len(cfg.Atoms) == 0 {
		cfg.Atoms = []string{"p", "q", "r"}
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 4
	}
	if cfg.Ops == nil {
		cfg.Ops = AllOps()
	}
	if cfg.LeafWeight == 0 {
		cfg.LeafWeight = 20
	}
	if cfg.ConstWeight == 0 {
		cfg.ConstWeight = 10
	}
	return cfg
}

// random draws a formula of height at most depth. Its recursion is bounded
// by MaxDepth, which the caller chooses.
func (cfg RandomConfig) random(rng *rand.Rand, depth int) Formula {
	if depth <= 1 || len(cfg.Ops) == 0 || rng.IntN(100) < cfg.LeafWeight {
		if rng.IntN(100) < cfg.ConstWeight {
			if rng.IntN(2) == 0 {
				return True()
			}
			return False()
		}
		return Atom(cfg.Atoms[rng.IntN(len(cfg.Atoms))])
	}
	op := cfg.Ops[rng.IntN(len(cfg.Ops))]
	l := cfg.random(rng, depth-1)
	if op.Arity() == 1 {
		return Unary(op, l)
	}
	return Binary(op, l, cfg.random(rng, depth-1))
}

// RandomTrace returns a trace over atoms whose length is uniform in
// 0…maxLen (the empty trace included); each atom holds at each position with
// probability 1/2.
func RandomTrace(rng *rand.Rand, atoms []string, maxLen int) Sets {
	n := 0
	if maxLen > 0 {
		n = rng.IntN(maxLen + 1)
	}
	t := make(Sets, n)
	for i := range t {
		t[i] = []string{}
		for _, a := range atoms {
			if rng.IntN(2) == 0 {
				t[i] = append(t[i], a)
			}
		}
	}
	return t
}
