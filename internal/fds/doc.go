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
// (BDD.Restrict) for simplifying functions against a care set, and
// Rudell's sifting (Reorderer, Space.Reorder, WithReordering) for changing
// the variable order while BDDs exist.
//
// # Variable order
//
// The initial order is the declaration order, fixed by Build, each
// variable's primed bits interleaved with its unprimed ones. A "level" in
// this package's API (Var.Levels, Space.Level, CubeOfLevels, the levels
// Walk and Branch report) names a BDD variable by its position in that
// initial order, and keeps naming the same variable after a reordering;
// Space.Position gives its current position. Sifting moves each bit
// together with its primed twin, so the two copies stay adjacent and
// renaming between them stays order-preserving. Dynamic reordering is off
// unless asked for: it triggers between operations, when a full node
// table has been collected, once the live nodes have grown fourfold since
// the previous reordering (and number at least AutoReorderMin), as CUDD's
// does (CUDD's factor is 2), or once the nodes made since reach a share
// of that reordering's work (reorderEvery), a share halved after each
// reordering that gained little (reorderPaid).
// Garbage collection and reordering are deterministic: the kernel learns which
// BDDs the program dropped from weak pointers after a forced Go collection, so
// the same operations give the same node table and the same orders.
//
// # Limits
//
//   - No variable can be declared after Build. Reordering moves single bits
//     (with their primed twins), not whole variables; a reordering runs to
//     the end of the block it is sifting before it looks at its context.
//   - An integer variable spans at most 2^30 values (30 bits).
//   - After a failure — the node table's limit reached (ErrNodeLimit), or
//     the Space's context done (ErrInterrupted) — Space.Err reports why,
//     and the BDDs computed after it are not meaningful.
//   - A Space and its BDDs are not safe for concurrent use.
package fds
