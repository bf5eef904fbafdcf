// Package symbolic owns symbolic values and path conditions for the
// explorer: Go booleans and integers whose value depends on named
// inputs, with Go's semantics bit for bit, and Sessions that decide with
// Z3 (github.com/aclements/go-z3) which branch paths are feasible and
// which concrete inputs reach them.
//
// # Values
//
// A Value is concrete or symbolic; operations mix both freely and fold
// concrete operands natively, so concrete execution never touches Z3.
// Integers are bit-vectors of their type's width (int, uint and uintptr
// are 64 bits): + - * wrap around, comparisons and / % >> are signed or
// unsigned by type, / truncates toward zero, % has the sign of the
// dividend, MinInt / -1 == MinInt, shifts by counts >= the width give 0
// (or -1 for >> of a negative signed value), and conversions truncate or
// sign/zero-extend. Where Go panics — a zero divisor, a negative shift
// count — PanicCondition gives the condition and Go's message, for the
// explorer to fork a panicking path.
//
//	n := symbolic.Input("n", symbolic.Int)
//	limit := symbolic.Input("limit", symbolic.Int)
//	lhs, _ := symbolic.BinOp(token.MUL, n, symbolic.MakeInt(symbolic.Int, 3))
//	rhs, _ := symbolic.BinOp(token.ADD, limit, symbolic.MakeInt(symbolic.Int, 7))
//	cond, _ := symbolic.BinOp(token.EQL, lhs, rhs) // n*3 == limit+7
//
// # Sessions
//
// A Session holds a path condition as a stack (Push, Assume, Pop) and
// answers Branch, Feasible, Check, Model and Concretize. Every answer is
// Sat, Unsat or Unknown; Unknown (a time or resource limit) carries its
// reason and is never folded into the other two. Queries are answered,
// cheapest first: by evaluating the current model; from a cache keyed
// by the canonical constraint set; by repairing the current model into
// one for the query (checked by evaluation, so it can only say Sat); or
// by Z3 — incrementally, and only on the slice of the path condition
// that shares inputs with the question. One Session owns one Z3 context
// and is not safe for concurrent use: use one per worker. Values and
// Models are immutable and may be shared.
//
// Z3 reports errors by panicking through go-z3; Sessions recover them
// at their boundary and return errors.
//
// # Limits
//
//   - Booleans and integers only: no floats, strings, pointers, arrays or
//     structs as symbolic values (the explorer splits or fixes those where
//     they meet a symbolic integer), and no array theory (a symbolic index
//     is the explorer's business).
//   - Integers follow a 64-bit platform: int, uint and uintptr are 64 bits
//     wide, whatever GOARCH the tested program targets.
//   - Every query runs under a time limit (Config.Timeout, DefaultTimeout
//     10 s): nonlinear arithmetic (products of inputs, divisions by inputs)
//     may answer Unknown, which callers must treat as not decided.
//   - A Session owns a Z3 context, which costs milliseconds to create and
//     is not shared: one per worker, and a fresh one where an answer must
//     not depend on earlier queries. Z3's models are not unique: the same
//     path condition may give other input values in another context, so
//     compare path conditions, and check values by evaluation, not by
//     equality with an earlier run.
//   - Building requires cgo and the Z3 library (libz3).
package symbolic
