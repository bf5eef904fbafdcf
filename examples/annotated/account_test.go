package annotated_test

import (
	"context"
	_ "embed"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/annotate"
	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/examples/annotated"
	"github.com/henceforth-go/henceforth/ltl"
)

// Embedding the spec file makes go vet's cache see changes to it: without
// this, go vet -vettool=ltlvet would replay its last verdict on the package
// after the spec file changes.
//
//go:embed account.ltl
var specFile string

// load reads the annotations of package annotated (its test variant, which
// holds the non-test files too) and fails the test on any problem.
func load(t *testing.T) *annotate.Package {
	t.Helper()
	if testing.Short() {
		t.Skip("loads the package with go list")
	}
	pkgs, err := annotate.Load(context.Background(), ".")
	require.NoError(t, err)
	for _, p := range pkgs {
		if p.Types.Path() == "github.com/henceforth-go/henceforth/examples/annotated" {
			return p
		}
	}
	t.Fatalf("package annotated not among %d loaded", len(pkgs))
	return nil
}

func TestAnnotationsBind(t *testing.T) {
	pkg := load(t)

	var names []string
	for _, s := range pkg.Specs {
		names = append(names, s.Name)
	}
	assert.ElementsMatch(t, []string{"lockPairs", "debitLocked", "neverOverdrawn", "creditInDeposit"}, names)

	// Calls of the mutex's methods, and of the account's.
	lp := pkg.Spec("lockPairs")
	require.NotNil(t, lp)
	assert.Equal(t, annotate.CallEvent, lp.Atoms["lock"].Kind)
	assert.Equal(t, "(*sync.Mutex).Lock", lp.Atoms["lock"].Func.FullName())
	assert.Equal(t, "(*sync.Mutex).Unlock", lp.Atoms["unlock"].Func.FullName())

	// Statement events: the debit in Withdraw, the credit in Deposit.
	dl := pkg.Spec("debitLocked")
	require.NotNil(t, dl)
	debit := dl.Atoms["debit"]
	assert.Equal(t, annotate.StatementEvent, debit.Kind)
	assert.Equal(t, "(*github.com/henceforth-go/henceforth/examples/annotated.Account).Withdraw", debit.Func.FullName())
	assert.Equal(t, "account.go", filepath.Base(pkg.Fset.Position(debit.Stmt.Pos()).Filename))

	// The state prop on Withdraw reads its receiver.
	over := pkg.Spec("neverOverdrawn").Atoms["overdrawn"]
	assert.Equal(t, annotate.StateProp, over.Kind)
	assert.Equal(t, "a.balance < 0", over.Expr.Src)
	assert.Equal(t, "Withdraw", over.Expr.Func.Name())

	// The spec file's spec, with its own prop.
	cd := pkg.Spec("creditInDeposit")
	require.NotNil(t, cd)
	assert.Equal(t, "account.ltl", filepath.Base(pkg.Fset.Position(cd.Pos).Filename))
	assert.True(t, strings.Contains(specFile, cd.Source), "the spec's source is the spec file's text")
	assert.Equal(t, "(*github.com/henceforth-go/henceforth/examples/annotated.Account).Deposit", cd.Atoms["depositing"].Func.FullName())
	assert.Equal(t, annotate.StatementEvent, cd.Atoms["credit"].Kind)

	// Withdraw's amount is a symbolic input.
	require.Len(t, pkg.Symbolic, 1)
	assert.Equal(t, "n", pkg.Symbolic[0].Var.Name())
	assert.Equal(t, "Withdraw", pkg.Symbolic[0].Func.Name())

	// Nothing meaningless, nothing unused.
	assert.Empty(t, pkg.Lint(context.Background(), automaton.Satisfiability{}))
}

// The specs say what the account does: on the trace of a deposit and a
// withdrawal every spec holds, and a debit outside the lock, or a lock never
// released, violates the spec about it.
func TestSpecsOnTraces(t *testing.T) {
	pkg := load(t)
	var acct annotated.Account
	require.NoError(t, acct.Deposit(10))
	require.NoError(t, acct.Withdraw(4))
	require.Equal(t, 6, acct.Balance())

	// The events those calls produce, one per step (Balance's own lock
	// and unlock at the end).
	run := ltl.Sets{{"depositing"}, {"lock"}, {"credit"}, {"unlock"}, {"lock"}, {"debit"}, {"unlock"}, {"lock"}, {"unlock"}}
	for _, s := range pkg.Specs {
		assert.True(t, ltl.Eval(s.Formula, run, ltl.LTLf), "spec %s on the run", s.Name)
	}
	unlockedDebit := ltl.Sets{{"lock"}, {"unlock"}, {"debit"}}
	assert.False(t, ltl.Eval(pkg.Spec("debitLocked").Formula, unlockedDebit, ltl.LTLf))
	heldLock := ltl.Sets{{"lock"}, {"debit"}}
	assert.False(t, ltl.Eval(pkg.Spec("lockPairs").Formula, heldLock, ltl.LTLf))
	creditOutsideDeposit := ltl.Sets{{"lock"}, {"credit"}, {"unlock"}}
	assert.False(t, ltl.Eval(pkg.Spec("creditInDeposit").Formula, creditOutsideDeposit, ltl.LTLf))
}

func TestAccount(t *testing.T) {
	var a annotated.Account
	assert.ErrorIs(t, a.Withdraw(1), annotated.ErrInsufficient)
	assert.Error(t, a.Withdraw(-1))
	assert.Error(t, a.Deposit(-1))
	require.NoError(t, a.Deposit(3))
	require.NoError(t, a.Withdraw(3))
	assert.Equal(t, 0, a.Balance())
}
