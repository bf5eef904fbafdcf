package automaton_test

import (
	"context"
	"fmt"
	"os"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// Check gives the verdict of a formula on a recorded trace; a failed one
// comes with where and why.
func ExampleCheck() {
	tr := monitor.NewTrace()
	for _, event := range [][]string{{"acquire"}, {"write"}, {"release"}, {"write"}} {
		tr.Append(event...)
	}
	f := ltl.MustParse("G(write -> (!release S acquire))")
	res, err := automaton.Check(context.Background(), f, tr, monitor.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Holds, res.Engine, res.Violation)
	fmt.Println(res.Why[0])
	// Output:
	// false dp 3
	// G(write -> !release S acquire) is false at 0: write -> !release S acquire is false at 3
}

// A monitor reports, after each event, whether the property is decided.
func ExampleDFA_Monitor() {
	d, err := automaton.FromFormula(context.Background(), ltl.MustParse("G(req -> F ack) && F done"), automaton.Options{})
	if err != nil {
		panic(err)
	}
	m := d.Monitor()
	for _, event := range [][]string{{"req"}, {"ack"}, {"done"}} {
		fmt.Println(event, m.StepAtoms(event...))
	}
	// Output:
	// [req] currently false
	// [ack] currently false
	// [done] currently true
}

// Liveness is decided at the first event that decides it, safety at the
// first violation; decided verdicts are final.
func ExampleMonitor_Step() {
	live, err := automaton.FromFormula(context.Background(), ltl.MustParse("F(a && X b)"), automaton.Options{})
	if err != nil {
		panic(err)
	}
	m := live.Monitor()
	fmt.Println(m.Step(live.Letter("a")), m.Step(live.Letter("b")))

	safe, err := automaton.FromFormula(context.Background(), ltl.MustParse("G !c"), automaton.Options{})
	if err != nil {
		panic(err)
	}
	m = safe.Monitor()
	fmt.Println(m.Step(safe.Letter()), m.Step(safe.Letter("c")), m.Step(safe.Letter()))
	// Output:
	// currently false satisfied
	// currently true violated violated
}

func ExampleEquivalent() {
	same, _, _ := automaton.Equivalent(context.Background(), ltl.MustParse("p W q"), ltl.MustParse("(p U q) | G p"), automaton.Options{})
	fmt.Println(same)
	same, witness, _ := automaton.Equivalent(context.Background(), ltl.MustParse("X p"), ltl.MustParse("N p"), automaton.Options{})
	fmt.Println(same, len(witness))
	// Output:
	// true
	// false 0
}

func ExampleDFA_Stats() {
	d, err := automaton.FromFormula(context.Background(), ltl.MustParse("G(req -> F ack)"), automaton.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(d.Stats())
	// Output:
	// states: 2
	// transitions: 4
}

func ExampleNFA_WritePromela() {
	a, err := automaton.NFAFromFormula(context.Background(), ltl.MustParse("<>(a || b)"))
	if err != nil {
		panic(err)
	}
	a.WritePromela(os.Stdout, "")
	// Output:
	// never {
	// S0:
	//     if
	//     :: (1) -> goto S0
	//     :: (a) -> goto accept_S1
	//     :: (b) -> goto accept_S1
	//     fi;
	//
	// accept_S1:
	//     if
	//     :: (1) -> goto accept_S1
	//     fi;
	// }
}
