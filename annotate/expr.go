package annotate

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"strings"
)

// This file type-checks the Go text of directives: boolean expressions for
// props and atoms, and function names for events.
//
// Positions: the text is parsed in a private FileSet whose only real file
// starts at the very token.Pos the text has in the package's FileSet. The
// parsed nodes therefore carry positions that are valid in the package's
// FileSet, pointing into the comment, and go/types reports errors at the
// right column without any translation.

// parseExprAt parses src, which stands at pos in the package's FileSet.
func parseExprAt(src string, pos token.Pos) (ast.Expr, *problem) {
	fs := token.NewFileSet()
	if pos > 1 {
		fs.AddFile("", -1, int(pos)-2) // the next file starts at base 1+(pos-2)+1 = pos
	}
	// Newlines (from multi-line spec-file directives) would insert
	// semicolons; they are spaces here, which keeps every offset.
	flat := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, src)
	e, err := parser.ParseExprFrom(fs, "", flat, parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			msg := strings.ReplaceAll(list[0].Msg, "'EOF'", "end of expression")
			return nil, &problem{pos: pos + token.Pos(list[0].Pos.Offset), kind: KindSyntax, msg: "syntax error: " + msg, err: err}
		}
		return nil, &problem{pos: pos, kind: KindSyntax, msg: "syntax error: " + err.Error(), err: err}
	}
	return e, nil
}

// typeCheck type-checks e in the scope at scopePos.
func (b *builder) typeCheck(e ast.Expr, scopePos token.Pos) (info *types.Info, pr *problem) {
	info = &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	defer func() {
		// go/types is not meant to panic, but a directive is user input:
		// turn a crash into a positioned error.
		if r := recover(); r != nil {
			info, pr = nil, &problem{pos: e.Pos(), kind: KindType, msg: fmt.Sprintf("internal error type-checking %s: %v", types.ExprString(e), r)}
		}
	}()
	if err := types.CheckExpr(b.fset, b.tpkg, scopePos, e, info); err != nil {
		var te types.Error
		if errors.As(err, &te) && te.Pos.IsValid() {
			return nil, &problem{pos: te.Pos, kind: KindType, msg: te.Msg, err: err}
		}
		return nil, &problem{pos: e.Pos(), kind: KindType, msg: err.Error(), err: err}
	}
	return info, nil
}

// boolExpr parses and checks a Go boolean expression without side effects,
// written at pos and evaluated in the scope at scopePos, inside function fn
// (nil at package level).
func (b *builder) boolExpr(src string, pos, scopePos token.Pos, fn *types.Func) (*Expr, *problem) {
	e, pr := parseExprAt(src, pos)
	if pr != nil {
		return nil, pr
	}
	info, pr := b.typeCheck(e, scopePos)
	if pr != nil {
		return nil, pr
	}
	if pr := sideEffect(e, info); pr != nil {
		return nil, pr
	}
	text := types.ExprString(e)
	tv := info.Types[e]
	switch {
	case tv.IsType():
		return nil, &problem{pos: e.Pos(), kind: KindType, msg: fmt.Sprintf("%s is a type, not a boolean expression", text)}
	case tv.Type == nil || tv.IsVoid() || tv.IsBuiltin():
		return nil, &problem{pos: e.Pos(), kind: KindType, msg: fmt.Sprintf("%s is not a boolean expression", text)}
	case !isBool(tv.Type):
		return nil, &problem{pos: e.Pos(), kind: KindType, msg: fmt.Sprintf("%s has type %s, not bool", text, types.TypeString(tv.Type, types.RelativeTo(b.tpkg)))}
	case tv.Value != nil:
		return nil, &problem{pos: e.Pos(), kind: KindType, msg: fmt.Sprintf("%s is the constant %s: a prop must depend on the program's state", text, tv.Value)}
	}
	return &Expr{Src: src, AST: e, Info: info, Scope: b.scopeAt(scopePos), Func: fn}, nil
}

func isBool(t types.Type) bool {
	basic, ok := t.Underlying().(*types.Basic)
	return ok && basic.Info()&types.IsBoolean != 0
}

// pureBuiltins are the builtins a prop may call: they read, never write.
var pureBuiltins = map[string]bool{"len": true, "cap": true, "min": true, "max": true, "real": true, "imag": true, "complex": true}

// sideEffect returns a problem for the first construct in e that could
// change the program's state or block: a call of anything but a pure
// builtin or a conversion, a channel receive, a function literal.
func sideEffect(e ast.Expr, info *types.Info) *problem {
	var pr *problem
	ast.Inspect(e, func(n ast.Node) bool {
		if pr != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			fun := ast.Unparen(n.Fun)
			if _, lit := fun.(*ast.FuncLit); lit {
				return true // reported below
			}
			tv := info.Types[fun]
			if tv.IsType() {
				return true // a conversion
			}
			if id, ok := fun.(*ast.Ident); ok && tv.IsBuiltin() && pureBuiltins[id.Name] {
				return true
			}
			pr = &problem{pos: n.Pos(), kind: KindType, msg: fmt.Sprintf(
				"call of %s is not allowed: it may have side effects (a prop may call only len, cap, min, max, real, imag, complex and conversions)", types.ExprString(n.Fun))}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				pr = &problem{pos: n.Pos(), kind: KindType, msg: fmt.Sprintf("receive %s is not allowed: it has side effects", types.ExprString(n))}
			}
		case *ast.FuncLit:
			pr = &problem{pos: n.Pos(), kind: KindType, msg: "function literal is not allowed in a prop"}
		}
		return pr == nil
	})
	return pr
}

// resolveFunc resolves the function an event names: F, pkg.F, T.M, (*T).M,
// pkg.T.M or (*pkg.T).M, possibly instantiated (F[int]), in the scope at
// scopePos.
func (b *builder) resolveFunc(src string, pos, scopePos token.Pos) (*types.Func, *problem) {
	e, pr := parseExprAt(src, pos)
	if pr != nil {
		return nil, pr
	}
	info, pr := b.typeCheck(e, scopePos)
	if pr != nil {
		pr.kind = KindUnresolved
		return nil, pr
	}
	text := types.ExprString(e)
	x := ast.Unparen(e)
	switch ix := x.(type) {
	case *ast.IndexExpr:
		x = ast.Unparen(ix.X)
	case *ast.IndexListExpr:
		x = ast.Unparen(ix.X)
	}
	var obj types.Object
	switch x := x.(type) {
	case *ast.Ident:
		obj = info.Uses[x]
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			if sel.Kind() == types.MethodVal {
				return nil, &problem{pos: e.Pos(), kind: KindUnresolved, msg: fmt.Sprintf(
					"%s is a method value: name the method through its type, as %s", text, methodExprHint(sel, b.tpkg))}
			}
			obj = sel.Obj()
		} else {
			obj = info.Uses[x.Sel]
		}
	default:
		return nil, &problem{pos: e.Pos(), kind: KindSyntax, msg: fmt.Sprintf(
			"%s does not name a function: want F, pkg.F, T.M or (*T).M", text)}
	}
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Origin(), nil
	case *types.Var:
		if obj.IsField() {
			return nil, &problem{pos: e.Pos(), kind: KindUnresolved, msg: fmt.Sprintf("%s is a field, not a method", text)}
		}
		return nil, &problem{pos: e.Pos(), kind: KindUnresolved, msg: fmt.Sprintf("%s is a variable, not a function: events name functions and methods", text)}
	case *types.Builtin:
		return nil, &problem{pos: e.Pos(), kind: KindUnresolved, msg: fmt.Sprintf("%s is a builtin, not a function", text)}
	case nil:
		return nil, &problem{pos: e.Pos(), kind: KindUnresolved, msg: fmt.Sprintf("%s does not name a function", text)}
	default:
		return nil, &problem{pos: e.Pos(), kind: KindUnresolved, msg: fmt.Sprintf("%s is a %s, not a function", text, objKind(obj))}
	}
}

// methodExprHint spells the method expression for a method value's method.
func methodExprHint(sel *types.Selection, pkg *types.Package) string {
	fn := sel.Obj().(*types.Func)
	recv := fn.Type().(*types.Signature).Recv().Type()
	q := types.RelativeTo(pkg)
	if ptr, ok := recv.(*types.Pointer); ok {
		return "(*" + types.TypeString(ptr.Elem(), q) + ")." + fn.Name()
	}
	return types.TypeString(recv, q) + "." + fn.Name()
}

func objKind(obj types.Object) string {
	switch obj.(type) {
	case *types.TypeName:
		return "type"
	case *types.Const:
		return "constant"
	case *types.PkgName:
		return "package"
	case *types.Label:
		return "label"
	}
	return "name"
}
