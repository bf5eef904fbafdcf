package annotate

import (
	"go/ast"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEventPlacement(t *testing.T) {
	pkg, errs := fromSource(t, map[string]string{"a.go": `package p

var x, y int

func a() {}
func b() {}

var closure = func() {
	//ltl:event inPackageClosure
	a()
}

func f(ch chan int) {
	//ltl:event onIf
	if x > 0 {
		y++ //ltl:event onInc
	} //ltl:event afterIf
	a(); b() //ltl:event lastOnLine
	//ltl:event explained
	// An ordinary comment may follow the directive.
	x = 1
	switch y {
	//ltl:event onCase
	case 1:
	}
	{ //ltl:event nothingBefore
		a()
	}
	go func() {
		//ltl:event inClosure
		<-ch
	}()
	for i := 0; i < 2; i++ { x++ } //ltl:event onFor
}

//ltl:spec uses F(inPackageClosure || onIf || onInc || afterIf || lastOnLine || explained || onCase || inClosure || onFor)
`})
	assert.Equal(t, []string{
		"a.go:26:10: ltl:event nothingBefore: attached to nothing: an event stands on the line before a statement (with no blank line between) or at the end of one",
	}, messages(errs))

	stmt := func(name string) (ast.Stmt, int) {
		p := pkg.Prop(name)
		require.NotNil(t, p, name)
		require.Equal(t, StatementEvent, p.Kind, name)
		return p.Stmt, pkg.Fset.Position(p.Stmt.Pos()).Line
	}
	s, line := stmt("onIf")
	assert.IsType(t, &ast.IfStmt{}, s)
	assert.Equal(t, 15, line)
	s, line = stmt("onInc")
	assert.IsType(t, &ast.IncDecStmt{}, s)
	assert.Equal(t, 16, line)
	s, _ = stmt("afterIf")
	assert.Same(t, pkg.Prop("onIf").Stmt, s, "a directive after the closing brace marks the whole if")
	s, _ = stmt("lastOnLine")
	call := s.(*ast.ExprStmt).X.(*ast.CallExpr)
	assert.Equal(t, "b", call.Fun.(*ast.Ident).Name, "the statement ending last before the comment")
	s, line = stmt("explained")
	assert.IsType(t, &ast.AssignStmt{}, s)
	assert.Equal(t, 21, line)
	s, _ = stmt("onCase")
	assert.IsType(t, &ast.CaseClause{}, s)
	s, _ = stmt("inClosure")
	assert.IsType(t, &ast.ExprStmt{}, s)
	s, _ = stmt("onFor")
	assert.IsType(t, &ast.ForStmt{}, s)

	// The function around a statement event is the declaration; a closure
	// at package level has none.
	assert.Equal(t, "example.com/p.f", pkg.Prop("inClosure").Func.FullName())
	assert.Nil(t, pkg.Prop("inPackageClosure").Func)
	assert.NotNil(t, pkg.Spec("uses"))
}

func TestScopes(t *testing.T) {
	pkg, errs := fromSource(t, map[string]string{"a.go": `package p

import "strings"

var _ = strings.ToUpper

var s string

//ltl:prop imports strings.ToUpper != nil && s != ""
//ltl:prop docSeesTop top > n && r != ""
//ltl:prop docInner inner > 0
//ltl:specfile local.ltl
func F(n int) (r string) {
	top := 2
	_ = top
	{
		inner := 1
		_ = inner
		//ltl:prop seesInner inner > top && n > 0
		//ltl:prop notYet later > 0
		later := 3
		_ = later
	}
	//ltl:prop outOfBlock inner > 0
	//ltl:specfile local.ltl
	return ""
}
`, "local.ltl": `spec local G("top > n && r != \"\"" || docSeesTop)
`})
	assert.Equal(t, []string{
		"a.go:11:21: ltl:prop docInner: undefined: inner",
		"a.go:20:21: ltl:prop notYet: undefined: later",
		"a.go:24:24: ltl:prop outOfBlock: undefined: inner",
		"a.go:25:17: ltl:specfile: local.ltl is already included by the directive at a.go:12:1",
	}, messages(errs))
	for _, name := range []string{"imports", "docSeesTop", "seesInner"} {
		assert.NotNil(t, pkg.Prop(name), name)
	}
	local := pkg.Spec("local")
	require.NotNil(t, local)
	// The escaped quotes shift offsets, so the expression is positioned at
	// its opening quote.
	expr := local.Atoms[`top > n && r != ""`]
	require.NotNil(t, expr)
	assert.Equal(t, "local.ltl:1:14", short(pkg.Fset, expr.Pos))
	assert.Equal(t, "example.com/p.F", expr.Expr.Func.FullName())
}

func TestSpecFile(t *testing.T) {
	pkg, errs := fromSource(t, map[string]string{"a.go": `package p

var counter int

//ltl:prop tick call tick
//ltl:specfile specs/main.ltl // relative to this file's directory
func tick() {}
`, "specs/main.ltl": `/* Spec file header,
   over two lines. */
prop low counter < 10 // a trailing comment
spec bounded
	G(tick -> low) // the tab continues the directive
    && F tick
spec quoted G("counter != 3 /* not a comment */ && counter != 4 // nor this")
`})
	require.Empty(t, messages(errs))
	low := pkg.Prop("low")
	require.NotNil(t, low)
	assert.Equal(t, "main.ltl:3:1", short(pkg.Fset, low.Pos))
	assert.Equal(t, "counter < 10", low.Expr.Src)
	assert.Equal(t, "main.ltl:3:10", short(pkg.Fset, low.Expr.AST.Pos()))

	bounded := pkg.Spec("bounded")
	require.NotNil(t, bounded)
	assert.Equal(t, "(G(tick -> low) && F tick)", "("+bounded.Formula.String()+")")
	assert.Equal(t, "main.ltl:5:2", short(pkg.Fset, bounded.SourcePos))
	assert.Same(t, pkg.Prop("tick"), bounded.Atoms["tick"])

	quoted := pkg.Spec("quoted")
	require.NotNil(t, quoted)
	assert.Contains(t, quoted.Atoms, "counter != 3 /* not a comment */ && counter != 4 // nor this")
}
