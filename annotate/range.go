package annotate

import (
	"fmt"
	"go/token"
	"go/types"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// This file binds //ltl:range NAME LO..HI: a promise that an integer
// variable (or every value a channel of integers carries) stays within
// LO..HI, which finite-state analyses (package split) rely on and check.

// A Range is the value range that a //ltl:range directive gives a variable.
type Range struct {
	// Var is the variable: a package-level variable, a parameter or a
	// local, of an integer type or a channel type with an integer element.
	Var *types.Var
	// Lo and Hi are the bounds, inclusive; Lo ≤ Hi, and both are values
	// of the variable's (element) type.
	Lo, Hi int64
	// Pos is the position of the directive's "//".
	Pos token.Pos
}

// Range returns the range given to v, or nil.
func (p *Package) Range(v *types.Var) *Range {
	for _, r := range p.Ranges {
		if r.Var == v {
			return r
		}
	}
	return nil
}

// bindRange binds //ltl:range NAME LO..HI. NAME is looked up in the scope
// where the directive stands; inside a function body, a directive on the
// line before a declaration names the variable that line declares.
func (b *builder) bindRange(p *placed) {
	if p.inSpecFile {
		b.fail(p, 0, KindPlacement, "not allowed in a spec file: a range bounds a variable in Go source")
		return
	}
	ws := words(p.arg)
	if len(ws) != 2 {
		b.fail(p, p.argOff, KindSyntax, "want a variable and a range, as in //ltl:range NAME LO..HI")
		return
	}
	name, rng := ws[0], ws[1]
	if !isIdent(name.text) {
		b.fail(p, p.argOff+name.off, KindSyntax, "invalid variable name %q: want an identifier", name.text)
		return
	}
	lo, hi, off, msg := parseRange(rng.text)
	if msg != "" {
		b.fail(p, p.argOff+rng.off+off, KindSyntax, "%s (want LO..HI, as in 0..7)", msg)
		return
	}
	if lo > hi {
		b.fail(p, p.argOff+rng.off, KindType, "empty range %d..%d", lo, hi)
		return
	}
	obj := b.lookup(name.text, p.scopePos)
	if obj == nil && p.inBody {
		obj = b.declaredOnNextLine(name.text, p.start)
	}
	namePos := p.argOff + name.off
	if obj == nil {
		b.fail(p, namePos, KindUnresolved, "unknown variable %q", name.text)
		return
	}
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() {
		b.fail(p, namePos, KindType, "%s is %s, not a variable", name.text, objectKind(obj))
		return
	}
	typ := v.Type().Underlying()
	what := "values of " + name.text
	if ch, isChan := typ.(*types.Chan); isChan {
		typ = ch.Elem().Underlying()
		what = "values sent on " + name.text
	}
	basic, ok := typ.(*types.Basic)
	if !ok || basic.Info()&types.IsInteger == 0 {
		b.fail(p, namePos, KindType, "%s has type %s: a range bounds an integer variable or a channel of integers (booleans and mutexes are finite already)",
			name.text, types.TypeString(v.Type(), types.RelativeTo(b.tpkg)))
		return
	}
	if min, max, ok := intBounds(basic); ok && (lo < min || uint64(hi) > max && hi >= 0) {
		b.fail(p, p.argOff+rng.off, KindType, "%s cannot be %d..%d: type %s holds %d..%d", what, lo, hi, basic.Name(), min, max)
		return
	}
	for _, r := range b.out.Ranges {
		if r.Var == v {
			b.fail(p, namePos, KindDuplicate, "%s already has a range by the directive at %s", name.text, b.where(r.Pos))
			return
		}
	}
	b.out.Ranges = append(b.out.Ranges, &Range{Var: v, Lo: lo, Hi: hi, Pos: p.start})
}

// parseRange reads LO..HI; on failure it returns the offset of the problem
// in s and a message.
func parseRange(s string) (lo, hi int64, off int, msg string) {
	los, his, ok := strings.Cut(s, "..")
	if !ok {
		return 0, 0, 0, fmt.Sprintf("invalid range %q", s)
	}
	lo, err := strconv.ParseInt(los, 10, 64)
	if err != nil {
		return 0, 0, 0, fmt.Sprintf("invalid lower bound %q", los)
	}
	hi, err = strconv.ParseInt(his, 10, 64)
	if err != nil {
		return 0, 0, len(los) + 2, fmt.Sprintf("invalid upper bound %q", his)
	}
	return lo, hi, 0, ""
}

// intBounds returns the values an integer type holds (max as uint64, so
// that uint64 fits), and false for untyped or unknown kinds.
func intBounds(t *types.Basic) (min int64, max uint64, ok bool) {
	bits := map[types.BasicKind]int{
		types.Int: 64, types.Int8: 8, types.Int16: 16, types.Int32: 32, types.Int64: 64,
		types.Uint: 64, types.Uint8: 8, types.Uint16: 16, types.Uint32: 32, types.Uint64: 64, types.Uintptr: 64,
	}[t.Kind()]
	if bits == 0 {
		return 0, 0, false
	}
	if t.Info()&types.IsUnsigned != 0 {
		return 0, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1)).Uint64(), true
	}
	if bits == 64 {
		return math.MinInt64, math.MaxInt64, true
	}
	return -1 << (bits - 1), 1<<(bits-1) - 1, true
}

// declaredOnNextLine returns the variable called name that a declaration
// on the line after the directive at pos declares, or nil.
func (b *builder) declaredOnNextLine(name string, pos token.Pos) types.Object {
	if b.info == nil {
		return nil
	}
	next := b.fset.Position(pos)
	var best types.Object
	for id, obj := range b.info.Defs {
		if id.Name != name || obj == nil {
			continue
		}
		at := b.fset.Position(id.Pos())
		if at.Filename == next.Filename && at.Line == next.Line+1 && (best == nil || id.Pos() < best.Pos()) {
			best = obj
		}
	}
	return best
}

// objectKind describes a non-variable object for messages.
func objectKind(obj types.Object) string {
	switch o := obj.(type) {
	case *types.Const:
		return "a constant"
	case *types.TypeName:
		return "a type"
	case *types.Func:
		return "a function"
	case *types.PkgName:
		return "a package"
	case *types.Var:
		if o.IsField() {
			return "a field"
		}
	}
	return "not a variable"
}
