package explore

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"strings"
	"unsafe"

	"github.com/henceforth-go/henceforth/annotate"
	"github.com/henceforth-go/henceforth/symbolic"
	"golang.org/x/tools/go/ssa"
)

// This file evaluates state predicates: the Go boolean expressions of
// //ltl:prop directives and quoted spec atoms, read directly from the
// interpreter's memory (no code runs, so evaluation has no side effects and
// never schedules).
//
// Supported forms: constants (anything the type checker folds), package-
// level variables of any package, field selection (through pointers, with
// embedded fields), indexing of arrays, slices and strings, *p, the
// operators ! - + ^ && || == != < <= > >= + - * / % & | ^ &^ << >> on
// booleans, integers, floats and strings (== and != also on pointers,
// channels, maps, funcs and interfaces against nil, and pointers and
// channels against each other), len and cap of strings, arrays, slices,
// maps and channels, and conversions between numeric types. Everything else
// — local variables and parameters (the expression would need a frame),
// map indexing, method values, composite comparisons — is rejected when the
// predicate is prepared, with the position of the construct; the spec is
// then reported as an unsupported finding, never silently skipped.
//
// Symbolic values (symbolic.go). In a symbolic exploration a boolean or
// integer read from memory may be symbolic (its Value's p word holds a
// *symTerm). The operators above then build terms (symbolic.BinOp,
// UnOp, Convert) as the compiled code does, and a predicate whose value
// is a symbolic boolean is decided by the solver on the current path
// condition (the Java thesis's "symbolic mode" of atoms, decided by its
// automaton choice generator): if one outcome is feasible it is the
// predicate's value; if both are, the path forks at a choice point of
// kind branch exactly like an if on a symbolic condition (explored by
// every strategy, recorded in replay tokens), and each side assumes its
// outcome. A possible integer division by zero or negative shift forks
// the same way; its panicking side is an evaluation error, as in a
// concrete run. A symbolic index, or a conversion of a symbolic value to
// a float, is unsupported (never concretized: that would silently drop
// inputs from the check).

// predicate is a prepared state predicate.
type predicate struct {
	expr    *annotate.Expr
	globals map[*types.Var]*ssa.Global
	// watchSet is what its evaluation reads (predwatch.go): which
	// writes and channel operations can change its value.
	watchSet
}

// newPredicate checks that e uses only supported forms and resolves its
// package-level variables.
func (p *Program) newPredicate(e *annotate.Expr, fset *token.FileSet) (*predicate, error) {
	pr := &predicate{expr: e, globals: map[*types.Var]*ssa.Global{}}
	var err error
	ast.Inspect(e.AST, func(n ast.Node) bool {
		if err != nil || n == nil {
			return false
		}
		if tv, ok := e.Info.Types[n.(ast.Expr)]; ok && tv.Value != nil {
			return false // folded constant
		}
		fail := func(format string, args ...any) {
			err = fmt.Errorf("%s: state predicate %q: %s", fset.Position(n.Pos()), e.Src, fmt.Sprintf(format, args...))
		}
		switch n := n.(type) {
		case *ast.Ident:
			switch obj := e.Info.Uses[n].(type) {
			case *types.Var:
				if obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
					if !obj.IsField() {
						fail("local variable or parameter %s is not supported (only package-level variables)", n.Name)
					}
					return false
				}
				sp := p.SSA.Package(obj.Pkg())
				if sp == nil {
					fail("package %s of variable %s is not loaded", obj.Pkg().Path(), n.Name)
					return false
				}
				g := sp.Var(obj.Name())
				if g == nil {
					fail("variable %s has no SSA global", n.Name)
					return false
				}
				pr.globals[obj] = g
			case *types.Nil, *types.PkgName, *types.Builtin, *types.TypeName, *types.Const:
			case nil:
			default:
				fail("%s is not supported", n.Name)
			}
		case *ast.ParenExpr, *ast.StarExpr, *ast.BasicLit:
		case *ast.UnaryExpr:
			switch n.Op {
			case token.NOT, token.SUB, token.ADD, token.XOR:
			default:
				fail("operator %s is not supported", n.Op)
			}
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				break
			}
			xt := e.Info.TypeOf(n.X).Underlying()
			yt := e.Info.TypeOf(n.Y).Underlying()
			if !comparableScalar(xt) || !comparableScalar(yt) {
				fail("comparison of %s and %s is not supported", e.Info.TypeOf(n.X), e.Info.TypeOf(n.Y))
			}
		case *ast.SelectorExpr:
			if sel, ok := e.Info.Selections[n]; ok {
				if sel.Kind() != types.FieldVal {
					fail("method value %s is not supported", n.Sel.Name)
				}
				return true
			}
			// a qualified identifier pkg.Name
		case *ast.IndexExpr:
			if _, ok := e.Info.TypeOf(n.X).Underlying().(*types.Map); ok {
				fail("map indexing is not supported")
			}
		case *ast.CallExpr:
			if tv := e.Info.Types[n.Fun]; tv.IsType() {
				if !isNumeric(tv.Type) || len(n.Args) != 1 || !isNumeric(e.Info.TypeOf(n.Args[0])) {
					fail("conversion to %s is not supported (only numeric conversions)", tv.Type)
				}
				break
			}
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if b, ok := e.Info.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
					break
				}
			}
			fail("call %s is not supported (only len, cap and numeric conversions)", types.ExprString(n.Fun))
		default:
			fail("%T is not supported", n)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	pr.collectReads()
	return pr, nil
}

func isNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// comparableScalar reports whether == on values of t is supported.
func comparableScalar(t types.Type) bool {
	switch t.(type) {
	case *types.Basic:
		return true
	case *types.Pointer, *types.Chan, *types.Map, *types.Signature, *types.Interface, *types.Slice:
		return true
	}
	return false
}

// pval is an evaluated operand: a scalar value, or the address of an
// aggregate (structs and arrays are flattened in memory).
type pval struct {
	rt  *rtype
	v   Value
	obj *object // aggregates: where the value lives
	off int
}

// predErr is an evaluation failure (nil dereference, index out of range).
type predErr struct{ msg string }

// predStop aborts an evaluation whose execution stopped while deciding a
// symbolic value (solver unknown, replay divergence).
type predStop struct{}

// errPredStopped is returned by eval when the execution stopped: the
// caller reports nothing (the execution records why it stopped).
var errPredStopped = fmt.Errorf("state predicate: the execution stopped")

// predEval is one evaluation: the execution, and the goroutine at whose
// step a symbolic decision forks.
type predEval struct {
	x *execution
	g *goroutine
	// guards are the symbolic conditions under which the operand being
	// evaluated is reached (the left operands of enclosing && and ||):
	// Go does not evaluate the right operand when the left decides, so a
	// failure there (division by zero…) happens only under them.
	guards []symbolic.Value
	// rec, if not nil, records what the evaluation read (predMemo).
	rec *predMemo
}

// predMemo is the last value of a predicate on a path and everything its
// evaluation read: the cells (whose words determine the values, symbolic
// terms included) and the lengths of maps and channels. The value is
// the same while none of them changed (for a symbolic predicate, the
// outcome decided on the path stays implied by its path condition), so
// the predicate is not evaluated again (and not decided again).
type predMemo struct {
	valid bool
	val   bool
	cells []cellRead
	lens  []lenRead
}

type cellRead struct {
	o   *object
	off int
	v   Value
}

type lenRead struct {
	p    unsafe.Pointer // *mapObject or *chanObject
	kind kind
	cap  bool
	n    int
}

// unchanged reports whether everything the memo's evaluation read still
// has the value it read.
func (pm *predMemo) unchanged() bool {
	if !pm.valid {
		return false
	}
	for _, c := range pm.cells {
		if c.o.cells[c.off] != c.v {
			return false
		}
	}
	for _, l := range pm.lens {
		var n int
		switch {
		case l.kind == kMap:
			n = (*mapObject)(l.p).len()
		case l.cap:
			n = (*chanObject)(l.p).capacity()
		default:
			n = (*chanObject)(l.p).length()
		}
		if n != l.n {
			return false
		}
	}
	return true
}

// evalMemo evaluates the predicate unless memo shows nothing it read
// changed; it records the evaluation in memo.
func (pr *predicate) evalMemo(x *execution, g *goroutine, memo *predMemo) (bool, error) {
	if memo.unchanged() {
		return memo.val, nil
	}
	memo.valid = false
	memo.cells, memo.lens = memo.cells[:0], memo.lens[:0]
	v, err := pr.evalWith(x, g, memo)
	if err == nil {
		memo.valid, memo.val = true, v
	}
	return v, err
}

// eval evaluates the predicate in the current state of x. A symbolic
// value is decided on the path condition (forking at g's step when both
// outcomes are feasible); if that stops the execution the error is
// errPredStopped.
func (pr *predicate) eval(x *execution, g *goroutine) (ok bool, err error) {
	return pr.evalWith(x, g, nil)
}

// evalWith is eval recording what it reads in rec (if not nil).
func (pr *predicate) evalWith(x *execution, g *goroutine, rec *predMemo) (ok bool, err error) {
	ev := &predEval{x: x, g: g, rec: rec}
	defer func() {
		if r := recover(); r != nil {
			switch r := r.(type) {
			case predErr:
				err = fmt.Errorf("state predicate %q: %s", pr.expr.Src, r.msg)
			case unsupportedErr:
				err = fmt.Errorf("state predicate %q: unsupported: %s", pr.expr.Src, r.msg)
			case predStop:
				err = errPredStopped
			default:
				panic(r)
			}
		}
	}()
	v := pr.value(ev, pr.expr.AST)
	if c, ok := pr.symbolic(v); ok {
		b, forked := pr.decide(ev, c, "state predicate "+pr.expr.Src)
		if forked {
			x.note(g, pr.expr.AST.Pos(), "state predicate %s assumed %v: %s", pr.expr.Src, b, c)
		}
		return b, nil
	}
	return v.v.Bool(), nil
}

// symbolic returns the term of a symbolic boolean or integer operand.
func (pr *predicate) symbolic(v pval) (symbolic.Value, bool) {
	if v.v.p == nil || v.rt == nil || !(v.rt.kind == kBool || v.rt.kind.isInteger()) {
		return symbolic.Value{}, false
	}
	t, ok := symbolic.TypeOf(v.rt.T)
	if !ok {
		return symbolic.Value{}, false
	}
	s, ok := symOf(v.v, t)
	if !ok {
		unsupportedf("a symbolic value of another engine")
	}
	return s, true
}

// operand returns v as a symbolic.Value (concrete or symbolic).
func (pr *predicate) operand(v pval) symbolic.Value {
	if s, ok := pr.symbolic(v); ok {
		return s
	}
	t, ok := symbolic.TypeOf(v.rt.T)
	if !ok {
		unsupportedf("a symbolic operation on %s", v.rt)
	}
	s, _ := symOf(v.v, t)
	return s
}

// decide decides the symbolic bool c on the path condition (forking when
// both outcomes are feasible).
func (pr *predicate) decide(ev *predEval, c symbolic.Value, what string) (taken, forked bool) {
	x := ev.x
	if !x.m.symbolicMode() {
		unsupportedf("a symbolic value without the symbolic engine")
	}
	if ev.g == nil {
		unsupportedf("a symbolic value where no choice point can be made (scenario search)")
	}
	taken, forked, cc := x.symDecide(ev.g, pr.expr.AST.Pos(), c, what)
	if cc != ctrlNext {
		panic(predStop{})
	}
	return taken, forked
}

// reached returns the condition under which an operand evaluated with
// ev.guards is reached, conjoined with c.
func (ev *predEval) reached(c symbolic.Value) symbolic.Value {
	if len(ev.guards) == 0 {
		return c
	}
	return symbolic.And(append(append([]symbolic.Value(nil), ev.guards...), c)...)
}

// tryValue evaluates e, returning an evaluation failure (predErr) instead
// of panicking.
func (pr *predicate) tryValue(ev *predEval, e ast.Expr) (v pval, failed *predErr) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(predErr)
			if !ok {
				panic(r)
			}
			failed = &pe
		}
	}()
	return pr.value(ev, e), nil
}

// symResult wraps a term built by the symbolic package.
func symResult(rt *rtype, v symbolic.Value, err error) pval {
	if err != nil {
		unsupportedf("%v", err)
	}
	return pval{rt: rt, v: valueOfSym(v)}
}

func (pr *predicate) fail(format string, args ...any) {
	panic(predErr{fmt.Sprintf(format, args...)})
}

func (pr *predicate) value(ev *predEval, e ast.Expr) pval {
	info := pr.expr.Info
	m := ev.x.m
	tv := info.Types[e]
	if tv.Value != nil {
		rt := m.rtypeOf(tv.Type)
		if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			rt = m.rtypeOf(types.Default(tv.Type))
		}
		return pval{rt: rt, v: m.constOf(rt, tv.Value)}
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return pr.value(ev, e.X)
	case *ast.Ident:
		switch obj := info.Uses[e].(type) {
		case *types.Nil:
			return pval{rt: m.rtypeOf(types.Typ[types.UnsafePointer])}
		case *types.Var:
			o := m.global(pr.globals[obj])
			return pr.load(ev, m.rtypeOf(obj.Type()), o, 0)
		}
	case *ast.SelectorExpr:
		sel, ok := info.Selections[e]
		if !ok { // pkg.Var
			return pr.value(ev, e.Sel)
		}
		cur := pr.value(ev, e.X)
		for _, i := range sel.Index() {
			if cur.rt.kind == kPtr {
				if cur.v.p == nil {
					pr.fail("nil pointer dereference in %s", types.ExprString(e))
				}
				cur = pval{rt: cur.rt.elem, obj: cur.v.obj(), off: cur.v.off()}
			}
			f := cur.rt.fields[i]
			cur = pr.load(ev, f.t, cur.obj, cur.off+f.off)
		}
		return cur
	case *ast.StarExpr:
		p := pr.value(ev, e.X)
		if p.v.p == nil {
			pr.fail("nil pointer dereference in %s", types.ExprString(e))
		}
		return pr.load(ev, p.rt.elem, p.v.obj(), p.v.off())
	case *ast.IndexExpr:
		base := pr.value(ev, e.X)
		i := pr.value(ev, e.Index)
		if _, sym := pr.symbolic(i); sym {
			unsupportedf("a symbolic index in %s", types.ExprString(e))
		}
		idx := int64(i.v.a)
		if !i.rt.kind.isSigned() && i.v.a > math.MaxInt64 {
			idx = math.MaxInt64
		}
		switch base.rt.kind {
		case kString:
			s := base.v.Str()
			if idx < 0 || idx >= int64(len(s)) {
				pr.fail("index out of range [%d] with length %d", idx, len(s))
			}
			return pval{rt: m.rtypeOf(types.Typ[types.Byte]), v: uintV(uint64(s[idx]))}
		case kArray:
			if idx < 0 || idx >= int64(base.rt.len) {
				pr.fail("index out of range [%d] with length %d", idx, base.rt.len)
			}
			return pr.load(ev, base.rt.elem, base.obj, base.off+int(idx)*base.rt.elem.size)
		case kSlice:
			if idx < 0 || idx >= int64(base.v.sliceLen()) {
				pr.fail("index out of range [%d] with length %d", idx, base.v.sliceLen())
			}
			return pr.load(ev, base.rt.elem, base.v.obj(), base.v.off()+int(idx)*base.rt.elem.size)
		case kPtr: // pointer to array
			if base.v.p == nil {
				pr.fail("nil pointer dereference in %s", types.ExprString(e))
			}
			at := base.rt.elem
			if idx < 0 || idx >= int64(at.len) {
				pr.fail("index out of range [%d] with length %d", idx, at.len)
			}
			return pr.load(ev, at.elem, base.v.obj(), base.v.off()+int(idx)*at.elem.size)
		}
	case *ast.UnaryExpr:
		v := pr.value(ev, e.X)
		rt := m.rtypeOf(info.TypeOf(e))
		if a, sym := pr.symbolic(v); sym {
			if e.Op == token.ADD {
				return v
			}
			r, err := symbolic.UnOp(e.Op, a)
			return symResult(rt, r, err)
		}
		switch e.Op {
		case token.NOT:
			return pval{rt: rt, v: boolV(!v.v.Bool())}
		case token.ADD:
			return v
		case token.SUB:
			if rt.kind.isFloat() {
				return pval{rt: rt, v: floatV(-v.v.Float())}
			}
			return pval{rt: rt, v: Value{a: normValue(rt.kind, -v.v.a)}}
		case token.XOR:
			return pval{rt: rt, v: Value{a: normValue(rt.kind, ^v.v.a)}}
		}
	case *ast.BinaryExpr:
		return pr.binary(ev, e)
	case *ast.CallExpr:
		rt := m.rtypeOf(info.TypeOf(e))
		if tv := info.Types[e.Fun]; tv.IsType() {
			a := pr.value(ev, e.Args[0])
			if s, sym := pr.symbolic(a); sym {
				to, ok := symbolic.TypeOf(rt.T)
				if !ok {
					unsupportedf("conversion of a symbolic value to %s in %s", rt, types.ExprString(e))
				}
				r, err := symbolic.Convert(s, to)
				return symResult(rt, r, err)
			}
			return pval{rt: rt, v: convertNumeric(a, rt)}
		}
		name := ast.Unparen(e.Fun).(*ast.Ident).Name
		a := pr.value(ev, e.Args[0])
		if a.rt.kind == kPtr { // pointer to array
			a.rt = a.rt.elem
		}
		var n int
		switch a.rt.kind {
		case kString:
			n = len(a.v.Str())
		case kArray:
			n = a.rt.len
		case kSlice:
			n = a.v.sliceLen()
			if name == "cap" {
				n = a.v.sliceCap()
			}
		case kMap:
			if a.v.p != nil {
				n = a.v.mapObj().len()
			}
		case kChan:
			if ch := a.v.chanObj(); ch != nil {
				n = ch.length()
				if name == "cap" {
					n = ch.capacity()
				}
			}
		}
		if ev.rec != nil && (a.rt.kind == kMap || a.rt.kind == kChan) && a.v.p != nil {
			ev.rec.lens = append(ev.rec.lens, lenRead{a.v.p, a.rt.kind, name == "cap", n})
		}
		return pval{rt: rt, v: intV(int64(n))}
	}
	unsupportedf("expression %s", types.ExprString(e))
	return pval{}
}

// load reads a value of type rt at obj[off].
func (pr *predicate) load(ev *predEval, rt *rtype, obj *object, off int) pval {
	if rt.kind.isAggregate() {
		return pval{rt: rt, obj: obj, off: off}
	}
	v := obj.cells[off]
	if ev.rec != nil {
		ev.rec.cells = append(ev.rec.cells, cellRead{obj, off, v})
	}
	return pval{rt: rt, v: v}
}

func convertNumeric(v pval, to *rtype) Value {
	from := v.rt.kind
	switch {
	case to.kind.isFloat():
		switch {
		case from.isFloat():
			f := v.v.Float()
			if to.kind == kFloat32 {
				f = float64(float32(f))
			}
			return floatV(f)
		case from.isSigned():
			return floatV(float64(v.v.Int()))
		default:
			return floatV(float64(v.v.Uint()))
		}
	case from.isFloat():
		f := v.v.Float()
		if to.kind.isSigned() {
			return Value{a: normValue(to.kind, uint64(int64(f)))}
		}
		return Value{a: normValue(to.kind, uint64(f))}
	}
	return Value{a: normValue(to.kind, v.v.a)}
}

func (pr *predicate) binary(ev *predEval, e *ast.BinaryExpr) pval {
	x := ev.x
	info := pr.expr.Info
	rt := x.m.rtypeOf(info.TypeOf(e))
	if b, ok := info.TypeOf(e).Underlying().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		rt = x.m.rtypeOf(types.Default(info.TypeOf(e)))
	}
	switch e.Op {
	case token.LAND, token.LOR:
		lv := pr.value(ev, e.X)
		if a, sym := pr.symbolic(lv); sym {
			// Go evaluates the right operand only when a does not
			// decide: under reach.
			reach := a
			if e.Op == token.LOR {
				reach = symbolic.Not(a)
			}
			ev.guards = append(ev.guards, reach)
			rv, failed := pr.tryValue(ev, e.Y)
			ev.guards = ev.guards[:len(ev.guards)-1]
			if failed != nil {
				// The right operand cannot be evaluated: the predicate
				// fails where it is reached, else a decides.
				if fails, _ := pr.decide(ev, ev.reached(reach), "the evaluation of "+types.ExprString(e.Y)+" in state predicate "+pr.expr.Src); fails {
					panic(*failed)
				}
				return pval{rt: rt, v: boolV(e.Op == token.LOR)}
			}
			r, err := symbolic.BinOp(e.Op, a, pr.operand(rv))
			return symResult(rt, r, err)
		}
		l := lv.v.Bool()
		if l == (e.Op == token.LOR) {
			return pval{rt: rt, v: boolV(l)}
		}
		rv := pr.value(ev, e.Y)
		if _, sym := pr.symbolic(rv); sym {
			return rv
		}
		return pval{rt: rt, v: boolV(rv.v.Bool())}
	}
	l, r := pr.value(ev, e.X), pr.value(ev, e.Y)
	if _, ls := pr.symbolic(l); ls {
		return pr.symBinary(ev, e, rt, l, r)
	}
	if _, rs := pr.symbolic(r); rs {
		return pr.symBinary(ev, e, rt, l, r)
	}
	k := l.rt.kind
	if info.Types[e.X].IsNil() {
		k = r.rt.kind
	}
	switch e.Op {
	case token.EQL, token.NEQ:
		var eq bool
		switch {
		case k == kString:
			eq = l.v.Str() == r.v.Str()
		case k.isFloat():
			eq = l.v.Float() == r.v.Float()
		case k.isComplex():
			eq = l.v.Complex() == r.v.Complex()
		case k == kBool || k.isInteger():
			eq = l.v.a == r.v.a
		case k == kIface && !info.Types[e.X].IsNil() && !info.Types[e.Y].IsNil():
			unsupportedf("comparison of interface values %s", types.ExprString(e))
		default: // references: identity (nil has p == nil)
			eq = l.v.p == r.v.p && (k != kPtr || l.v.a == r.v.a || l.v.p == nil)
		}
		return pval{rt: rt, v: boolV(eq == (e.Op == token.EQL))}
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		var c int
		switch {
		case k == kString:
			c = strings.Compare(l.v.Str(), r.v.Str())
		case k.isFloat():
			c = cmpOrd(l.v.Float(), r.v.Float())
		case k.isSigned():
			c = cmpOrd(l.v.Int(), r.v.Int())
		default:
			c = cmpOrd(l.v.Uint(), r.v.Uint())
		}
		var res bool
		switch e.Op {
		case token.LSS:
			res = c < 0
		case token.LEQ:
			res = c <= 0
		case token.GTR:
			res = c > 0
		default:
			res = c >= 0
		}
		return pval{rt: rt, v: boolV(res)}
	}
	// arithmetic
	switch {
	case rt.kind == kString && e.Op == token.ADD:
		return pval{rt: rt, v: strV(l.v.Str() + r.v.Str())}
	case rt.kind.isFloat():
		a, b := l.v.Float(), r.v.Float()
		var f float64
		switch e.Op {
		case token.ADD:
			f = a + b
		case token.SUB:
			f = a - b
		case token.MUL:
			f = a * b
		case token.QUO:
			f = a / b
		default:
			unsupportedf("operator %s on floats", e.Op)
		}
		if rt.kind == kFloat32 {
			f = float64(float32(f))
		}
		return pval{rt: rt, v: floatV(f)}
	case rt.kind.isInteger():
		a, b := l.v.a, r.v.a
		signed := rt.kind.isSigned()
		var z uint64
		switch e.Op {
		case token.ADD:
			z = a + b
		case token.SUB:
			z = a - b
		case token.MUL:
			z = a * b
		case token.QUO, token.REM:
			if b == 0 {
				pr.fail("integer divide by zero")
			}
			switch {
			case signed && e.Op == token.QUO:
				if int64(b) == -1 {
					z = -a
				} else {
					z = uint64(int64(a) / int64(b))
				}
			case signed:
				if int64(b) == -1 {
					z = 0
				} else {
					z = uint64(int64(a) % int64(b))
				}
			case e.Op == token.QUO:
				z = a / b
			default:
				z = a % b
			}
		case token.AND:
			z = a & b
		case token.OR:
			z = a | b
		case token.XOR:
			z = a ^ b
		case token.AND_NOT:
			z = a &^ b
		case token.SHL, token.SHR:
			s := b
			if r.rt.kind.isSigned() && int64(s) < 0 {
				pr.fail("negative shift amount")
			}
			switch {
			case e.Op == token.SHL:
				if s >= 64 {
					z = 0
				} else {
					z = a << s
				}
			case signed:
				z = uint64(int64(a) >> min(s, 63))
			default:
				if s >= 64 {
					z = 0
				} else {
					z = a >> s
				}
			}
		}
		return pval{rt: rt, v: Value{a: normValue(rt.kind, z)}}
	}
	unsupportedf("operator %s on %s", e.Op, rt)
	return pval{}
}

// symBinary evaluates a binary operation with a symbolic operand
// (booleans and integers only: other types are never symbolic). A
// possible division by zero or negative shift is decided first.
func (pr *predicate) symBinary(ev *predEval, e *ast.BinaryExpr, rt *rtype, l, r pval) pval {
	a, b := pr.operand(l), pr.operand(r)
	if cond, msg := symbolic.PanicCondition(e.Op, a, b); msg != "" {
		cond = ev.reached(cond)
		panics, known := cond.Bool()
		if !known {
			panics, _ = pr.decide(ev, cond, "the panic check of "+types.ExprString(e)+" in state predicate "+pr.expr.Src)
		}
		if panics {
			pr.fail("%s", strings.TrimPrefix(msg, "runtime error: "))
		}
	}
	v, err := symbolic.BinOp(e.Op, a, b)
	return symResult(rt, v, err)
}

func cmpOrd[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
