// Package symbolic holds example programs for the explorer's symbolic
// inputs: bugs that only exact inputs reach. Each subdirectory
// is a small package whose inputs are marked symbolic — the parameters
// of a //ltl:symbolic function, a //ltl:symbolic package variable, or
// values from ltltest.Symbolic in a test — so the explorer follows every
// feasible branch, asks Z3 which paths exist, and reports the concrete
// inputs of each finding.
//
// The explorer's tests (explore/symbolic_test.go) assert the findings,
// their inputs, and that the inputs make the bug happen when the Go
// function is called natively with them.
package symbolic
