package symbolic_test

import (
	"context"
	"fmt"
	"go/token"

	"github.com/henceforth-go/henceforth/symbolic"
)

// An explorer meets `if n*3 == limit+7 { … }` with symbolic n and limit:
// it asks which sides are feasible, follows each one, and reports the
// inputs that reach the inner block.
func ExampleSession_Branch() {
	ctx := context.Background()
	s, err := symbolic.NewSession(symbolic.Config{})
	if err != nil {
		panic(err)
	}
	n, _ := s.NewInput("n", symbolic.Int)
	limit, _ := s.NewInput("limit", symbolic.Int)
	lhs, _ := symbolic.BinOp(token.MUL, n, symbolic.MakeInt(symbolic.Int, 3))
	rhs, _ := symbolic.BinOp(token.ADD, limit, symbolic.MakeInt(symbolic.Int, 7))
	cond, _ := symbolic.BinOp(token.EQL, lhs, rhs)

	onTrue, onFalse, err := s.Branch(ctx, cond)
	if err != nil {
		panic(err)
	}
	fmt.Println("then:", onTrue, "else:", onFalse)

	s.Push()
	if err := s.Assume(cond); err != nil {
		panic(err)
	}
	m, err := s.Model(ctx)
	if err != nil {
		panic(err)
	}
	in := m.Inputs()
	fmt.Println("path:", s.PathCondition())
	fmt.Println("witness works natively:", in["n"].(int)*3 == in["limit"].(int)+7)
	s.Pop()
	// Output:
	// then: sat else: sat
	// path: n*3 == limit+7
	// witness works natively: true
}

// Division by a symbolic divisor forks a panicking path.
func ExamplePanicCondition() {
	x, y := symbolic.Input("x", symbolic.Int8), symbolic.Input("y", symbolic.Int8)
	cond, msg := symbolic.PanicCondition(token.QUO, x, y)
	fmt.Printf("panics if %s: %s\n", cond, msg)
	// Output:
	// panics if y == 0: runtime error: integer divide by zero
}
