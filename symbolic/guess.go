package symbolic

import "slices"

// Guessing: before a query goes to Z3, try to repair the current model
// into one that satisfies every constraint of the query. A failing
// comparison l < r whose left side contains an input x once, under
// operations that can be undone (+, -, ^, unary - and ^, multiplication
// by an odd constant, conversions), gives values of x that make it hold:
// aim l at r+1, r, r-1 or an extreme and undo the operations one by one.
// Every candidate is checked by evaluating all the constraints, so a
// guess is a model or nothing: it can answer Sat, never Unsat.
//
// Most branches of a program can go both ways and the side not taken by
// the current model is usually one such repair away, so guessing saves
// most solver calls of an exploration. Config.DisableGuessing (or
// DisableCache) turns it off.

// guessRounds bounds the repairs tried per query.
const guessRounds = 6

// guess looks for a model of q's constraints near the current model,
// changing only the values of q's inputs. It reports the model of q's
// inputs it found. When the current model satisfies the path
// condition, the path's constraints are re-checked only once they
// mention an input the guess changed.
func (s *Session) guess(q *query) (*Model, bool) {
	cm := &Model{vals: make([]binding, 0, len(q.vars))}
	for _, in := range q.vars {
		cm.set(in.name, s.model.Eval(Input(in.name, in.t)))
	}
	trusted := s.pcSat()
	var changed []string
	for range guessRounds {
		bad := -1
		for i, c := range q.conds {
			if trusted && i < len(q.entries) && !s.mentions(q.entries[i], changed) {
				continue // holds in the current model, and its inputs kept their values
			}
			if !cm.holds(c) {
				bad = i
				break
			}
		}
		if bad < 0 {
			return cm, true
		}
		x, ok := repair(q.conds[bad], cm, q.vars)
		if !ok {
			return nil, false
		}
		changed = append(changed, x)
	}
	return nil, false
}

// mentions reports whether the constraint path[i] has one of the
// inputs called names.
func (s *Session) mentions(i int, names []string) bool {
	for _, v := range s.path[i].vars {
		if slices.Contains(names, s.vars[v].name) {
			return true
		}
	}
	return false
}

// repair changes one input of cm (among vars, newest first) so that the
// bool c holds, if it finds how, and returns that input's name. It
// changes cm in place.
func repair(c Value, cm *Model, vars []inputKey) (string, bool) {
	for i := len(vars) - 1; i >= 0; i-- {
		x := vars[i]
		old, _ := cm.Value(x.name)
		for _, v := range fixes(c, x, cm) {
			cm.set(x.name, v)
			if cm.holds(c) {
				return x.name, true
			}
		}
		cm.set(x.name, old)
	}
	return "", false
}

// fixes returns values of input x that may make the bool c true, the
// other inputs keeping their values in cm.
func fixes(c Value, x inputKey, cm *Model) []Value {
	n := c.e
	if n == nil || occurrences(c, x, 2) == 0 {
		return nil
	}
	switch {
	case n.op == opInput: // a bool input
		return []Value{MakeBool(true)}
	case n.op == opNot && n.x.e != nil && n.x.e.op == opInput:
		return []Value{MakeBool(false)}
	case n.op == opLAnd || n.op == opLOr:
		// Fix a false operand (for &&, the first one: the next round
		// fixes the other).
		for _, side := range [2]Value{n.x, n.y} {
			if !cm.holds(side) {
				if vs := fixes(side, x, cm); len(vs) > 0 || n.op == opLAnd {
					return vs
				}
			}
		}
		return nil
	case !n.op.isComparison() || n.x.t == Bool:
		return nil
	}
	l, r, o := n.x, n.y, n.op
	switch inL, inR := occurrences(l, x, 2), occurrences(r, x, 2); {
	case inL == 1 && inR == 0:
	case inL == 0 && inR == 1:
		l, r, o = r, l, o.swapped()
	default:
		return nil
	}
	t := l.t
	rv := cm.eval(r, nil)
	var targets []uint64
	lo, hi := uint64(0), t.mask() // unsigned extremes
	if t.Signed() {
		lo, hi = 1<<(t.Bits()-1), t.mask()>>1
	}
	switch o {
	case opEq:
		targets = []uint64{rv}
	case opNe:
		targets = []uint64{rv + 1, rv - 1}
	case opLt:
		targets = []uint64{rv - 1, rv - 2, rv - 3, rv - 4, lo}
	case opLe:
		targets = []uint64{rv, rv - 1, rv - 2, rv - 3, lo}
	case opGt:
		targets = []uint64{rv + 1, rv + 2, rv + 3, rv + 4, hi}
	case opGe:
		targets = []uint64{rv, rv + 1, rv + 2, rv + 3, hi}
	}
	var vs []Value
	for _, tg := range targets {
		if v, ok := invert(l, x, tg&t.mask(), cm); ok {
			vs = append(vs, Value{t: x.t, c: v})
		}
	}
	return vs
}

// swapped returns the comparison o with its operands exchanged
// (a < b is b > a).
func (o op) swapped() op {
	switch o {
	case opLt:
		return opGt
	case opLe:
		return opGe
	case opGt:
		return opLt
	case opGe:
		return opLe
	}
	return o // == and != are symmetric
}

// invert returns a value of input x that makes e (in which x occurs
// once) evaluate to target, the other inputs keeping their values in
// cm; ok is false where an operation cannot be undone.
func invert(e Value, x inputKey, target uint64, cm *Model) (uint64, bool) {
	n := e.e
	if n.op == opInput {
		return target, n.name == x.name && n.t == x.t
	}
	m := n.t.mask()
	if n.y.t == Invalid || n.op == opConv { // unary
		switch n.op {
		case opNeg:
			return invert(n.x, x, -target&m, cm)
		case opCompl:
			return invert(n.x, x, ^target&m, cm)
		case opConv:
			from := n.x.t
			if from.Bits() > n.t.Bits() {
				// Narrowing: keep the operand's high bits, aim the low ones.
				cur := cm.eval(n.x, nil)
				return invert(n.x, x, (cur&^m|target)&from.mask(), cm)
			}
			v := target & from.mask()
			if convert(from, n.t, v) != target {
				return 0, false // target is outside the source type's range
			}
			return invert(n.x, x, v, cm)
		}
		return 0, false
	}
	inX := occurrences(n.x, x, 1) > 0
	sub, other := n.x, n.y
	if !inX {
		sub, other = n.y, n.x
	}
	ov := cm.eval(other, nil)
	switch n.op {
	case opAdd:
		return invert(sub, x, (target-ov)&m, cm)
	case opSub:
		if inX {
			return invert(sub, x, (target+ov)&m, cm)
		}
		return invert(sub, x, (ov-target)&m, cm)
	case opXor:
		return invert(sub, x, target^ov, cm)
	case opMul:
		if ov&1 == 0 {
			return 0, false
		}
		// Prefer the exact quotient (small values); otherwise the
		// modular inverse of the odd factor.
		if t := n.t; t.Signed() {
			if a, b := sext(t, target), sext(t, ov); b != 0 && a%b == 0 {
				return invert(sub, x, uint64(a/b)&m, cm)
			}
		} else if target%ov == 0 {
			return invert(sub, x, target/ov, cm)
		}
		return invert(sub, x, target*inverse(ov)&m, cm)
	}
	return 0, false
}

// inverse returns the multiplicative inverse of the odd a modulo 2^64
// (Newton's iteration; each step doubles the correct low bits).
func inverse(a uint64) uint64 {
	x := a // correct to 3 bits for odd a
	for range 5 {
		x *= 2 - a*x
	}
	return x
}

// occurrences counts the occurrences of input x in v, stopping at
// limit.
func occurrences(v Value, x inputKey, limit int) int {
	n := v.e
	if n == nil {
		return 0
	}
	if n.op == opInput {
		if n.name == x.name && n.t == x.t {
			return 1
		}
		return 0
	}
	if n.size > 64 {
		return limit // too large to inspect: treat as "many"
	}
	k := occurrences(n.x, x, limit)
	if k < limit {
		k += occurrences(n.y, x, limit-k)
	}
	return min(k, limit)
}
