package annotate

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/henceforth-go/henceforth/ltl"
)

// This file binds placed directives to the program: names are declared,
// props and events resolved, specs parsed and their atoms bound, symbolic
// inputs found.

// bindAll binds every placed directive. Spec files come first, since they
// add directives; names are declared before anything uses them.
func (b *builder) bindAll() {
	for i := 0; i < len(b.dirs); i++ { // b.dirs grows while spec files are read
		if p := b.dirs[i]; p.verb == verbSpecFile {
			b.readSpecFile(p)
		}
	}
	for _, p := range b.dirs {
		if named(p.verb) {
			b.declare(p)
		}
		if p.verb == verbSpec {
			for _, u := range scanAtoms(p.arg) {
				if !u.quoted { // quoted atoms are Go, never props
					b.out.used[u.name] = true
				}
			}
		}
	}
	for _, p := range b.dirs {
		if p.dup {
			continue
		}
		switch p.verb {
		case verbProp:
			b.bindProp(p)
		case verbEvent:
			b.bindEvent(p)
		}
	}
	for _, p := range b.dirs {
		switch {
		case p.dup:
		case p.verb == verbSpec:
			b.bindSpec(p)
		case p.verb == verbSymbolic:
			b.bindSymbolic(p)
		case p.verb == verbRange:
			b.bindRange(p)
		}
	}
}

// declare records p's name, or reports that it is taken.
func (b *builder) declare(p *placed) {
	if prev, ok := b.names[p.name]; ok {
		p.dup = true
		b.fail(p, p.nameOff, KindDuplicate, "duplicate name: already declared by the ltl:%s at %s", prev.verb, b.where(prev.start))
		return
	}
	b.names[p.name] = p
}

// bindProp binds //ltl:prop NAME EXPR and //ltl:prop NAME call|return|go F.
func (b *builder) bindProp(p *placed) {
	prop := &Prop{Name: p.name, Pos: p.start}
	if kind, ref, off, ok := eventForm(p.arg); ok {
		fn, pr := b.resolveFunc(ref, p.pos(p.argOff+off), p.scopePos)
		if pr != nil {
			b.report(p, pr)
			b.bad[p.name] = true
			return
		}
		prop.Kind, prop.Func = kind, fn
	} else {
		e, pr := b.boolExpr(p.arg, p.pos(p.argOff), p.scopePos, p.fn)
		if pr != nil {
			b.report(p, pr)
			b.bad[p.name] = true
			return
		}
		prop.Kind, prop.Expr = StateProp, e
	}
	b.props[p.name] = prop
	b.out.Props = append(b.out.Props, prop)
}

// eventForm splits "call F", "return F" and "go F" into the event kind and
// the function reference with its offset in arg.
func eventForm(arg string) (kind PropKind, ref string, off int, ok bool) {
	for _, form := range []struct {
		word string
		kind PropKind
	}{{"call", CallEvent}, {"return", ReturnEvent}, {"go", GoEvent}} {
		if rest, found := strings.CutPrefix(arg, form.word); found && rest != "" && isSpace(rest[0]) {
			off = len(arg) - len(strings.TrimLeft(rest, " \t\r\n"))
			return form.kind, arg[off:], off, true
		}
	}
	return 0, "", 0, false
}

// bindEvent binds //ltl:event NAME to the statement it marks.
func (b *builder) bindEvent(p *placed) {
	switch {
	case p.inSpecFile:
		b.fail(p, 0, KindPlacement, "not allowed in a spec file: an event marks a statement in Go source")
	case p.stmt == nil && !p.inBody:
		b.fail(p, 0, KindPlacement, "attached to nothing: an event stands inside a function body, on the line before a statement or at the end of one (for calls of a function, use //ltl:prop %s call F)", p.name)
	case p.stmt == nil:
		b.fail(p, 0, KindPlacement, "attached to nothing: an event stands on the line before a statement (with no blank line between) or at the end of one")
	default:
		prop := &Prop{Name: p.name, Kind: StatementEvent, Pos: p.start, Func: p.fn, Stmt: p.stmt}
		b.props[p.name] = prop
		b.out.Props = append(b.out.Props, prop)
		return
	}
	b.bad[p.name] = true
}

// bindSpec parses a spec's formula and binds its atoms.
func (b *builder) bindSpec(p *placed) {
	f, err := ltl.Parse(p.arg)
	if err != nil {
		off := 0
		msg := err.Error()
		var se *ltl.SyntaxError
		if errors.As(err, &se) {
			off = se.Offset
			found := "end of formula"
			if se.Found != "" {
				found = fmt.Sprintf("%q", se.Found)
			}
			msg = fmt.Sprintf("expected %s, found %s", se.Expected, found)
		}
		b.errorf(p.pos(p.argOff+off), p.verb, p.name, KindSyntax, err, "syntax error: %s", msg)
		return
	}
	uses := scanAtoms(p.arg)
	// The scanner and the parser must agree on the atoms; if they ever do
	// not, bind the parser's atoms at the formula's start.
	seen := map[string]bool{}
	for _, u := range uses {
		seen[u.name] = true
	}
	for _, name := range f.Atoms() {
		if !seen[name] {
			uses = append(uses, atomUse{name: name, quoted: true, off: 0, escaped: true})
		}
	}
	atoms := map[string]*Prop{}
	ok := true
	for _, u := range uses {
		prop, pr := b.resolveAtom(p, u)
		switch {
		case pr != nil:
			b.report(p, pr)
			ok = false
			continue
		case prop == nil: // a prop with a problem of its own, already reported
			ok = false
			continue
		}
		// A name written both quoted and unquoted means one Go
		// expression: were the unquoted one a prop, the atom would be
		// ambiguous (resolveAtom), and the quoted one would not check.
		atoms[u.name] = prop
	}
	if !ok {
		return
	}
	b.out.Specs = append(b.out.Specs, &Spec{
		Name:      p.name,
		Pos:       p.start,
		Source:    p.arg,
		SourcePos: p.pos(p.argOff),
		Formula:   f,
		Atoms:     atoms,
	})
}

// resolveAtom binds one atom of spec p. It returns a nil Prop and nil
// problem for a declared prop whose own declaration has a problem.
func (b *builder) resolveAtom(p *placed, u atomUse) (*Prop, *problem) {
	pos := p.pos(p.argOff + u.off)
	if u.quoted {
		exprPos := pos + 1 // after the opening quote
		if u.escaped {
			exprPos = pos // escapes shift offsets; point at the quote
		}
		prop, pr := b.inlineProp(u.name, exprPos, p)
		if pr != nil && b.names[u.name] != nil && isIdent(u.name) {
			pr.msg += fmt.Sprintf(" (quoted atoms are Go expressions; write %s without quotes for the %s declared at %s)",
				u.name, b.names[u.name].verb, b.where(b.names[u.name].start))
		}
		return prop, pr
	}
	if decl := b.names[u.name]; decl != nil {
		if decl.verb == verbSpec {
			return nil, &problem{pos: pos, kind: KindUnresolved, msg: fmt.Sprintf(
				"%q is a spec, not a prop: a spec cannot be an atom of another spec", u.name)}
		}
		if b.bad[u.name] {
			return nil, nil
		}
		if obj := b.lookup(u.name, p.scopePos); obj != nil && obj.Parent() != types.Universe {
			if alt, pr := b.inlineProp(u.name, pos, p); pr == nil {
				return nil, &problem{pos: pos, kind: KindUnresolved, msg: fmt.Sprintf(
					"ambiguous atom %q: it is both the %s declared at %s and the Go expression %s (%s) in scope; rename the prop",
					u.name, decl.verb, b.where(decl.start), u.name, types.TypeString(alt.Expr.Info.Types[alt.Expr.AST].Type, types.RelativeTo(b.tpkg)))}
			}
		}
		return b.props[u.name], nil
	}
	if b.lookup(u.name, p.scopePos) == nil {
		msg := fmt.Sprintf("unknown proposition %q", u.name)
		if s := b.suggest(u.name); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return nil, &problem{pos: pos, kind: KindUnresolved, msg: msg}
	}
	return b.inlineProp(u.name, pos, p)
}

// lookup resolves the first identifier of a dotted atom name in the scope
// at pos.
func (b *builder) lookup(name string, pos token.Pos) types.Object {
	first, _, _ := strings.Cut(name, ".")
	_, obj := b.scopeAt(pos).LookupParent(first, pos)
	return obj
}

// inlineProp type-checks an atom of spec p as a Go boolean expression.
func (b *builder) inlineProp(src string, pos token.Pos, p *placed) (*Prop, *problem) {
	e, pr := b.boolExpr(src, pos, p.scopePos, p.fn)
	if pr != nil {
		return nil, pr
	}
	return &Prop{Name: src, Kind: StateProp, Pos: pos, Inline: true, Expr: e}, nil
}

// suggest returns the declared prop or event name closest to name, if one
// is close enough to be a likely typo.
func (b *builder) suggest(name string) string {
	best, bestDist := "", 3
	for cand, p := range b.names {
		if p.verb == verbSpec {
			continue
		}
		if d := editDistance(name, cand); d < bestDist || d == bestDist && best != "" && cand < best {
			if d < len(name) {
				best, bestDist = cand, d
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// bindSymbolic binds //ltl:symbolic [NAME…] to the parameters of the
// function, or the variables of the declaration, it documents.
func (b *builder) bindSymbolic(p *placed) {
	if p.inSpecFile {
		b.fail(p, 0, KindPlacement, "not allowed in a spec file: symbolic marks a function or variable in Go source")
		return
	}
	var cands []*types.Var
	var fn *types.Func
	var what string
	switch n := p.doc.(type) {
	case *ast.FuncDecl:
		fn = b.funcOf(n)
		if fn == nil {
			b.fail(p, 0, KindUnresolved, "no type information for function %s", n.Name.Name)
			return
		}
		params := fn.Type().(*types.Signature).Params()
		for i := range params.Len() {
			cands = append(cands, params.At(i))
		}
		what = "parameter of " + fn.Name()
		if len(cands) == 0 {
			b.fail(p, 0, KindPlacement, "function %s has no parameters to make symbolic", fn.Name())
			return
		}
	case *ast.GenDecl:
		for _, s := range n.Specs {
			cands = append(cands, b.varsOf(s.(*ast.ValueSpec))...)
		}
		what = "variable of this declaration"
	case *ast.ValueSpec:
		cands = b.varsOf(n)
		what = "variable of this declaration"
	default:
		b.fail(p, 0, KindPlacement, "attached to nothing: symbolic belongs in the doc comment of a function (for its parameters) or of a package-level var")
		return
	}
	if len(cands) == 0 {
		b.fail(p, 0, KindUnresolved, "no type information for the variables of this declaration")
		return
	}
	chosen := cands
	if p.arg != "" {
		chosen = nil
		for _, w := range words(p.arg) {
			var v *types.Var
			for _, c := range cands {
				if c.Name() == w.text {
					v = c
				}
			}
			if v == nil {
				b.fail(p, p.argOff+w.off, KindUnresolved, "%s is not a %s", w.text, what)
				continue
			}
			chosen = append(chosen, v)
		}
	}
	for _, v := range chosen {
		if prev, ok := b.symbolic[v]; ok {
			if prev == p.start {
				b.fail(p, 0, KindDuplicate, "%s is listed twice", v.Name())
			} else {
				b.fail(p, 0, KindDuplicate, "%s is already symbolic by the directive at %s", v.Name(), b.where(prev))
			}
			continue
		}
		b.symbolic[v] = p.start
		b.out.Symbolic = append(b.out.Symbolic, &Symbolic{Var: v, Func: fn, Pos: p.start})
	}
}

// varsOf returns the variables a var spec declares.
func (b *builder) varsOf(s *ast.ValueSpec) []*types.Var {
	var vars []*types.Var
	if b.info == nil {
		return nil
	}
	for _, id := range s.Names {
		if v, ok := b.info.Defs[id].(*types.Var); ok {
			vars = append(vars, v)
		}
	}
	return vars
}

// A word is a space-separated word of a directive's argument.
type word struct {
	text string
	off  int
}

func words(s string) []word {
	var ws []word
	for i := 0; i < len(s); {
		if isSpace(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		ws = append(ws, word{s[i:j], i})
		i = j
	}
	return ws
}

func isIdent(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentStart(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}
