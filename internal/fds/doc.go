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
// The BDD package is hidden behind the Backend interface. Two backends are
// provided: the native kernel (NewKernel, the default: array node table,
// chained unique table, direct-mapped cache) and github.com/dalzilio/rudd
// (NewRudd), whose map-based unique table made it several times slower on
// the GR(1) benchmarks.
package fds
