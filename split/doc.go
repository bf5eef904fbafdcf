// Package split owns henceforth's compositional verification of
// asynchronous shared-variable programs: the Program model (finite-domain
// variables, processes, guarded commands, fairness), its expressions and
// properties, the strongest split invariant of Namjoshi (a vector of
// per-process invariants θ = (θ1, …, θN) whose conjunction is inductive),
// safety and liveness checks with refinement, a monolithic BDD model
// checker as their baseline, and the replay of counterexamples on the
// program. Programs come from the Go API of this package or from a front
// end: split/smv reads a subset of the SMV language, split/gosplit extracts
// a program from Go code run by N goroutines. docs/split.md explains the
// design.
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
// state has a successor. Programs are built with NewProgram; Program.Bool,
// Int and Enum declare shared variables, Program.Process a process,
// Process.Bool, Int and Enum its locals, Process.Command its commands and
// Process.Justice, Compassion and Scheduled its fairness. A Program is
// built once and then only read; Validate reports what the builders cannot
// (types, ownership of assigned variables, locality of conditions).
//
// # Checking
//
// Check decides a Property (NewInvariant, or NewLTL under the program's
// justice and compassion requirements) and returns a Result: Proved,
// Violated with a Counterexample that has been replayed on the real
// composition, or Unknown (refinement limit, node limit, context
// cancelled, unsupported property) — never a pass by default.
// ComputeInvariant computes the split invariant alone (sequentially, or in
// parallel with InvariantOptions.Workers); CheckMonolithic decides the
// property by plain BDD reachability; Program.Replay checks that a Trace is
// a computation of the program.
//
// Everything is computed with BDDs of internal/fds; a BDD store is never
// shared between goroutines: the parallel fixpoint gives each worker its
// own store and moves summary transitions between stores in a serialised
// form (transfer.go).
//
// Errors about programs and properties are *Error values (srcpos.Error)
// with a position when the program came from a source text, and a kind
// (ErrSyntax, ErrType, ErrUnsupported, ErrProgram) for errors.Is.
//
// # Limits
//
//   - Variables are Booleans, integers with a range below 2^24 values, and
//     enumerations; Mul, Div and Mod need a constant operand.
//   - Programs are flat: shared variables and the locals of each process;
//     initial conditions and fairness of a process read only its own
//     locals and the shared variables.
//   - LTL properties use future operators only; a property with past
//     operators gets Unknown.
//   - Variant B of the liveness check examines one abstract process (the
//     one the property reads, else the first); when it cannot prove the
//     property, refinement exposes predicates rather than trying another
//     process.
//   - Refinement may not converge, or may find no new predicate: the
//     result is then Unknown, with the reason. Options.MaxRefinements and
//     Options.MaxNodes bound the work; the context bounds the time.
//   - The early stop of refinement rounds works in the sequential fixpoint
//     only; parallel runs complete every fixpoint.
//   - An invariant with k conjuncts costs O(k) BDD checks (N² for pairwise
//     mutual exclusion of N processes).
package split
