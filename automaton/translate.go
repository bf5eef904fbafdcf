package automaton

// This file is the symbolic finite-trace tableau and the on-the-fly subset
// construction.
//
// A tableau node (docs/design.md: GPVW with the Giannakopoulou–Havelund finite
// acceptance; see nfa.go for the explicit version) is a set of literals that
// hold now and a NEXT set of obligations on the rest of the trace. An
// obligation is a formula g with a strength: strong ("X g": a next position
// exists and g holds there) or weak ("N g": no next position, or g holds
// there). The one-step expansion of a formula f is the Boolean function
//
//	E(f) over the current letter's atoms and next-position obligations
//
// given by the tableau's split rules (E(F g) = E(g) ∨ X F g, E(g U h) =
// E(h) ∨ (E(g) ∧ X(g U h)), E(G g) = E(g) ∧ N G g, …); each cube of its
// disjunctive normal form is one tableau node. Because the obligations have
// exact meanings, E commutes with every Boolean connective (E(!g) = ¬E(g)),
// so no negation normal form is needed.
//
// A state of the subset construction is a set of tableau nodes, represented
// by the BDD of the disjunction of their NEXT sets (a node with NEXT set n
// is the cube ∧n). Sets whose BDDs coincide accept the same language, so
// they are one DFA state. The successor function of a state S is S with
// every obligation variable replaced by the expansion of its formula: a BDD
// over atoms (top levels) and next obligations (bottom levels); the nodes
// where its atom levels end are the successor states and the paths above
// them the guards. A state accepts the end of the trace exactly when S is
// true with strong obligations false and weak ones true.
//
// Past operators, when the translator handles them (prepared.exactPast),
// use memory levels: for each past subformula the value at the previous
// position of the formula it looks back at (g for Y g, Z g, start(g) and
// end(g); the operator itself for O, H, S, B and the intervals), plus a
// level "first" true only at the first position. Their expansions read
// the current memory (E(Y g) = ¬first ∧ m[g], E(O g) = E(g) ∨ (¬first ∧
// m[O g]), …). A state is then a BDD over next-memory and obligation
// levels; a step renames next memory to current memory, composes, conjoins
// m'[k] ↔ E(k) for every memory formula k (the values the next position
// will read) and quantifies the current memory away. When k has future
// operands the m'[k] are guesses tied to the obligations, which keeps the
// construction exact for past operators over future subformulas too.

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// obligation is a requirement on the position after the current one.
type obligation struct {
	f      ltl.Formula
	strong bool
}

// translator holds the BDD store and the tableau's variables.
type translator struct {
	b      *bdd
	nAtoms int32            // atom levels are 0…nAtoms-1
	level  map[string]int32 // atom name → level

	// Memory (exact past only): mem[k] has current level nAtoms+k and
	// next level nAtoms+nMem+k; mem[0] is the zero Formula and stands
	// for "first".
	mem      []ltl.Formula
	memIndex map[ltl.Formula]int32
	nMem     int32
	memNext  bref          // ∧k m'[k] ↔ E(mem[k]), ∧ ¬first'
	rename   map[bref]bref // next-memory levels → current-memory levels
	drop     map[bref]bref // ∃ current memory

	oblBase int32        // first obligation level: nAtoms + 2·nMem
	obls    []obligation // obligation level oblBase+i is obls[i]
	oblVar  map[obligation]int32
	oblExp  []bref // expansion of obls[i]'s formula; -1 until needed

	exp  map[ltl.Formula]bref
	comp map[bref]bref
	end  map[bref]bool
}

func newTranslator(p *prepared) *translator {
	t := &translator{
		b:      newBDD(),
		nAtoms: int32(len(p.atoms)),
		level:  map[string]int32{},
		oblVar: map[obligation]int32{},
		exp:    map[ltl.Formula]bref{},
		comp:   map[bref]bref{},
		end:    map[bref]bool{},
	}
	for lvl, bit := range p.order {
		t.level[p.atoms[bit]] = int32(lvl)
	}
	t.oblBase = t.nAtoms
	if p.exactPast {
		t.mem = []ltl.Formula{{}}
		t.memIndex = map[ltl.Formula]int32{}
		for _, g := range p.f.Subformulas() {
			if k, ok := memoryOf(g); ok {
				if _, dup := t.memIndex[k]; !dup {
					t.memIndex[k] = int32(len(t.mem))
					t.mem = append(t.mem, k)
				}
			}
		}
		t.nMem = int32(len(t.mem))
		t.oblBase = t.nAtoms + 2*t.nMem
		t.rename = map[bref]bref{}
		t.drop = map[bref]bref{}
		c := t.b.not(t.b.variable(t.nAtoms + t.nMem))
		for k := int32(1); k < t.nMem; k++ {
			next := t.b.variable(t.nAtoms + t.nMem + k)
			c = t.b.and(c, t.b.iff(next, t.expand(t.mem[k])))
		}
		t.memNext = c
	}
	return t
}

// memoryOf returns the formula whose previous value the past operator at
// the root of g reads.
func memoryOf(g ltl.Formula) (ltl.Formula, bool) {
	switch g.Op() {
	case ltl.OpYesterday, ltl.OpWeakYesterday, ltl.OpStart, ltl.OpEnd:
		return g.Left(), true
	case ltl.OpOnce, ltl.OpHistorically, ltl.OpSince, ltl.OpWeakSince, ltl.OpIntervalStrong, ltl.OpIntervalWeak:
		return g, true
	}
	return ltl.Formula{}, false
}

// first is true at the first position only.
func (t *translator) first() bref { return t.b.variable(t.nAtoms) }

// prev is the value of memory formula k at the previous position (false at
// the first position).
func (t *translator) prev(k ltl.Formula) bref {
	return t.b.and(t.b.not(t.first()), t.b.variable(t.nAtoms+t.memIndex[k]))
}

// obligationVar returns the BDD variable of an obligation, creating the
// level if it is new.
func (t *translator) obligationVar(f ltl.Formula, strong bool) bref {
	o := obligation{f, strong}
	lvl, ok := t.oblVar[o]
	if !ok {
		lvl = t.oblBase + int32(len(t.obls))
		t.obls = append(t.obls, o)
		t.oblExp = append(t.oblExp, -1)
		t.oblVar[o] = lvl
	}
	return t.b.variable(lvl)
}

// expand returns E(f). f has no past operators (prepare removed them).
func (t *translator) expand(f ltl.Formula) bref {
	if r, ok := t.exp[f]; ok {
		return r
	}
	b := t.b
	var r bref
	switch f.Op() {
	case ltl.OpTrue:
		r = bddTrue
	case ltl.OpFalse:
		r = bddFalse
	case ltl.OpAtom:
		r = b.variable(t.level[f.Name()])
	case ltl.OpNot:
		r = b.not(t.expand(f.Left()))
	case ltl.OpAnd:
		r = b.and(t.expand(f.Left()), t.expand(f.Right()))
	case ltl.OpOr:
		r = b.or(t.expand(f.Left()), t.expand(f.Right()))
	case ltl.OpXor:
		r = b.xor(t.expand(f.Left()), t.expand(f.Right()))
	case ltl.OpImplies:
		r = b.impl(t.expand(f.Left()), t.expand(f.Right()))
	case ltl.OpIff:
		r = b.iff(t.expand(f.Left()), t.expand(f.Right()))
	case ltl.OpNext:
		r = t.obligationVar(f.Left(), true)
	case ltl.OpWeakNext:
		r = t.obligationVar(f.Left(), false)
	case ltl.OpEventually: // F g = g ∨ X F g
		r = b.or(t.expand(f.Left()), t.obligationVar(f, true))
	case ltl.OpAlways: // G g = g ∧ N G g
		r = b.and(t.expand(f.Left()), t.obligationVar(f, false))
	case ltl.OpUntil: // g U h = h ∨ (g ∧ X(g U h))
		r = b.or(t.expand(f.Right()), b.and(t.expand(f.Left()), t.obligationVar(f, true)))
	case ltl.OpWeakUntil: // g W h = h ∨ (g ∧ N(g W h))
		r = b.or(t.expand(f.Right()), b.and(t.expand(f.Left()), t.obligationVar(f, false)))
	case ltl.OpRelease: // g R h = h ∧ (g ∨ N(g R h))
		r = b.and(t.expand(f.Right()), b.or(t.expand(f.Left()), t.obligationVar(f, false)))
	case ltl.OpStrongRelease: // g M h = h ∧ (g ∨ X(g M h))
		r = b.and(t.expand(f.Right()), b.or(t.expand(f.Left()), t.obligationVar(f, true)))
	default:
		r = t.expandPast(f)
	}
	t.exp[f] = r
	return r
}

// expandPast returns E(f) for a past operator f (exact past only).
func (t *translator) expandPast(f ltl.Formula) bref {
	if t.memIndex == nil {
		// prepare replaced every past subformula by an atom.
		return bddFalse
	}
	b := t.b
	l, r := f.Left(), f.Right()
	switch f.Op() {
	case ltl.OpYesterday:
		return t.prev(l)
	case ltl.OpWeakYesterday:
		return b.or(t.first(), t.prev(l))
	case ltl.OpOnce: // O g = g ∨ Y O g
		return b.or(t.expand(l), t.prev(f))
	case ltl.OpHistorically: // H g = g ∧ Z H g
		return b.and(t.expand(l), b.or(t.first(), t.prev(f)))
	case ltl.OpSince: // g S h = h ∨ (g ∧ Y(g S h))
		return b.or(t.expand(r), b.and(t.expand(l), t.prev(f)))
	case ltl.OpWeakSince: // g B h = h ∨ (g ∧ Z(g B h))
		return b.or(t.expand(r), b.and(t.expand(l), b.or(t.first(), t.prev(f))))
	case ltl.OpStart: // g ∧ Y ¬g
		return b.and(t.expand(l), b.and(b.not(t.first()), b.not(t.prev(l))))
	case ltl.OpEnd: // ¬g ∧ Y g
		return b.and(b.not(t.expand(l)), t.prev(l))
	case ltl.OpIntervalStrong: // [g,h)s = ¬h ∧ (g ∨ Y [g,h)s)
		return b.and(b.not(t.expand(r)), b.or(t.expand(l), t.prev(f)))
	case ltl.OpIntervalWeak: // [g,h)w = ¬h ∧ (g ∨ Z [g,h)w)
		return b.and(b.not(t.expand(r)), b.or(t.expand(l), b.or(t.first(), t.prev(f))))
	}
	return bddFalse
}

// step returns the successor function of state s: a BDD over atoms (top)
// and states (below the atom levels).
func (t *translator) step(s bref) bref {
	if t.memIndex == nil {
		return t.compose(s)
	}
	r := t.b.and(t.compose(t.renameMemory(s)), t.memNext)
	return t.b.exists(r, t.isCurrentMemory, t.drop)
}

func (t *translator) isCurrentMemory(level int32) bool {
	return level >= t.nAtoms && level < t.nAtoms+t.nMem
}

// renameMemory moves s's next-memory levels to the current-memory ones.
func (t *translator) renameMemory(s bref) bref {
	return t.b.substitute(s, func(level int32) bref {
		if level >= t.nAtoms+t.nMem && level < t.oblBase {
			level -= t.nMem
		}
		return t.b.variable(level)
	}, t.rename)
}

// compose returns the successor function of state s: s with every
// obligation variable replaced by the expansion of its formula (current
// memory levels stay).
func (t *translator) compose(s bref) bref {
	return t.b.substitute(s, t.expansionOf, t.comp)
}

// expansionOf returns what compose puts in place of the variable at level.
func (t *translator) expansionOf(level int32) bref {
	if level < t.oblBase {
		return t.b.variable(level)
	}
	i := level - t.oblBase
	if t.oblExp[i] < 0 {
		t.oblExp[i] = t.expand(t.obls[i].f)
	}
	return t.oblExp[i]
}

// accepts reports whether state s accepts the end of the trace: s with
// strong obligations false and weak ones true, for some value of the
// memory levels.
func (t *translator) accepts(s bref) bool {
	if s <= bddTrue {
		return s == bddTrue
	}
	if v, ok := t.end[s]; ok {
		return v
	}
	n := t.b.nodes[s]
	var v bool
	switch {
	case n.level < t.oblBase:
		v = t.accepts(n.lo) || t.accepts(n.hi)
	case t.obls[n.level-t.oblBase].strong:
		v = t.accepts(n.lo)
	default:
		v = t.accepts(n.hi)
	}
	t.end[s] = v
	return v
}

// limits bounds a construction.
type limits struct {
	maxStates int
	maxNodes  int
}

// progress returns the error that stops a construction about to expand
// its state i of n found so far: ctx is done (looked at every 256 states),
// or there are more states than the bound.
func (lim limits) progress(ctx context.Context, i, n int) error {
	if i&255 == 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("automaton: translation stopped after %d states: %w", i, err)
		}
	}
	if n > lim.maxStates {
		return fmt.Errorf("automaton: %w: more than %d states before minimization", ErrTooLarge, lim.maxStates)
	}
	return nil
}

// subsetConstruction builds the (unminimized) DFA of p by exploring the
// states reachable from the initial obligation "f holds from the first
// position" (strong when f fails on the empty trace, weak when it holds).
func subsetConstruction(ctx context.Context, p *prepared, lim limits) (_ *DFA, err error) {
	defer catchAbort(&err)
	t := newTranslator(p)
	t.b.ctx, t.b.maxNodes = ctx, lim.maxNodes
	init := t.obligationVar(p.f, !p.emptyHolds)
	// States are kept canonical modulo the implications between
	// obligations (implication.go), when there are any.
	constraint := bddTrue
	if cands := implicationCandidates(p.f); cands != nil {
		constraint = t.implicationConstraint(cands)
		init = t.b.and(init, constraint)
	}
	if t.memIndex != nil {
		// First position: first' holds and every memory level is false.
		for k := t.nMem - 1; k >= 0; k-- {
			lvl := t.nAtoms + t.nMem + k
			if k == 0 {
				init = t.b.mk(lvl, bddFalse, init)
			} else {
				init = t.b.mk(lvl, init, bddFalse)
			}
		}
	}

	d := newDFAShell(p)
	states := newInterner[bref]()
	states.id(init)

	g := newDAG()
	cut := map[bref]int32{}
	var toDAG func(r bref) int32
	toDAG = func(r bref) int32 {
		n := t.b.nodes[r]
		if n.level >= t.nAtoms {
			return ^states.id(r)
		}
		if v, ok := cut[r]; ok {
			return v
		}
		lo := toDAG(n.lo)
		hi := toDAG(n.hi)
		v := g.mk(n.level, lo, hi)
		cut[r] = v
		return v
	}

	for i := 0; i < len(states.keys); i++ {
		if err := lim.progress(ctx, i, len(states.keys)); err != nil {
			return nil, err
		}
		s := states.keys[i]
		next := t.step(s)
		if constraint != bddTrue {
			next = t.b.and(next, constraint)
		}
		d.roots = append(d.roots, toDAG(next))
		d.accept = append(d.accept, t.accepts(s))
	}
	d.nodes = g.nodes
	d.initial = 0
	return d, nil
}
