package ltl

import "unique"

// Op is the operator at the root of a formula.
type Op uint8

// The operators. Their concrete syntax is in docs/semantics.md; the comment gives the
// canonical printed form.
const (
	OpInvalid Op = iota

	OpTrue  // true
	OpFalse // false
	OpAtom  // p, "quoted text", at(G,L)

	OpNot     // !f
	OpAnd     // f && g
	OpOr      // f || g
	OpXor     // f ^ g
	OpImplies // f -> g
	OpIff     // f <-> g

	OpNext          // X f: strong next
	OpWeakNext      // N f: weak next
	OpEventually    // F f
	OpAlways        // G f
	OpUntil         // f U g: strong until
	OpWeakUntil     // f W g
	OpRelease       // f R g: weak release
	OpStrongRelease // f M g

	OpYesterday     // Y f: false at the first position
	OpWeakYesterday // Z f: true at the first position
	OpOnce          // O f
	OpHistorically  // H f
	OpSince         // f S g: strong since
	OpWeakSince     // f B g: weak since (back-to)

	OpStart          // start(f)
	OpEnd            // end(f)
	OpIntervalStrong // [f, g)s
	OpIntervalWeak   // [f, g)w

	numOps
)

var opNames = [...]string{
	OpInvalid:        "invalid",
	OpTrue:           "true",
	OpFalse:          "false",
	OpAtom:           "atom",
	OpNot:            "!",
	OpAnd:            "&&",
	OpOr:             "||",
	OpXor:            "^",
	OpImplies:        "->",
	OpIff:            "<->",
	OpNext:           "X",
	OpWeakNext:       "N",
	OpEventually:     "F",
	OpAlways:         "G",
	OpUntil:          "U",
	OpWeakUntil:      "W",
	OpRelease:        "R",
	OpStrongRelease:  "M",
	OpYesterday:      "Y",
	OpWeakYesterday:  "Z",
	OpOnce:           "O",
	OpHistorically:   "H",
	OpSince:          "S",
	OpWeakSince:      "B",
	OpStart:          "start",
	OpEnd:            "end",
	OpIntervalStrong: "[)s",
	OpIntervalWeak:   "[)w",
}

// String returns the operator's canonical symbol.
func (op Op) String() string {
	if op >= numOps {
		return "invalid"
	}
	return opNames[op]
}

// Arity is the number of operands: 0 for constants and atoms, 1 for unary
// operators, 2 for binary ones.
func (op Op) Arity() int {
	switch {
	case op == OpInvalid || op >= numOps:
		return 0
	case op <= OpAtom:
		return 0
	case op == OpNot, op == OpNext, op == OpWeakNext, op == OpEventually, op == OpAlways,
		op == OpYesterday, op == OpWeakYesterday, op == OpOnce, op == OpHistorically,
		op == OpStart, op == OpEnd:
		return 1
	default:
		return 2
	}
}

// IsBoolean reports whether op is a constant, an atom or a Boolean connective.
func (op Op) IsBoolean() bool { return op >= OpTrue && op <= OpIff }

// IsFuture reports whether op is a future-time temporal operator.
func (op Op) IsFuture() bool { return op >= OpNext && op <= OpStrongRelease }

// IsPast reports whether op is a past-time temporal operator, including the
// monitoring operators start, end and the intervals, which look backwards.
func (op Op) IsPast() bool { return op >= OpYesterday && op <= OpIntervalWeak }

// Formula is an immutable, hash-consed LTL formula. Structurally equal
// formulas are ==. The zero value is invalid; IsZero reports it.
type Formula struct {
	h unique.Handle[node]
}

// node is the canonical representation behind a Formula. For atoms, name is
// the atom's text (without quotes) and quoted records whether it was written
// in double quotes; for all other operators both are zero. Unused operands are
// zero Formulas.
type node struct {
	op     Op
	quoted bool
	name   string
	l, r   Formula
}

func mk(n node) Formula { return Formula{unique.Make(n)} }

func (f Formula) node() node {
	var zero unique.Handle[node]
	if f.h == zero {
		return node{}
	}
	return f.h.Value()
}

// IsZero reports whether f is the zero (invalid) Formula.
func (f Formula) IsZero() bool {
	var zero unique.Handle[node]
	return f.h == zero
}

// Op returns the operator at the root of f.
func (f Formula) Op() Op { return f.node().op }

// Name returns the text of an atom, without quotes; "" for other formulas.
func (f Formula) Name() string { return f.node().name }

// Quoted reports whether an atom prints in double quotes: it was written in
// quotes, as Go expressions are ("balance >= 0"), or its name is neither an
// identifier that is not a keyword nor a scenario atom's at(G,L).
func (f Formula) Quoted() bool { return f.node().quoted }

// Left returns the first operand of a unary or binary formula, and the zero
// Formula otherwise.
func (f Formula) Left() Formula { return f.node().l }

// Right returns the second operand of a binary formula, and the zero Formula
// otherwise.
func (f Formula) Right() Formula { return f.node().r }

// Operands returns f's operands in order (none, one or two).
func (f Formula) Operands() []Formula {
	n := f.node()
	switch n.op.Arity() {
	case 1:
		return []Formula{n.l}
	case 2:
		return []Formula{n.l, n.r}
	}
	return nil
}

// Constructors. None of them simplifies: they build exactly the formula named.

// True is the constant true.
func True() Formula { return mk(node{op: OpTrue}) }

// False is the constant false.
func False() Formula { return mk(node{op: OpFalse}) }

// Atom is the atomic proposition name. Any text is allowed; a name that is
// not an identifier, or is a keyword, can only be written in double quotes,
// so Atom(name) is QuotedAtom(name) for it (and its String re-parses to it).
// The exception is a scenario atom's canonical name: Atom("at(P0,m2)") is
// what Parse reads from at(P0, m2), and it prints without quotes.
func Atom(name string) Formula {
	return mk(node{op: OpAtom, name: name, quoted: !isPlainAtom(name)})
}

// QuotedAtom is an atom that was written in double quotes, such as a Go
// expression. It differs from Atom(name) only in how it prints, and only
// when name is an identifier that is not a keyword.
func QuotedAtom(name string) Formula { return mk(node{op: OpAtom, name: name, quoted: true}) }

// Unary builds op(f) for a unary operator; it returns the zero Formula if op
// is not unary or f is zero.
func Unary(op Op, f Formula) Formula {
	if op.Arity() != 1 || f.IsZero() {
		return Formula{}
	}
	return mk(node{op: op, l: f})
}

// Binary builds f op g for a binary operator; it returns the zero Formula if
// op is not binary or an operand is zero.
func Binary(op Op, f, g Formula) Formula {
	if op.Arity() != 2 || f.IsZero() || g.IsZero() {
		return Formula{}
	}
	return mk(node{op: op, l: f, r: g})
}

func Not(f Formula) Formula               { return Unary(OpNot, f) }
func And(f, g Formula) Formula            { return Binary(OpAnd, f, g) }
func Or(f, g Formula) Formula             { return Binary(OpOr, f, g) }
func Xor(f, g Formula) Formula            { return Binary(OpXor, f, g) }
func Implies(f, g Formula) Formula        { return Binary(OpImplies, f, g) }
func Iff(f, g Formula) Formula            { return Binary(OpIff, f, g) }
func Next(f Formula) Formula              { return Unary(OpNext, f) }
func WeakNext(f Formula) Formula          { return Unary(OpWeakNext, f) }
func Eventually(f Formula) Formula        { return Unary(OpEventually, f) }
func Always(f Formula) Formula            { return Unary(OpAlways, f) }
func Until(f, g Formula) Formula          { return Binary(OpUntil, f, g) }
func WeakUntil(f, g Formula) Formula      { return Binary(OpWeakUntil, f, g) }
func Release(f, g Formula) Formula        { return Binary(OpRelease, f, g) }
func StrongRelease(f, g Formula) Formula  { return Binary(OpStrongRelease, f, g) }
func Yesterday(f Formula) Formula         { return Unary(OpYesterday, f) }
func WeakYesterday(f Formula) Formula     { return Unary(OpWeakYesterday, f) }
func Once(f Formula) Formula              { return Unary(OpOnce, f) }
func Historically(f Formula) Formula      { return Unary(OpHistorically, f) }
func Since(f, g Formula) Formula          { return Binary(OpSince, f, g) }
func WeakSince(f, g Formula) Formula      { return Binary(OpWeakSince, f, g) }
func Start(f Formula) Formula             { return Unary(OpStart, f) }
func End(f Formula) Formula               { return Unary(OpEnd, f) }
func IntervalStrong(f, g Formula) Formula { return Binary(OpIntervalStrong, f, g) }
func IntervalWeak(f, g Formula) Formula   { return Binary(OpIntervalWeak, f, g) }

// AndAll is the conjunction of fs, left-associated; true if fs is empty.
func AndAll(fs ...Formula) Formula { return fold(OpAnd, True(), fs) }

// OrAll is the disjunction of fs, left-associated; false if fs is empty.
func OrAll(fs ...Formula) Formula { return fold(OpOr, False(), fs) }

func fold(op Op, unit Formula, fs []Formula) Formula {
	if len(fs) == 0 {
		return unit
	}
	acc := fs[0]
	for _, f := range fs[1:] {
		acc = Binary(op, acc, f)
	}
	return acc
}
