// Package synth owns henceforth's GR(1) synthesis: deciding whether a
// reactive specification can be met by some system against every
// environment, and producing the witness either way.
//
// A Spec has the environment's variables (Inputs), the system's (Outputs),
// both Boolean or bounded integers, and clauses in six sections: initial,
// transition and liveness assumptions and guarantees (ENV_INIT, ENV_TRANS,
// ENV_LIVENESS, SYS_INIT, SYS_TRANS, SYS_LIVENESS), as in the game
// structures of the JTLV thesis (§3.1) and in Slugs. Specs are read from
// Slugs' .slugsin and .structuredslugs and SYNTCOMP's basic TLSF (ParseFile,
// Parse…), or written in Go with LTL formulas in the ltl package's syntax
// (Spec.Assume, Spec.Guarantee, FromLTL); formulas outside GR(1) are
// positioned errors. WriteSlugsin prints any Spec as .slugsin.
//
// Spec.Realizable runs the thesis's three-nested fixpoint on BDDs
// (internal/fds) and returns a Result. For a realizable spec,
// Result.Controller gives the symbolic strategy with its three kinds of step
// (switch goal, get closer, stay while an assumption fails) and the goal
// counter; Controller.Run steps it directly and Controller.Mealy enumerates
// it as an explicit Mealy machine, which Minimize shrinks and WriteDOT,
// WriteJSON and WriteGo print. For an unrealizable spec,
// Result.Counterstrategy gives the environment's winning strategy (as an
// explicit Moore machine with the same outputs) and Result.Core a minimal
// set of conflicting guarantees.
//
// AspectLTL specifications (the thesis's §3.2: a base system and LTL aspects
// in an SMV-like syntax, .altl files) are read by ParseAspectLTL and woven
// by Weave into a Weaving, whose Spec is an ordinary Spec; Weaving.Trace
// traces a controller's moves to the modules that justify or forbid them,
// Weaving.Conflicts finds the minimal sets of conflicting aspects and plays
// out the environment's strategy, and Weaving.WriteGo generates the program.
//
// Controller.Circuit determinizes the symbolic strategy instead (one output
// valuation per state and input, bit by bit) into a Circuit: a shared
// decision graph whose Go source (WriteGo, with the explicit machines' Step
// API), JSON, DOT and AIGER form (AIG, WriteAAG, WriteAIG) are linear in
// its size. CheckAIG model-checks any controller circuit — this package's
// or another tool's, read with ParseAIGER — against a spec on the circuit's
// own semantics, without the synthesis fixpoints.
//
// Mealy.Verify and Moore.Verify check explicit strategies against a spec by
// exhaustive exploration with an interpreter of the clauses that is
// independent of the BDDs; Conforms checks a hand-written controller (any
// Stepper) the same way, breadth first.
//
// # Limits
//
//   - GR(1) only: initial conditions, G ψ with ψ using at most one level of
//     next, and G F φ, in assumptions and guarantees. Other temporal shapes
//     (G(r -> F g), persistence F G, nested next) are ErrNotGR1 errors at the
//     offending operator; rewrite them with auxiliary variables.
//   - Variables are Booleans or bounded integers. Generated Go controllers
//     (WriteGo) pack the inputs, and the outputs, into 64 bits each: specs
//     with more valuations are ErrTooLarge there.
//   - TLSF: basic TLSF with Mealy semantics only; parametric TLSF (GLOBAL),
//     bus signals and Moore semantics or targets are ErrUnsupported (convert
//     with syfco -f basic first).
//   - Explicit machines (Mealy, Moore, counterstrategies) enumerate
//     reachable states and stop at DefaultMaxStates (100000) unless given
//     another bound, with ErrTooLarge; the symbolic Controller and Circuit
//     have no such bound. Verifying an explicit machine enumerates every
//     input valuation at every state.
//   - WithMemoryLimit bounds the BDD node table and, separately, the
//     estimated size of an explicit machine being enumerated
//     (ErrMemoryBound), not the rest of the Go heap; contexts interrupt every phase (realizability, extraction,
//     determinization, enumeration, checking) within a few thousand BDD
//     steps.
//   - Extraction and determinization cost several times the realizability
//     check on the AMBA arbiter (BENCHMARKS.md); a Circuit's size depends
//     on the variable order. Determinization runs goal by goal on up to
//     GOMAXPROCS goroutines (WithParallelism), each in its own BDD space
//     under the same WithMemoryLimit, so it may hold that many node
//     tables at once; the circuit does not depend on the number.
//   - The BDD kernel reorders its variables dynamically (WithReordering,
//     on by default): the BDD sizes in Stats, and the shape of a Circuit,
//     then depend on when the reorderings ran, which varies from run to
//     run with the Go runtime's reports of unreachable handles; verdicts
//     do not.
//   - CheckAIG supports AIGER without the B, C, J and F sections, with
//     latches that start at 0, and matches inputs and outputs by name (a
//     Boolean's name, name@bit for the bits of an integer).
//   - Conforms explores behaviours up to its depth and node bounds (12 and
//     200000 by default); without a way to identify the implementation's
//     states it checks safety guarantees only; an incomplete result without
//     a violation is unknown, not a proof.
//   - Cores are minimal (dropping any guarantee makes the rest realizable),
//     not minimum: another, smaller core may exist.
//   - AspectLTL: one namespace (no visibility or qualified names), no
//     changes of a variable's domain by an aspect; an ext sub-domain only
//     restricts the values the aspect may name. LTLSPEC formulas are
//     conjunctions of conditions on the first state, G φ, G F φ, G(p -> F q)
//     and F q, with past operators anywhere but not around next. Aspect-level
//     conflicts are all minimal sets for up to 10 aspects, one (from which no
//     single aspect can be dropped) beyond. Trace enumerates the controller
//     explicitly (DefaultMaxStates); it lists the untaken moves when the
//     base's system variables have at most 4096 valuations (and says so
//     otherwise), and those from values never reached for at most 256.
package synth
