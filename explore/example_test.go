package explore_test

import (
	"context"
	"fmt"
	"log"
	"path/filepath"

	"github.com/henceforth-go/henceforth/explore"
)

// Explore the test function Scenario of examples/explore/doubleclose: two
// workers both fail, and each closes the group's channel unless it sees it
// closed. DPOR finds the interleaving in which both check before either
// closes, and the second close panics.
func Example() {
	const pkg = "github.com/henceforth-go/henceforth/examples/explore/doubleclose"
	ctx := context.Background()
	p, err := explore.Load(ctx, explore.LoadConfig{Patterns: []string{pkg}})
	if err != nil {
		log.Fatal(err)
	}
	e, err := p.Func(pkg + ".Scenario")
	if err != nil {
		log.Fatal(err)
	}
	r, err := p.Explore(ctx, e, explore.Options{Strategy: explore.DPOR, StopAtFirst: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("verdict:", r.Verdict())
	f := r.Findings[0]
	fmt.Printf("%s at %s:%d: %s\n", f.Kind, filepath.Base(f.Pos.Filename), f.Pos.Line, f.Message)
	for _, s := range f.Trace { // the steps of the package's own code
		if s.N > 0 && filepath.Base(s.Pos.Filename) == "doubleclose.go" {
			fmt.Printf("%d: goroutine %d at %s:%d: %s\n", s.N, s.Goroutine, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Op)
		}
	}
	// Output:
	// verdict: fail
	// panic at doubleclose.go:23: panic: close of closed channel [goroutine 3]
	// 3: goroutine 2 at doubleclose.go:20: select: default
	// 4: goroutine 3 at doubleclose.go:20: select: default
	// 5: goroutine 2 at doubleclose.go:23: close g.failed (chan#2)
	// 7: goroutine 3 at doubleclose.go:23: close g.failed (chan#2)
}

// Search the Dekker example (examples/explore/dekker) for an interleaving in
// which P0 is at its label m2 and P1 at n2 at once; at(G, L) is the
// scenario atom "goroutine G last passed label L".
func ExampleProgram_Find() {
	const pkg = "github.com/henceforth-go/henceforth/examples/explore/dekker"
	ctx := context.Background()
	p, err := explore.Load(ctx, explore.LoadConfig{Patterns: []string{pkg}, NoTests: true})
	if err != nil {
		log.Fatal(err)
	}
	e, err := p.Func(pkg + ".Run")
	if err != nil {
		log.Fatal(err)
	}
	r, err := p.Find(ctx, e, "F(at(P0, m2) && at(P1, n2))", explore.FindOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("verdict:", r.Verdict())
	w := r.Witness
	for _, s := range w.States[1:] {
		fmt.Printf("step %d: %s moves to %s; true: %v\n", s.Step, w.Goroutines[s.Goroutine], s.At[s.Goroutine], s.Atoms)
	}
	// Output:
	// verdict: found
	// step 1: dekker.P0 moves to m1; true: []
	// step 2: dekker.P0 moves to m11; true: []
	// step 3: dekker.P0 moves to m2; true: [at(P0,m2)]
	// step 4: dekker.P1 moves to n1; true: [at(P0,m2)]
	// step 5: dekker.P1 moves to n11; true: [at(P0,m2)]
	// step 6: dekker.P1 moves to n2; true: [at(P0,m2) at(P1,n2)]
}
