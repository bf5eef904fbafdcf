package split_test

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/split"
	"github.com/henceforth-go/henceforth/split/smv"
)

// A semaphore protocol for 8 processes, read from the text format: its
// strongest split invariant is too weak for mutual exclusion, so Check
// exposes who holds the semaphore (two predicates) and proves it.
func ExampleCheck() {
	src := `
MODULE main
VAR
  x : boolean;
  P : array 1..N of process user(x);
ASSIGN
  init(x) := TRUE;
INVARSPEC NAME mutex := forall i in 1..N : forall j in i+1..N : !(P[i].loc = 2 & P[j].loc = 2)

MODULE user(x)
VAR
  loc : 0..3;
ASSIGN
  init(loc) := 0;
COMMANDS
  noncritical : loc = 0 -> loc := {0, 1};
  request : loc = 1 & x -> loc := 2, x := FALSE;
  critical : loc = 2 -> loc := 3;
  release : loc = 3 -> loc := 0, x := TRUE;
`
	p, err := smv.Parse("muxsem.smv", src, 8)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := split.Check(context.Background(), p, p.Properties()[0], split.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Verdict, "after", res.Refinements, "refinements")
	// Output:
	// proved after 2 refinements
}

// The same protocol built with the Go API, and a property it violates:
// P[1] can starve when every process is merely scheduled infinitely often
// (Table 4.9 of the JTLV thesis). The counterexample is a lasso that has
// been replayed on the program.
func ExampleProgram() {
	p := split.NewProgram("semaphore")
	x := p.Bool("x")
	p.Init(split.Ref(x))
	for i := 1; i <= 3; i++ {
		pr := p.Process(fmt.Sprintf("P[%d]", i))
		pr.SetTemplate("user")
		loc := pr.Int("loc", 0, 3)
		pr.Init(split.Is(loc, 0))
		pr.Command("noncritical", split.Is(loc, 0), split.Set(loc, split.OneOf(split.Int(0), split.Int(1))))
		pr.Command("request", split.And(split.Is(loc, 1), split.Ref(x)), split.Set(loc, split.Int(2)), split.Set(x, split.False()))
		pr.Command("critical", split.Is(loc, 2), split.Set(loc, split.Int(3)))
		pr.Command("release", split.Is(loc, 3), split.Set(loc, split.Int(0)), split.Set(x, split.True()))
		pr.Scheduled()
	}
	prop, err := smv.ParseProperty(p, "LTLSPEC G (P[1].loc = 1 -> F P[1].loc = 2)")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := split.Check(context.Background(), p, prop, split.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	tr := res.Counterexample
	fmt.Println(res.Verdict, tr.Loop >= 0, p.Replay(tr) == nil)
	// Output:
	// violated true true
}
