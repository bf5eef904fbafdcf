// Package automaton owns henceforth's finite-trace automata: the
// translation of LTLf formulas into nondeterministic automata by the
// finite-trace tableau (GPVW with the Giannakopoulou–Havelund acceptance for
// finite words, as in the thesis on LTL checking in Java PathFinder), their
// determinization and minimization, the online monitor that steps a DFA
// once per event with early verdicts, language questions (emptiness,
// universality, equivalence with shortest witnesses), and output as HOA,
// Graphviz DOT and Promela never claims.
//
// # Semantics
//
// Formulas are read under ltl.LTLf (docs/semantics.md in the repository,
// and package ltl's documentation): X, F, U and M are strong at
// the end of the trace, N, G, W and R weak, and the empty trace is allowed:
// a DFA's initial state accepts exactly when the formula holds on it.
//
// # Translation
//
// NFAFromFormula builds the explicit tableau: nodes with a NEXT set of
// obligations X g (a next position must exist and satisfy g) and N g (the
// trace may end instead); a node accepts the end of the trace when its
// NEXT set has no X obligation. FromFormula runs the same expansion rules
// symbolically: a set of tableau nodes is the BDD of the disjunction of their NEXT sets, so the subset
// construction is on the fly and its edges are Boolean guards over the
// atoms, not one edge per letter; a DFA stores each state's transition
// function as a decision diagram over the atoms whose leaves are states.
// Moore partition refinement on those diagrams then gives the minimal
// complete DFA (a rejecting sink, when the language needs one, is a state).
//
// FromFormula is compositional where the formula is: for a Boolean
// combination (&, |, ->, <->, ^, and their negations) it builds the
// minimal DFAs of the operands separately and combines them by a product
// of their decision diagrams, smallest first, minimizing each product
// before the next (a few linear rounds of Moore refinement usually prove a
// product minimal; Hopcroft's algorithm runs otherwise). An until g U h or
// g W h with a propositional g and a temporal h is built from h's minimal
// DFA, its states kept as antichains under language inclusion. The
// operands whose roots are other temporal operators go to the tableau,
// whose states are kept canonical modulo the implications it can prove
// between obligations. Every route ends in the same minimal DFA.
//
// # Checking a recorded trace
//
// Check is the one function that gives the verdict of a formula on a
// recorded monitor.Trace, with any engine: the DFA (monitor.EngineAutomaton)
// or package monitor's DP engines and reference evaluator; a failed verdict
// comes with its first violating position and the reasons. Monitor is the
// online form, fed one event at a time.
//
// # Infinite words
//
// Buchi translates LTL read over infinite words (the usual semantics of
// model checking, where X always has a next position) into a
// transition-based generalized Büchi automaton (GBA) by the same tableau
// expansion with Büchi acceptance: one acceptance set per until, containing
// the edges that do not postpone it (Couvreur). Degeneralize gives one
// acceptance set; EvalLasso is the reference evaluator on ultimately
// periodic words u·v^ω (Lasso) that the translation is tested against.
// Package split checks liveness with the automaton of the negated property.
//
// # Past operators
//
// By default each maximal pure-past subformula becomes a fresh atom of the
// DFA (DFA.PastAtoms), computed online by a monitor.Past inside Monitor:
// final verdicts are exact and early verdicts sound, but Violated or
// Satisfied can be reported later than the first position that decides
// them. With Options.ExactPast the translator keeps past values in the DFA
// state instead: the DFA is then the formula's own minimal DFA and early
// verdicts are exact. Formulas that apply a past operator to a future
// subformula (O F p) are always translated that way, and Equivalent always
// uses it.
//
// # Sizes
//
// Stats counts the minimal complete DFA: States includes the rejecting
// sink, and Transitions counts guard-labelled edges — pairs of states (s,
// t) with some letter leading from s to t, self-loops included — not
// letters or decision-diagram paths.
//
// # Output
//
// WriteHOA has two encodings of finite-trace acceptance (see hoa.go):
// HOAAlive, the default, is Spot's ltl2tgba --from-ltlf convention (an
// "alive" proposition and state-based Büchi acceptance: a genuine
// ω-automaton that autfilt --to-finite turns back into the finite
// automaton), and HOASpotDFA mirrors ltlf2dfa -H (transition-based marks
// read as "the last transition is accepting"). WriteDOT draws the DFA;
// WritePromela prints never claims in the format of the thesis's Figures 10
// and 16, for the NFA and for the DFA.
//
// # Limits
//
//   - LTLf only: the automaton engine (the DFAs and their monitors) does
//     not implement ltl.RosuHavelund; the DP engines of package monitor do.
//   - Size: at most MaxAtoms (64) atoms, each maximal pure-past subformula
//     counting as one unless past values are kept in the DFA; the subset
//     construction stops with ErrTooLarge beyond Options.MaxStates states
//     (DefaultMaxStates, 2^22) or Options.MaxNodes BDD nodes (DefaultMaxNodes,
//     2^26), the explicit tableau beyond 2^16 nodes, and the Büchi
//     translation beyond MaxBuchiStates (2^14) states or 64 eventualities.
//     The minimal DFA of a formula can be doubly exponential in its size.
//   - The explicit tableau (the NFA) rejects a past operator applied to a
//     future subformula (ErrUnsupported); the symbolic translation accepts
//     it by keeping past values in the DFA state.
//   - Infinite words: the Büchi translation and EvalLasso cover future
//     operators only; past operators, start, end and the intervals are
//     ErrUnsupported there.
//   - With past atoms computed by a monitor (the default), early verdicts
//     are sound but may come later than the first position that decides
//     them; Options.ExactPast makes them exact.
//   - A DFA is immutable and safe for concurrent use; a Monitor is not.
package automaton
