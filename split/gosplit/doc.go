// Package gosplit is the Go front end of package split: it extracts, from
// a Go package, the split.Program in which a goroutine function runs as N
// symmetric, weakly fair processes, with the package's //ltl:spec
// directives as properties, and maps the program's counterexamples back
// to Go positions.
//
//	g, err := gosplit.Load(ctx, gosplit.Config{}, "./mutex", "worker", 64)
//	res, err := g.Check(ctx, "mutex", split.Options{})
//	fmt.Print(g.FormatSteps(res.Counterexample))
//
// Load reads the package with go/packages; Extract works on files the
// caller has parsed and type-checked. The processes are fn[1] … fn[N].
// Package-level variables the function uses are shared, its locals are
// local, and its control locations are the local enumeration pc. A step
// makes at most one shared access (a statement that reads several shared
// variables loads them into temporaries first), except for variables
// every access of which holds a common mutex: those are accessed with the
// statement. Writes outside a //ltl:range and unlocks of unlocked mutexes
// go to error locations, which the property "runtime" excludes.
//
// A sync.Mutex is modelled by its owner, a shared integer 0..N (0:
// unlocked); an unbuffered channel by three shared variables, full, val
// and owner (the sender whose value is in the channel), a send taking two
// steps (put, then wait until received) and a receive one.
//
// Program.Check first looks for a violation of an invariant with 2, then
// 3, … up to FalsifyGoroutines goroutines and lifts one it finds to N;
// otherwise it checks the N goroutines.
//
// # Accepted Go
//
// Variables: bool, integers with a //ltl:range directive, package-level
// sync.Mutex (Lock, Unlock), package-level unbuffered channels of those
// made once (var ch = make(chan T)). Statements: =, :=, op=, ++, --, var,
// if/else, for (three-clause, condition-only, infinite), break, continue,
// return without results, ch <- v, x := <-ch, x = <-ch, <-ch. Expressions:
// those variables and constants with ! && || == != < <= > >= + - and * by
// a constant. Anything else is a *split.Error of kind
// split.ErrUnsupported at the construct's position.
//
// # Limits
//
//   - One goroutine function, run as N symmetric copies; code outside it
//     (main, init functions, tests) is not part of the model, and
//     package-level variables start at their constant initial values.
//   - Buffered and nil channels, close, select, range over a channel,
//     receives with ok, sync.RWMutex, sync.WaitGroup, sync/atomic, calls,
//     arrays, structs and pointers are unsupported.
//   - A violation is lifted from 2 or 3 goroutines only; one that needs
//     more is left to the N-goroutine check, whose refinements expose
//     predicates for all N goroutines and can be slow. Liveness
//     counterexamples are not lifted.
//   - Some channel protocols give Unknown ("refinement found no new
//     predicate") where the monolithic check decides, for example a token
//     passed over a channel whose holder is not in the shared state.
package gosplit
