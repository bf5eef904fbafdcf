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
// Mealy.Verify and Moore.Verify check explicit strategies against a spec by
// exhaustive exploration with an interpreter of the clauses that is
// independent of the BDDs; Conforms checks a hand-written controller (any
// Stepper) the same way, breadth first.
package synth
