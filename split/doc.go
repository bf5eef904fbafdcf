// Package split owns henceforth's compositional verification of
// asynchronous shared-variable programs: the strongest split invariant of
// Namjoshi (a vector of per-process invariants θ = (θ1, …, θN) whose
// conjunction is inductive), computed sequentially (Listing 4.1 of the JTLV
// thesis, with frontier sets) or in parallel with one BDD store per worker
// (Listing 4.2, chaotic iteration); safety checks with refinement by
// exposing local predicates as auxiliary shared variables; and liveness
// checks under fairness (the LL and FLL algorithms of Cohen, Namjoshi and
// Sa'ar, variants A and B) over the product of each abstract process with a
// Büchi automaton of the negated property, refined by MUST transitions
// (Listing 4.6).
//
// # Programs
//
// A Program is an asynchronous composition of processes. Variables are
// finite-domain (Booleans, bounded integers, enumerations) and either shared
// (declared on the Program) or local to one process. A process moves by one
// of its guarded Commands; a command changes the variables it assigns and
// keeps every other variable of the process (its locals and all shared
// variables); the locals of other processes never change. A process none of
// whose commands is enabled may still be scheduled and then skips, so every
// state has a successor (Def 4.1 of the thesis: T is left-total).
// Programs are built with the Go API (NewProgram; Program.Bool, Int and
// Enum for shared variables; Program.Process; Process.Bool, Int and Enum
// for locals; Process.Command) or read from the SMV subset of Parse (see
// syntax.go for the grammar).
//
// # Checking
//
// Check decides a Property (an invariant, or an LTL formula under the
// program's justice and compassion requirements) and returns a Result:
// Proved, Violated with a Counterexample that has been replayed on the real
// composition, or Unknown (refinement limit, node limit, context cancelled,
// unsupported property) — never a pass by default.
//
// Everything is computed with BDDs of internal/fds; a Space (BDD store) is
// never shared between goroutines: the parallel fixpoint gives each worker
// its own store and moves summary transitions between stores in a serialised
// form (see transfer.go).
package split
