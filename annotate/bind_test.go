package annotate

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

const bankSrc = `package p

import "sync"

//ltl:prop lock call (*sync.Mutex).Lock
//ltl:prop unlock call (*sync.Mutex).Unlock // a trailing comment
//ltl:prop done return Run
//ltl:prop spawned go worker
//ltl:prop deposit call Account.Deposit
//ltl:spec lockPairs G(lock -> F unlock)
//ltl:spec solvent G("total >= 0" && !flagged)
//ltl:spec finishes F done && G(spawned -> F done)
type Account struct {
	mu      sync.Mutex
	balance int
	log     []string
}

var (
	total   int
	flagged bool
)

// Withdraw takes n.
//
//ltl:prop overdrawn a.balance < 0 || n > a.balance+100
//ltl:spec neverOverdrawn G(!overdrawn) && G(debit -> !unlock S lock)
//ltl:symbolic
func (a *Account) Withdraw(n int) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	//ltl:event debit
	a.balance -= n
	a.log = append(a.log, "w") //ltl:event logged
	//ltl:spec logs G(debit -> F logged) && G("len(a.log) > 0" -> O logged)
	return nil
}

func (a Account) Deposit(n int) {}

func Run() { go worker() }

func worker() {
	//ltl:spec usesMap F "m[k] > 1 && s[0]"
	m := map[string]int{}
	s := []bool{true}
	k := "x"
	_, _, _ = m, s, k
	//ltl:spec usesLocals F "m[k] > 1 && s[0]"
}
`

func TestBindsPropsEventsAndSpecs(t *testing.T) {
	pkg, errs := fromSource(t, map[string]string{"bank.go": bankSrc})
	// Only the spec above the locals it names fails: they are not in scope
	// yet at its position.
	assert.Equal(t, []string{"bank.go:44:24: ltl:spec usesMap: undefined: m"}, messages(errs))

	funcName := func(p *Prop) string {
		require.NotNil(t, p.Func, "prop %s has no function", p.Name)
		return p.Func.FullName()
	}
	events := map[string]struct {
		kind PropKind
		fn   string
	}{
		"lock":    {CallEvent, "(*sync.Mutex).Lock"},
		"unlock":  {CallEvent, "(*sync.Mutex).Unlock"},
		"done":    {ReturnEvent, "example.com/p.Run"},
		"spawned": {GoEvent, "example.com/p.worker"},
		"deposit": {CallEvent, "(example.com/p.Account).Deposit"},
		"debit":   {StatementEvent, "(*example.com/p.Account).Withdraw"},
		"logged":  {StatementEvent, "(*example.com/p.Account).Withdraw"},
	}
	for name, want := range events {
		p := pkg.Prop(name)
		require.NotNil(t, p, name)
		assert.Equal(t, want.kind, p.Kind, name)
		assert.True(t, p.Kind.IsEvent(), name)
		assert.Equal(t, want.fn, funcName(p), name)
		assert.False(t, p.Inline, name)
	}

	// Statement events bind to the statement and its position.
	debit := pkg.Prop("debit")
	assign, ok := debit.Stmt.(*ast.AssignStmt)
	require.True(t, ok, "debit binds %T", debit.Stmt)
	assert.Equal(t, token.SUB_ASSIGN, assign.Tok)
	assert.Equal(t, 33, pkg.Fset.Position(debit.Stmt.Pos()).Line)
	logged := pkg.Prop("logged")
	assert.Equal(t, 34, pkg.Fset.Position(logged.Stmt.Pos()).Line)

	// A state prop on a method sees its receiver and parameters.
	over := pkg.Prop("overdrawn")
	require.NotNil(t, over)
	assert.Equal(t, StateProp, over.Kind)
	assert.False(t, over.Kind.IsEvent())
	require.NotNil(t, over.Expr)
	assert.Equal(t, "a.balance < 0 || n > a.balance+100", over.Expr.Src)
	assert.Equal(t, "(*example.com/p.Account).Withdraw", over.Expr.Func.FullName())
	assert.Equal(t, types.Typ[types.UntypedBool], over.Expr.Info.Types[over.Expr.AST].Type)
	// The expression's positions point into the comment.
	assert.Equal(t, "bank.go:26:22", short(pkg.Fset, over.Expr.AST.Pos()))
	// It is checked in the function's scope: a is the receiver, n the
	// parameter.
	assert.Same(t, over.Expr.Func.Scope(), over.Expr.Scope)
	fnScope := over.Expr.Func.Scope()
	for id, obj := range over.Expr.Info.Uses {
		if v, ok := obj.(*types.Var); ok && !v.IsField() {
			assert.Same(t, fnScope.Lookup(id.Name), v, id.Name)
		}
	}

	// Specs: atoms bound to props, events and inline Go expressions.
	names := func(ss []*Spec) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return out
	}
	assert.Equal(t, []string{"lockPairs", "solvent", "finishes", "neverOverdrawn", "logs", "usesLocals"}, names(pkg.Specs))

	lp := pkg.Spec("lockPairs")
	assert.Equal(t, ltl.MustParse("G(lock -> F unlock)"), lp.Formula)
	assert.Equal(t, "G(lock -> F unlock)", lp.Source)
	assert.Same(t, pkg.Prop("lock"), lp.Atoms["lock"])
	assert.Same(t, pkg.Prop("unlock"), lp.Atoms["unlock"])
	assert.Equal(t, []string{"lock", "unlock"}, lp.Events())
	assert.Equal(t, "bank.go:10:22", short(pkg.Fset, lp.SourcePos))
	assert.Equal(t, "bank.go:10:1", short(pkg.Fset, lp.Pos))

	sol := pkg.Spec("solvent")
	require.Len(t, sol.Atoms, 2)
	total := sol.Atoms["total >= 0"]
	require.NotNil(t, total)
	assert.True(t, total.Inline)
	assert.Equal(t, StateProp, total.Kind)
	assert.Nil(t, total.Expr.Func, "a package-level spec has no function")
	assert.Equal(t, "bank.go:11:23", short(pkg.Fset, total.Expr.AST.Pos()), "inside the quotes")
	flagged := sol.Atoms["flagged"]
	require.NotNil(t, flagged)
	assert.True(t, flagged.Inline)
	assert.Equal(t, "flagged", flagged.Expr.Src)

	// A spec in a function body sees the locals declared before it.
	logs := pkg.Spec("logs")
	require.NotNil(t, logs)
	assert.Equal(t, "(*example.com/p.Account).Withdraw", logs.Atoms["len(a.log) > 0"].Expr.Func.FullName())
	loc := pkg.Spec("usesLocals")
	require.NotNil(t, loc)
	assert.Equal(t, "example.com/p.worker", loc.Atoms["m[k] > 1 && s[0]"].Expr.Func.FullName())

	// //ltl:symbolic on a method: its parameters, not its receiver.
	require.Len(t, pkg.Symbolic, 1)
	assert.Equal(t, "n", pkg.Symbolic[0].Var.Name())
	assert.Equal(t, "(*example.com/p.Account).Withdraw", pkg.Symbolic[0].Func.FullName())
}
