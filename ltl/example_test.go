package ltl_test

import (
	"errors"
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// Parse reads the textual syntax; String prints a formula in its canonical
// form, which Parse reads back as the same formula.
func ExampleParse() {
	f, err := ltl.Parse("[](request -> <> response)")
	if err != nil {
		panic(err)
	}
	fmt.Println(f)
	fmt.Println(f.Atoms())

	_, err = ltl.Parse("p U")
	var syntax *ltl.SyntaxError
	fmt.Println(errors.As(err, &syntax), err)
	// Output:
	// G(request -> F response)
	// [request response]
	// true offset 3: expected formula, found end of input
}

// Eval is the reference evaluator: the verdict of a formula on a finite
// trace, here one set of atoms per position.
func ExampleEval() {
	f := ltl.MustParse("G(req -> F ack)")
	answered := ltl.Sets{{"req"}, {}, {"ack"}}
	pending := ltl.Sets{{"req"}, {"ack"}, {"req"}}
	fmt.Println(ltl.Eval(f, answered, ltl.LTLf), ltl.Eval(f, pending, ltl.LTLf))
	// Output:
	// true false
}

// Simplify rewrites a formula into an equivalent smaller one; NNF pushes
// negations down to the atoms. Both keep the meaning under the semantics
// they are given.
func ExampleSimplify() {
	f := ltl.Simplify(ltl.MustParse("!(F p && true) || G G q"), ltl.LTLf)
	fmt.Println(f)
	fmt.Println(ltl.NNF(f, ltl.LTLf))
	// Output:
	// !F p || G q
	// G !p || G q
}
