// Package fds owns the symbolic layer of henceforth's game and compositional
// algorithms: finite-domain variables ("fair discrete systems" in the JTLV
// thesis) encoded over binary decision diagrams.
//
// A Space declares Boolean and bounded-integer variables, each with an
// unprimed copy (the current state) and a primed copy (the next state),
// interleaved in the variable order. BDDs over a Space support the Boolean
// connectives, existential and universal quantification, relational
// products, renaming between the two copies, integer bit-vector arithmetic
// (Vec) and the enumeration of satisfying assignments. An Arena adds the
// controllable predecessors of two-player games.
//
// The BDD package is hidden behind the Backend interface; the native kernel
// (NewKernel: array node table, chained unique table, direct-mapped cache,
// complement edges) implements it, with Coudert and Madre's restrict
// (BDD.Restrict) for simplifying functions against a care set.
//
// # Limits
//
//   - The variable order is the declaration order, fixed by Build (each
//     variable's primed bits interleaved with its unprimed ones); there is
//     no dynamic reordering, so a bad declaration order can make BDDs
//     exponentially larger. No variable can be declared after Build.
//   - An integer variable spans at most 2^30 values (30 bits).
//   - After a failure — the node table's limit reached (ErrNodeLimit), or
//     the Space's context done (ErrInterrupted) — Space.Err reports why,
//     and the BDDs computed after it are not meaningful.
//   - A Space and its BDDs are not safe for concurrent use.
package fds
