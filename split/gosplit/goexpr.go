package gosplit

import (
	"go/ast"
	"go/constant"
	gotoken "go/token"
	"go/types"

	"github.com/henceforth-go/henceforth/split"
)

// This file translates Go expressions of a goroutine function (and of
// //ltl: props) into expressions over the compiled variables.

// typeOf returns the type and constant value of e.
func (c *gcompiler) typeOf(e ast.Expr) types.TypeAndValue {
	if tv, ok := c.synth[e]; ok {
		return tv
	}
	return c.info.Types[e]
}

func ref(v *gvar) gexpr   { return func(env gEnv) split.Expr { return split.Ref(env[v]) } }
func constB(b bool) gexpr { return func(gEnv) split.Expr { return split.Bool(b) } }
func constI(k int) gexpr  { return func(gEnv) split.Expr { return split.Int(k) } }
func not(e gexpr) gexpr   { return func(env gEnv) split.Expr { return split.Not(e(env)) } }

// expr translates e; shared variables in sub are read from their
// temporaries. Identifiers resolve with c.info (or c.synth); local
// variables must have been declared. With a nil sub it also serves to
// check e before any location is built.
func (c *gcompiler) expr(e ast.Expr, sub map[*gvar]*gvar) (gexpr, error) {
	tv := c.typeOf(e)
	if tv.Value != nil {
		switch tv.Value.Kind() {
		case constant.Bool:
			return constB(constant.BoolVal(tv.Value)), nil
		case constant.Int:
			k, exact := constant.Int64Val(tv.Value)
			if !exact || k > 1<<30 || k < -(1<<30) {
				return nil, c.errAt(e.Pos(), split.ErrUnsupported, "constant %s is too large", tv.Value)
			}
			return constI(int(k)), nil
		}
		return nil, c.errAt(e.Pos(), split.ErrUnsupported, "constant %s of type %s (only booleans and integers)", tv.Value, tv.Type)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return c.expr(e.X, sub)
	case *ast.Ident:
		obj, _ := c.info.Uses[e].(*types.Var)
		if obj == nil {
			return nil, c.errAt(e.Pos(), split.ErrUnsupported, "%s is not a variable", e.Name)
		}
		var v *gvar
		if obj.Parent() == c.pkg.Scope() {
			var err error
			if v, err = c.sharedVar(obj, e.Pos()); err != nil {
				return nil, err
			}
			if v.mutex {
				return nil, c.errAt(e.Pos(), split.ErrUnsupported, "mutex %s used as a value", e.Name)
			}
			if v.ch != nil {
				return nil, c.errAt(e.Pos(), split.ErrUnsupported, "channel %s used as a value (only ch <- v, x := <-ch, x = <-ch and <-ch)", e.Name)
			}
			if t := sub[v]; t != nil {
				v = t
			}
		} else if v = c.locals[obj]; v == nil && c.fn.Scope().Contains(obj.Pos()) {
			// A local of the function whose declaration comes later in
			// the compilation (statements are compiled last to first).
			var err error
			if v, err = c.declareLocal(obj, obj.Pos()); err != nil {
				return nil, err
			}
		} else if v == nil {
			return nil, c.errAt(e.Pos(), split.ErrUnsupported, "%s is not a variable of the goroutine function or a package-level variable", e.Name)
		}
		return ref(v), nil
	case *ast.UnaryExpr:
		if e.Op == gotoken.ARROW {
			return nil, c.errAt(e.Pos(), split.ErrUnsupported, "receive %s inside an expression (only as a statement: x := <-ch, x = <-ch, <-ch)", types.ExprString(e))
		}
		x, err := c.expr(e.X, sub)
		if err != nil {
			return nil, err
		}
		switch e.Op {
		case gotoken.NOT:
			return not(x), nil
		case gotoken.SUB:
			return func(env gEnv) split.Expr { return split.Neg(x(env)) }, nil
		case gotoken.ADD:
			return x, nil
		}
		return nil, c.errAt(e.OpPos, split.ErrUnsupported, "operator %s", e.Op)
	case *ast.BinaryExpr:
		x, err := c.expr(e.X, sub)
		if err != nil {
			return nil, err
		}
		y, err := c.expr(e.Y, sub)
		if err != nil {
			return nil, err
		}
		isBool := false
		if b, ok := c.typeOf(e.X).Type.Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 {
			isBool = true
		}
		bin := func(f func(a, b split.Expr) split.Expr) gexpr {
			return func(env gEnv) split.Expr { return f(x(env), y(env)) }
		}
		switch e.Op {
		case gotoken.LAND:
			return bin(func(a, b split.Expr) split.Expr { return split.And(a, b) }), nil
		case gotoken.LOR:
			return bin(func(a, b split.Expr) split.Expr { return split.Or(a, b) }), nil
		case gotoken.EQL:
			if isBool {
				return bin(split.Iff), nil
			}
			return bin(split.Eq), nil
		case gotoken.NEQ:
			if isBool {
				return bin(split.Xor), nil
			}
			return bin(split.Ne), nil
		case gotoken.LSS:
			return bin(split.Lt), nil
		case gotoken.LEQ:
			return bin(split.Le), nil
		case gotoken.GTR:
			return bin(split.Gt), nil
		case gotoken.GEQ:
			return bin(split.Ge), nil
		case gotoken.ADD:
			return bin(split.Add), nil
		case gotoken.SUB:
			return bin(split.Sub), nil
		case gotoken.MUL:
			if c.typeOf(e.X).Value == nil && c.typeOf(e.Y).Value == nil {
				return nil, c.errAt(e.OpPos, split.ErrUnsupported, "multiplication of two variables")
			}
			return bin(split.Mul), nil
		}
		return nil, c.errAt(e.OpPos, split.ErrUnsupported, "operator %s", e.Op)
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && len(e.Args) == 1 {
			if _, ok := c.info.Uses[id].(*types.Builtin); ok && (id.Name == "len" || id.Name == "cap") {
				if _, ok := c.typeOf(e.Args[0]).Type.Underlying().(*types.Chan); ok {
					return nil, c.errAt(e.Pos(), split.ErrUnsupported, "%s of channel %s (an unbuffered channel holds no values)", id.Name, types.ExprString(e.Args[0]))
				}
			}
		}
		return nil, c.errAt(e.Pos(), split.ErrUnsupported, "call of %s in an expression", types.ExprString(e.Fun))
	case *ast.SelectorExpr:
		return nil, c.errAt(e.Pos(), split.ErrUnsupported, "selector %s (only variables of the package and of the goroutine function)", types.ExprString(e))
	case *ast.IndexExpr:
		return nil, c.errAt(e.Pos(), split.ErrUnsupported, "index expression %s", types.ExprString(e))
	case *ast.StarExpr:
		return nil, c.errAt(e.Pos(), split.ErrUnsupported, "pointer indirection %s", types.ExprString(e))
	}
	return nil, c.errAt(e.Pos(), split.ErrUnsupported, "expression %s", types.ExprString(e))
}
