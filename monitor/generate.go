package monitor

// This file generates Go source for dynamic-programming monitors: the
// papers' "synthesized dynamic programming algorithm" for one formula,
// written out as straight-line code over a fixed set of 0/1 variables.

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/token"
	"go/types"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/henceforth-go/henceforth/ltl"
)

// GenerateOptions says what Generate writes.
type GenerateOptions struct {
	// Package is the name in the output's package clause; default
	// "monitor".
	Package string
	// Name is the name of the generated monitor: the type of a past-time
	// monitor, or the function of a future-time one (whose event type is
	// Name+"Event"); default "Monitor". Whether it is exported is up to
	// the caller.
	Name string
	// Semantics selects the first-position rules of past-time monitors (Y
	// and Z) and the end-of-trace rules of future-time ones.
	Semantics ltl.Semantics
}

// Generate writes the Go source of a file in package opts.Package that
// monitors f without allocating: the dynamic-programming algorithm of the
// Havelund–Roşu and Roşu–Havelund papers with the formula compiled in. The
// output is gofmt'ed and starts with a "Code generated … DO NOT EDIT."
// line; it imports nothing.
//
// For a propositional or pure-past formula φ, or G(φ) of one, the output is
// the online past-time monitor of the past-time paper, with its bit
// reduction: a type Name whose fields are one bit per temporal
// operator — the value, at the previous position, of each subformula the
// next step reads, some stored negated so that the zero value is the state
// before the first position — and whose method
//
//	func (m *Name) Step(a1, a2, … bool) bool
//
// takes the atoms' values at the next position, in sorted order, and
// returns φ's value there (for G(φ): the formula is violated at the first
// position where Step returns false). StepLetter(l uint64) takes the atoms
// as bits instead, bit i for the i-th atom in sorted order, like a Letter
// of a Past monitor of φ, so that it is an rv.Stepper (package monitor/rv)
// and rv.Generated makes it a runtime monitor's engine; Reset starts a new
// trace. The zero value is ready to use. The first position follows opts.Semantics exactly as NewPast
// does. A step computes on uint8 bits with & | ^, so it has no branches.
//
// For a pure-future formula, the output is the backward future-time DP
// (§2.1): a struct type Name+"Event" with one exported boolean field per
// atom, a function
//
//	func Name(trace []NameEvent) bool
//
// that returns the verdict (the formula's value at position 0, or the
// empty-trace rule for an empty trace), as NewFuture(f, opts.Semantics)
// does, in one backward pass with one bit per temporal operator, and
// NameEventOf(l uint64) to build events from letters.
//
// Atom names become Go identifiers (parameters or fields): other characters
// become '_', and names that would clash with Go keywords, predeclared
// identifiers, the generated code's own names or each other get a suffix.
// A comment in the output lists every atom with its Go name.
//
// Formulas that mix past and future operators (other than G of a past
// formula) are an error, as are formulas with more than MaxAtoms atoms and
// names that are not Go identifiers.
func Generate(w io.Writer, f ltl.Formula, opts GenerateOptions) error {
	if f.IsZero() {
		return errors.New("monitor: generate: invalid (zero) formula")
	}
	if opts.Package == "" {
		opts.Package = "monitor"
	}
	if opts.Name == "" {
		opts.Name = "Monitor"
	}
	for _, id := range []struct{ what, name string }{{"package", opts.Package}, {"monitor", opts.Name}} {
		if !token.IsIdentifier(id.name) || id.name == "_" {
			return fmt.Errorf("monitor: generate: %s name %q is not a Go identifier", id.what, id.name)
		}
	}
	if s := opts.Semantics; s != ltl.LTLf && s != ltl.RosuHavelund {
		return fmt.Errorf("monitor: generate: invalid semantics %d", s)
	}
	atoms := f.Atoms()
	if len(atoms) > MaxAtoms {
		return fmt.Errorf("monitor: generate: %s has %d distinct atoms; a generated monitor takes at most %d", abbrev(f), len(atoms), MaxAtoms)
	}
	g := &generator{f: f, opts: opts, atoms: atoms}
	switch c := f.Classify(); {
	case c == ltl.Propositional || c == ltl.PurePast:
		g.genPast(f, false)
	case f.IsPastSafety():
		g.genPast(f.Left(), true)
	case c == ltl.PureFuture:
		g.genFuture()
	default:
		return fmt.Errorf("monitor: generate: %s mixes past and future operators; Generate takes a propositional or pure-past formula, G of one (an online monitor), or a pure-future formula (an offline one)", abbrev(f))
	}
	src, err := format.Source(g.buf.Bytes())
	if err != nil {
		// The generator's own bug, not the user's: show the source.
		return fmt.Errorf("monitor: generate: internal error: generated code does not parse: %v\n%s", err, g.buf.Bytes())
	}
	_, err = w.Write(src)
	return err
}

// abbrev prints f for an error message, shortened if long.
func abbrev(f ltl.Formula) string {
	s := []rune(f.String())
	if len(s) > 80 {
		return string(s[:77]) + "..."
	}
	return string(s)
}

// generator holds the state of one Generate call.
type generator struct {
	f     ltl.Formula
	opts  GenerateOptions
	atoms []string // sorted
	buf   bytes.Buffer

	// nodes are the distinct subformulas of the monitored formula, numbered
	// as in the papers: parents before children (the root is 0), so
	// evaluating from the last to the first computes children first.
	nodes []ltl.Formula
	num   map[ltl.Formula]int
	live  []bool // by number: the root's value depends on the subformula
	size  []int  // by number: the subformula's tree size, capped
	// goName maps an atom to the Go identifier of its value (a parameter or
	// a local variable); fieldName, for future-time monitors, to its field
	// in the event type.
	goName, fieldName map[string]string
}

func (g *generator) printf(format string, args ...any) { fmt.Fprintf(&g.buf, format, args...) }

// number numbers the subformulas of root in reverse post-order of a
// depth-first search that visits operands right to left: for a tree this
// is the papers' pre-order numbering, and for the shared subformulas of a
// DAG it still puts every formula before its operands.
func (g *generator) number(root ltl.Formula) {
	seen := map[ltl.Formula]bool{root: true}
	type frame struct {
		f    ltl.Formula
		next int
	}
	stack := []frame{{f: root}}
	var post []ltl.Formula
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		ops := top.f.Operands()
		if top.next < len(ops) {
			c := ops[len(ops)-1-top.next]
			top.next++
			if !seen[c] {
				seen[c] = true
				stack = append(stack, frame{f: c})
			}
			continue
		}
		post = append(post, top.f)
		stack = stack[:len(stack)-1]
	}
	slices.Reverse(post)
	g.nodes = post
	g.num = make(map[ltl.Formula]int, len(post))
	for i, n := range post {
		g.num[n] = i
	}
	// Tree sizes, capped, decide which subformulas the comments print.
	g.size = make([]int, len(post))
	for j := len(post) - 1; j >= 0; j-- {
		g.size[j] = 1
		for _, c := range post[j].Operands() {
			g.size[j] = min(g.size[j]+g.size[g.num[c]], 1<<20)
		}
	}
	// A subformula is live if the root's value depends on it. Only
	// Boolean folding (p ^ p is 0) makes a subformula dead: Go rejects
	// variables that are declared and not read.
	g.live = make([]bool, len(post))
	g.live[0] = true
	for j, n := range post { // parents before operands
		if !g.live[j] || folds(n) {
			continue
		}
		for _, c := range n.Operands() {
			g.live[g.num[c]] = true
		}
	}
}

// describe returns the text of subformula n for a comment: n itself if it
// is small, or else its operator over the numbers of its operands (#5 S
// #7), so that a deep formula's comments stay linear in its size.
func (g *generator) describe(n ltl.Formula) string {
	if g.size[g.num[n]] <= 24 {
		return commentSafe(n.String())
	}
	operand := func(c ltl.Formula) string {
		if isLeaf(c) {
			return commentSafe(c.String())
		}
		return "#" + strconv.Itoa(g.num[c])
	}
	switch op := n.Op(); {
	case op == ltl.OpStart || op == ltl.OpEnd:
		return op.String() + "(" + operand(n.Left()) + ")"
	case op == ltl.OpIntervalStrong || op == ltl.OpIntervalWeak:
		return "[" + operand(n.Left()) + ", " + operand(n.Right()) + ")" + op.String()[2:]
	case op.Arity() == 1:
		return op.String() + " " + operand(n.Left())
	default:
		return operand(n.Left()) + " " + op.String() + " " + operand(n.Right())
	}
}

// folds reports whether boolean folds n to a constant without reading its
// operands.
func folds(n ltl.Formula) bool {
	switch n.Op() {
	case ltl.OpXor, ltl.OpImplies, ltl.OpIff:
		return n.Left() == n.Right()
	}
	return false
}

// isLeaf reports whether f is referred to directly (an atom's Go name or a
// constant) rather than through a variable of its own.
func isLeaf(f ltl.Formula) bool {
	op := f.Op()
	return op == ltl.OpAtom || op == ltl.OpTrue || op == ltl.OpFalse
}

// header writes the generated-code line, the package clause and the
// description of the formula.
func (g *generator) header(kind string) {
	g.printf("// Code generated by henceforth (monitor.Generate); DO NOT EDIT.\n\n")
	g.printf("package %s\n\n", g.opts.Package)
	g.printf("// This file is the %s of\n//\n//\t%s\n//\n", kind, commentSafe(g.f.String()))
	g.printf("// under %s semantics.\n\n", g.opts.Semantics)
}

// atomTable writes the comment lines that map atoms to Go names.
func (g *generator) atomTable(what string, names map[string]string) {
	if len(g.atoms) == 0 {
		g.printf("//\n// The formula has no atoms.\n")
		return
	}
	g.printf("//\n// Atoms, in %s order (bit i of a letter is atom i):\n//\n", what)
	width := 0
	for _, a := range g.atoms {
		width = max(width, utf8.RuneCountInString(names[a]))
	}
	for i, a := range g.atoms {
		pad := strings.Repeat(" ", width-utf8.RuneCountInString(names[a]))
		g.printf("//\t%-2d %s%s  %s\n", i, names[a], pad, commentSafe(strconv.Quote(a)))
	}
}

// commentSafe escapes the control characters of s (newlines in quoted
// atoms, say) so that s fits on one comment line.
func commentSafe(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// internalName matches the generated code's own identifiers: the receiver
// m, the letter l, the trace, index and event of the future-time loop, and
// the numbered variables now3, next3, pre3.
var internalName = regexp.MustCompile(`^(m|l|e|i|trace|(now|next|pre)[0-9]+)$`)

// goNames assigns every atom a distinct Go identifier; exported makes them
// exported (struct fields).
func (g *generator) goNames(exported bool) map[string]string {
	names := make(map[string]string, len(g.atoms))
	used := map[string]bool{}
	for _, a := range g.atoms {
		base := identifier(a)
		if exported {
			r := []rune(base)
			switch {
			case unicode.IsLower(r[0]):
				r[0] = unicode.ToUpper(r[0])
				base = string(r)
			case !unicode.IsUpper(r[0]):
				base = "A" + base
			}
		}
		// Predeclared identifiers (true, bool, len…) must not be shadowed.
		taken := func(name string) bool {
			return used[name] || types.Universe.Lookup(name) != nil || internalName.MatchString(name)
		}
		if taken(base) && !used[base] {
			base += "_"
		}
		name := base
		for k := 2; taken(name); k++ {
			name = base + strconv.Itoa(k)
			if internalName.MatchString(name) { // now2
				name = base + "_" + strconv.Itoa(k)
			}
		}
		used[name] = true
		names[a] = name
	}
	return names
}

// identifier turns an atom name into a Go identifier: the name itself if it
// is one (and not a keyword), otherwise its letters and digits with every
// run of other characters replaced by one '_'.
func identifier(a string) string {
	if token.IsIdentifier(a) {
		return a
	}
	var b strings.Builder
	pendingSep := false
	for _, r := range a {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			if pendingSep && b.Len() > 0 {
				b.WriteByte('_')
			}
			pendingSep = false
			b.WriteRune(r)
			continue
		}
		pendingSep = true
	}
	s := b.String()
	switch {
	case s == "" || s == "_":
		return "atom"
	case token.IsKeyword(s):
		return s + "_"
	case !token.IsIdentifier(s): // starts with a digit
		return "a" + s
	}
	return s
}

// ref returns how the code refers to n's value at the current position:
// an atom's Go name, a constant, or its variable.
func (g *generator) ref(n ltl.Formula) string {
	switch n.Op() {
	case ltl.OpTrue:
		return "uint8(1)"
	case ltl.OpFalse:
		return "uint8(0)"
	case ltl.OpAtom:
		return g.goName[n.Name()]
	}
	return "now" + strconv.Itoa(g.num[n])
}

// boolean returns the Go expression of a Boolean connective over operand
// references x and y. Values are bits, uint8 0 or 1: & is and, | or, ^ xor,
// ^ 1 not, which compile without branches (&& and || compile to
// conditional jumps that mispredict on real traces). Equal operands (p && p,
// after hash-consing) are folded.
func boolean(op ltl.Op, x, y string) string {
	same := x == y
	switch op {
	case ltl.OpNot:
		return x + " ^ 1"
	case ltl.OpAnd:
		if same {
			return x
		}
		return x + " & " + y
	case ltl.OpOr:
		if same {
			return x
		}
		return x + " | " + y
	case ltl.OpXor:
		if same {
			return "uint8(0)"
		}
		return x + " ^ " + y
	case ltl.OpImplies:
		if same {
			return "uint8(1)"
		}
		return "(" + x + " ^ 1) | " + y
	case ltl.OpIff:
		if same {
			return "uint8(1)"
		}
		return x + " ^ " + y + " ^ 1"
	}
	panic("monitor: generate: not a Boolean connective: " + op.String())
}

// --- past time ---

// A pastBit is a field of a past-time monitor: the value of a subformula at
// the previous position, stored negated when the readers need it to be 1
// before the first position, so that the zero monitor is the initial one
// and a step has no special case for the first position.
type pastBit struct {
	n   ltl.Formula
	neg bool
}

func (g *generator) field(b pastBit) string {
	if b.neg {
		return "npre" + strconv.Itoa(g.num[b.n])
	}
	return "pre" + strconv.Itoa(g.num[b.n])
}

// pastPlan is what a past-time step reads from the previous position.
type pastPlan struct {
	bits []pastBit // in numbering order, plain before negated
	// has[n][v] says whether n has a field whose value before the first
	// position is v: has[n][0] the plain field, has[n][1] the negated one.
	has map[ltl.Formula]*[2]bool
	// started says whether a step must know whether it is the first:
	// under RosuHavelund, Y and Z equal their operand at the first position.
	started bool
}

// planPast decides the fields of a past-time monitor — the operand of each
// Y, Z, start and end, and each O, H, S, B and interval itself (§2.3) — and
// the value each must have before the first position for the papers' loop
// rules to give the first position's value under g.opts.Semantics:
//
//	Y f, end(f), O f, f S g, [f, g)s    need 0 (f for Y and end, else the node)
//	Z f, start(f), H f, f B g, [f, g)w  need 1
//	Y f, Z f under RosuHavelund        read f at the first position instead
//
// A subformula whose readers need both values gets two fields, so a monitor
// has at most one field per temporal operator (plus the started bit).
func (g *generator) planPast() pastPlan {
	p := pastPlan{has: map[ltl.Formula]*[2]bool{}}
	need := func(n ltl.Formula, v int) {
		if p.has[n] == nil {
			p.has[n] = new([2]bool)
		}
		if v >= 0 {
			p.has[n][v] = true
		}
	}
	stationary := g.opts.Semantics == ltl.RosuHavelund
	for j, n := range g.nodes {
		if !g.live[j] {
			continue
		}
		switch n.Op() {
		case ltl.OpYesterday, ltl.OpWeakYesterday:
			switch {
			case stationary:
				p.started = true
				need(n.Left(), -1)
			case n.Op() == ltl.OpYesterday:
				need(n.Left(), 0)
			default:
				need(n.Left(), 1)
			}
		case ltl.OpEnd:
			need(n.Left(), 0)
		case ltl.OpStart:
			need(n.Left(), 1)
		case ltl.OpOnce, ltl.OpSince, ltl.OpIntervalStrong:
			need(n, 0)
		case ltl.OpHistorically, ltl.OpWeakSince, ltl.OpIntervalWeak:
			need(n, 1)
		}
	}
	for _, n := range g.nodes {
		h := p.has[n]
		if h == nil {
			continue
		}
		if !h[0] && !h[1] {
			h[0] = true // read only behind the started bit: either will do
		}
		if h[0] {
			p.bits = append(p.bits, pastBit{n, false})
		}
		if h[1] {
			p.bits = append(p.bits, pastBit{n, true})
		}
	}
	return p
}

// prev returns the expression of n's value at the previous position, read
// from the field that starts as init (0 or 1; -1 for either); negate asks
// for the negation instead.
func (g *generator) prev(p pastPlan, n ltl.Formula, init int, negate bool) string {
	neg := init == 1 || (init == -1 && !p.has[n][0])
	f := "m." + g.field(pastBit{n, neg})
	if neg != negate {
		return "(" + f + " ^ 1)"
	}
	return f
}

// genPast writes the online monitor of phi, a propositional or pure-past
// formula; always says the input was G(phi).
func (g *generator) genPast(phi ltl.Formula, always bool) {
	g.goName = g.goNames(false)
	g.number(phi)
	plan := g.planPast()
	name := g.opts.Name
	params := make([]string, len(g.atoms))
	for i, a := range g.atoms {
		params[i] = g.goName[a]
	}
	paramList := func(typ string) string {
		if len(params) == 0 {
			return ""
		}
		return strings.Join(params, ", ") + " " + typ
	}

	g.header("online past-time monitor (Havelund–Roşu dynamic programming)")
	g.printf("// %s is an online monitor of %s.\n", name, commentSafe(phi.String()))
	if always {
		g.printf("// %s is violated at the first position where Step returns false.\n", commentSafe(g.f.String()))
	}
	g.printf("// Its state is one 0/1 field per temporal operator; a step allocates nothing.\n")
	g.printf("// The zero value is ready to use: fields named npreK hold their subformula\n")
	g.printf("// negated, so that every field starts as 0 and the first position (%s)\n", map[ltl.Semantics]string{
		ltl.LTLf:         "Y false, Z true",
		ltl.RosuHavelund: "Y and Z equal their operand",
	}[g.opts.Semantics])
	g.printf("// needs no code of its own.\n")
	g.atomTable("parameter", g.goName)
	g.printf("type %s struct {\n", name)
	if plan.started {
		g.printf("started uint8 // 1 once a position has been seen\n")
	}
	for _, b := range plan.bits {
		neg := ""
		if b.neg {
			neg = ", negated"
		}
		g.printf("%s uint8 // %s at the previous position%s\n", g.field(b), g.describe(b.n), neg)
	}
	g.printf("}\n\n")

	g.printf("// Reset makes m ready for a new trace.\nfunc (m *%s) Reset() { *m = %s{} }\n\n", name, name)

	g.printf("// Step reads the atoms' values at the next position and returns the value of\n//\n//\t%s\n//\n// there.\n", commentSafe(phi.String()))
	g.printf("func (m *%s) Step(%s) bool {\nreturn m.step(", name, paramList("bool"))
	for i, p := range params {
		if i > 0 {
			g.printf(", ")
		}
		g.printf("m.bit(%s)", p)
	}
	g.printf(") == 1\n}\n\n")

	g.printf("// StepLetter is Step with the atoms as bits: bit i of l is the i-th atom.\n")
	g.printf("func (m *%s) StepLetter(l uint64) bool {\nreturn m.step(", name)
	for i := range g.atoms {
		if i > 0 {
			g.printf(", ")
		}
		if i == 0 {
			g.printf("uint8(l)&1")
		} else {
			g.printf("uint8(l>>%d)&1", i)
		}
	}
	g.printf(") == 1\n}\n\n")

	g.printf("// step is the dynamic-programming step (the loop body of the papers) over\n")
	g.printf("// bits, 0 or 1: & is and, | or, ^ xor, ^ 1 not, so it runs without branches.\n")
	g.printf("// Subformulas are numbered as in the papers, parents before operands; nowK\n")
	g.printf("// is subformula K at the current position.\n")
	g.printf("func (m *%s) step(%s) uint8 {\n", name, paramList("uint8"))
	g.pastBody(plan)
	g.printf("}\n\n")

	g.printf("func (*%s) bit(b bool) uint8 {\nif b {\nreturn 1\n}\nreturn 0\n}\n", name)
}

// pastBody writes the statements of a step: the now values of the
// subformulas (children first), the updates of the fields, and the return
// of the root's value. Every variable is read: by its parent, by a field
// update, or by the return.
func (g *generator) pastBody(plan pastPlan) {
	for j := len(g.nodes) - 1; j >= 0; j-- {
		n := g.nodes[j]
		if g.live[j] && !isLeaf(n) {
			g.printf("now%d := %s // %s\n", j, g.pastExpr(plan, n), g.describe(n))
		}
	}
	for _, b := range plan.bits {
		v := g.ref(b.n)
		if b.neg {
			v += " ^ 1"
		}
		g.printf("m.%s = %s\n", g.field(b), v)
	}
	if plan.started {
		g.printf("m.started = 1\n")
	}
	g.printf("return %s\n", g.ref(g.nodes[0]))
}

// pastExpr returns the expression of a non-leaf subformula's value at the
// current position, from its operands' variables and the fields: the
// papers' loop rules (§2.2), which the fields' initial values turn into the
// first position's rules.
func (g *generator) pastExpr(p pastPlan, n ltl.Formula) string {
	op := n.Op()
	l := g.ref(n.Left())
	var r string
	if op.Arity() == 2 {
		r = g.ref(n.Right())
	}
	if op.IsBoolean() {
		return boolean(op, l, r)
	}
	switch op {
	case ltl.OpYesterday, ltl.OpWeakYesterday:
		if g.opts.Semantics == ltl.RosuHavelund {
			return "m.started&" + g.prev(p, n.Left(), -1, false) + " | (m.started ^ 1) & " + l
		}
		init := 0
		if op == ltl.OpWeakYesterday {
			init = 1
		}
		return strings.TrimSuffix(strings.TrimPrefix(g.prev(p, n.Left(), init, false), "("), ")")
	case ltl.OpStart:
		return l + " & " + g.prev(p, n.Left(), 1, true)
	case ltl.OpEnd:
		return "(" + l + " ^ 1) & " + g.prev(p, n.Left(), 0, false)
	case ltl.OpOnce:
		return l + " | " + g.prev(p, n, 0, false)
	case ltl.OpHistorically:
		return l + " & " + g.prev(p, n, 1, false)
	case ltl.OpSince:
		return r + " | " + l + " & " + g.prev(p, n, 0, false)
	case ltl.OpWeakSince:
		return r + " | " + l + " & " + g.prev(p, n, 1, false)
	case ltl.OpIntervalStrong:
		return "(" + g.prev(p, n, 0, false) + " | " + l + ") & (" + r + " ^ 1)"
	case ltl.OpIntervalWeak:
		return "(" + g.prev(p, n, 1, false) + " | " + l + ") & (" + r + " ^ 1)"
	}
	panic("monitor: generate: not a past operator: " + op.String())
}

// --- future time ---

// genFuture writes the backward future-time DP of g.f, a pure-future
// formula.
func (g *generator) genFuture() {
	g.goName, g.fieldName = g.goNames(false), g.goNames(true)
	g.number(g.f)
	name := g.opts.Name
	event := name + "Event"
	sem := g.opts.Semantics

	// The state: one variable per temporal operator, nextK. For X and N it
	// is the operator's own value at the current position (its operand's
	// value one step later); for the others, the operator's value at the
	// next position. Before the last event it holds the value "beyond the
	// end": the rules of opts.Semantics at position n.
	end := g.valuesAtEnd()
	var temporal []ltl.Formula
	for j, n := range g.nodes {
		if g.live[j] && n.Op().IsFuture() {
			temporal = append(temporal, n)
		}
	}
	empty := ltl.Eval(g.f, ltl.Sets{}, sem)

	g.header("offline future-time monitor (Roşu–Havelund dynamic programming)")
	g.printf("// %s holds the atoms' values at one position of a trace.\n", event)
	g.atomTable("field", g.fieldName)
	g.printf("type %s struct {\n", event)
	for _, a := range g.atoms {
		g.printf("%s bool\n", g.fieldName[a])
	}
	g.printf("}\n\n")

	g.printf("// %sOf returns the event at which atom i holds when bit i of l is set.\n", event)
	g.printf("func %sOf(l uint64) %s {\nreturn %s{", event, event, event)
	for i, a := range g.atoms {
		if i > 0 {
			g.printf(", ")
		}
		g.printf("%s: l&(1<<%d) != 0", g.fieldName[a], i)
	}
	g.printf("}\n}\n\n")

	g.printf("func (%s) bit(b bool) uint8 {\nif b {\nreturn 1\n}\nreturn 0\n}\n\n", event)

	g.printf("// %s returns the verdict of\n//\n//\t%s\n//\n", name, commentSafe(g.f.String()))
	g.printf("// on trace: its value at the first position, computed backwards from the last\n")
	g.printf("// in O(len(trace)) time with one 0/1 variable per temporal operator, without\n")
	g.printf("// allocating or branching. Values are bits: & is and, | or, ^ xor, ^ 1 not.\n")
	g.printf("// Subformulas are numbered as in the papers (parents before operands); nowK\n")
	g.printf("// is subformula K at the current position, nextK (for X and N: the operand)\n")
	g.printf("// at the next one.\n")
	g.printf("func %s(trace []%s) bool {\n", name, event)
	g.printf("if len(trace) == 0 {\nreturn %t // the empty-trace rules\n}\n", empty)
	if len(temporal) > 0 {
		g.printf("// The values after the last event.\n")
	}
	for _, n := range temporal {
		j := g.num[n]
		v := end[n]
		if n.Op() == ltl.OpNext || n.Op() == ltl.OpWeakNext {
			v = g.lastValue(n, end)
		}
		bit := 0
		if v {
			bit = 1
		}
		g.printf("next%d := uint8(%d) // %s\n", j, bit, g.describe(n))
	}
	g.printf("var now0 uint8\n")
	g.printf("for i := len(trace) - 1; i >= 0; i-- {\n")
	var read []string // the atoms the live subformulas read
	readAtom := map[string]bool{}
	for j, n := range g.nodes {
		if g.live[j] && n.Op() == ltl.OpAtom {
			readAtom[n.Name()] = true
		}
	}
	for _, a := range g.atoms {
		if readAtom[a] {
			read = append(read, a)
		}
	}
	if len(read) > 0 {
		g.printf("e := &trace[i]\n")
	}
	for _, a := range read {
		g.printf("%s := e.bit(e.%s)\n", g.goName[a], g.fieldName[a])
	}
	for j := len(g.nodes) - 1; j >= 0; j-- {
		n := g.nodes[j]
		if !g.live[j] || isLeaf(n) {
			continue
		}
		assign := ":="
		if j == 0 {
			assign = "="
		}
		g.printf("now%d %s %s // %s\n", j, assign, g.futureExpr(n), g.describe(n))
	}
	for _, n := range temporal {
		j := g.num[n]
		if n.Op() == ltl.OpNext || n.Op() == ltl.OpWeakNext {
			g.printf("next%d = %s\n", j, g.ref(n.Left()))
		} else {
			g.printf("next%d = now%d\n", j, j)
		}
	}
	g.printf("}\nreturn now0 == 1\n}\n")
}

// futureExpr returns the Go expression of a non-leaf subformula's value at
// position i from its operands at i and the state (§2.1's loop rules,
// extended to N, W, R and M).
func (g *generator) futureExpr(n ltl.Formula) string {
	op := n.Op()
	l := g.ref(n.Left())
	var r string
	if op.Arity() == 2 {
		r = g.ref(n.Right())
	}
	if op.IsBoolean() {
		return boolean(op, l, r)
	}
	next := fmt.Sprintf("next%d", g.num[n])
	switch op {
	case ltl.OpNext, ltl.OpWeakNext:
		return next
	case ltl.OpEventually:
		return l + " | " + next
	case ltl.OpAlways:
		return l + " & " + next
	case ltl.OpUntil, ltl.OpWeakUntil:
		return r + " | " + l + " & " + next
	case ltl.OpRelease, ltl.OpStrongRelease:
		return r + " & (" + l + " | " + next + ")"
	}
	panic("monitor: generate: not a future operator: " + op.String())
}

// valuesAtEnd returns each subformula's value "at position n", one past the
// last event, as the backward recursions read it. Under RosuHavelund that
// is the virtual empty-suffix position at which no atom holds (X false, N,
// G, W, R true, F f = f, f U g = g, f M g = f ∧ g). Under LTLf no operator
// reaches position n: the values are the neutral ones that make the
// recursions give the last position's value (F, U, M false; G, W, R true).
func (g *generator) valuesAtEnd() map[ltl.Formula]bool {
	v := make(map[ltl.Formula]bool, len(g.nodes))
	rh := g.opts.Semantics == ltl.RosuHavelund
	for j := len(g.nodes) - 1; j >= 0; j-- {
		n := g.nodes[j]
		l, r := v[n.Left()], v[n.Right()]
		var x bool
		switch op := n.Op(); op {
		case ltl.OpTrue:
			x = true
		case ltl.OpFalse, ltl.OpAtom, ltl.OpNext:
			x = false
		case ltl.OpNot:
			x = !l
		case ltl.OpAnd:
			x = l && r
		case ltl.OpOr:
			x = l || r
		case ltl.OpXor:
			x = l != r
		case ltl.OpImplies:
			x = !l || r
		case ltl.OpIff:
			x = l == r
		case ltl.OpWeakNext, ltl.OpAlways, ltl.OpWeakUntil, ltl.OpRelease:
			x = true
		case ltl.OpEventually:
			x = rh && l
		case ltl.OpUntil:
			x = rh && r
		case ltl.OpStrongRelease:
			x = rh && l && r
		}
		v[n] = x
	}
	return v
}

// lastValue is the value of X f or N f at the last event: under LTLf false
// and true (there is no next position); under RosuHavelund f's value at the
// empty suffix.
func (g *generator) lastValue(n ltl.Formula, end map[ltl.Formula]bool) bool {
	if g.opts.Semantics == ltl.RosuHavelund {
		return end[n.Left()]
	}
	return n.Op() == ltl.OpWeakNext
}
