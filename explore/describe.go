package explore

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// Reports name the memory an instruction accesses by the source
// expression that denotes it ("c.m", "s.items[n-1]", "r.names"), found at
// the SSA value's position in the syntax of the loaded user packages.
// When there is none (a value of the standard library, an implicit
// access such as a range's element), they name it from the SSA value:
// a variable's or field's name ("total", "racenames.hits",
// "field m of *Counter"), never an SSA register.

// describeAddr names the memory at address v for reports.
func (p *Program) describeAddr(v ssa.Value) string {
	if e := p.srcExpr(v); e != nil {
		return types.ExprString(e)
	}
	switch v := v.(type) {
	case *ssa.FieldAddr:
		st := v.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		name := st.Field(v.Field).Name()
		if base, ok := p.baseName(v.X); ok {
			return base + "." + name
		}
		return "field " + name + " of " + p.typeString(v.X.Type())
	case *ssa.IndexAddr:
		if base, ok := p.baseName(v.X); ok {
			return base + "[i]"
		}
		return "an element of " + p.typeString(v.X.Type())
	}
	if name, ok := p.nameOf(v); ok {
		return name
	}
	if _, ok := v.Type().Underlying().(*types.Pointer); ok {
		return "*(" + p.typeString(v.Type()) + ")"
	}
	return "memory"
}

// describeValue names a value operand (a map) for reports: the memory it
// was loaded from, if it was.
func (p *Program) describeValue(v ssa.Value) string {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		return p.describeAddr(u.X)
	}
	return p.describeAddr(v)
}

// accessLabel names an access for reports ("read c.m", "write total").
func (p *Program) accessLabel(addr ssa.Value, write bool) string {
	if write {
		return "write " + p.describeAddr(addr)
	}
	return "read " + p.describeAddr(addr)
}

// nameOf names the memory at address v without registers: by its source
// expression, or by the variable, parameter or field it is; false if it
// has no such name.
func (p *Program) nameOf(v ssa.Value) (string, bool) {
	if e := p.srcExpr(v); e != nil {
		return types.ExprString(e), true
	}
	switch v := v.(type) {
	case *ssa.Global:
		return v.Pkg.Pkg.Name() + "." + v.Name(), true
	case *ssa.FreeVar:
		return v.Name(), true // a captured variable
	case *ssa.Parameter:
		return "*" + v.Name(), true
	case *ssa.Alloc:
		if v.Comment != "" {
			return v.Comment, true
		}
	case *ssa.FieldAddr:
		if base, ok := p.baseName(v.X); ok {
			st := v.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
			return base + "." + st.Field(v.Field).Name(), true
		}
	case *ssa.IndexAddr:
		if base, ok := p.baseName(v.X); ok {
			return base + "[i]", true
		}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if base, ok := p.nameOf(v.X); ok {
				return "*" + base, true // through a pointer variable
			}
		}
	}
	return "", false
}

// baseName names x, the base of a field or element address, as Go
// writes it in a selector or index expression: a parameter or a pointer
// or slice loaded from a variable by the variable's name (c in c.m, s in
// s[i]), else as nameOf.
func (p *Program) baseName(x ssa.Value) (string, bool) {
	switch x := x.(type) {
	case *ssa.Parameter:
		return x.Name(), true
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if _, ok := p.srcExpr(x).(*ast.StarExpr); !ok {
				return p.nameOf(x.X)
			}
		}
	}
	return p.nameOf(x)
}

// srcExpr returns the expression of the user packages' syntax that the
// SSA value v stands for: the selector of a field address, the index
// expression of an element address, the explicit dereference of a load;
// nil if v is none of those or its position has no such expression.
func (p *Program) srcExpr(v ssa.Value) ast.Expr {
	pos := v.Pos()
	if !pos.IsValid() {
		return nil
	}
	var match func(n ast.Node) bool
	switch v := v.(type) {
	case *ssa.FieldAddr:
		st := v.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		name := st.Field(v.Field).Name()
		match = func(n ast.Node) bool {
			s, ok := n.(*ast.SelectorExpr)
			return ok && s.Sel.Pos() == pos && s.Sel.Name == name
		}
	case *ssa.IndexAddr:
		match = func(n ast.Node) bool {
			x, ok := n.(*ast.IndexExpr)
			return ok && x.Lbrack == pos
		}
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return nil
		}
		match = func(n ast.Node) bool {
			s, ok := n.(*ast.StarExpr)
			return ok && s.Star == pos
		}
	default:
		return nil
	}
	path := p.pathAt(pos)
	for _, n := range path {
		if match(n) {
			return n.(ast.Expr)
		}
		if _, ok := n.(ast.Stmt); ok {
			break // the expression is within the innermost statement
		}
	}
	return nil
}

// mapExpr returns the map operand of the map operation at pos in the
// user packages' syntax (m in m[k], delete(m, k), clear(m), range m),
// or nil.
func (p *Program) mapExpr(pos token.Pos) ast.Expr {
	if !pos.IsValid() {
		return nil
	}
	for _, n := range p.pathAt(pos) {
		switch n := n.(type) {
		case *ast.IndexExpr:
			if n.Lbrack == pos {
				return n.X
			}
		case *ast.CallExpr:
			if n.Lparen == pos && len(n.Args) > 0 {
				return n.Args[0]
			}
		case *ast.RangeStmt:
			if n.For == pos || n.Range == pos {
				return n.X
			}
		case *ast.KeyValueExpr:
			return nil // a map literal's entry
		}
	}
	return nil
}

// describeMap names the map of the operation at pos whose operand is m.
func (p *Program) describeMap(pos token.Pos, m ssa.Value) string {
	if e := p.mapExpr(pos); e != nil {
		return types.ExprString(e)
	}
	return p.describeValue(m)
}

// pathAt returns the syntax nodes enclosing pos in its file of the user
// packages, innermost first; nil if pos is in none of them.
func (p *Program) pathAt(pos token.Pos) []ast.Node {
	tf := p.Fset.File(pos)
	if tf == nil {
		return nil
	}
	f := p.files[tf]
	if f == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(f, pos, pos)
	return path
}

// typeString writes t qualified by package names.
func (p *Program) typeString(t types.Type) string {
	return types.TypeString(t, func(pkg *types.Package) string { return pkg.Name() })
}
