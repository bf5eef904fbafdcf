// Package annotate owns henceforth's //ltl: directives: it finds them in a
// package's Go files (tests included) and in the spec files they name,
// parses them, type-checks their Go expressions in the scope where each
// directive stands, and binds every atom of every spec to a program point —
// a state predicate (a typed Go expression), a call, return or go of a
// *types.Func, or a statement — ready for the explorer.
//
// The directives (line comments, no space after //):
//
//	//ltl:prop NAME EXPR          a Go boolean expression, no side effects
//	//ltl:prop NAME call F        a call of F starts (F, pkg.F, T.M, (*T).M)
//	//ltl:prop NAME return F      a call of F returns
//	//ltl:prop NAME go F          a go statement starts F
//	//ltl:event NAME              on the line before a statement, or at its
//	                              end: the statement starts executing
//	//ltl:spec NAME FORMULA       atoms: props, events, Go boolean
//	                              identifiers in scope, "quoted Go expressions"
//	//ltl:symbolic [PARAM…]       on a func: its parameters; on a package-level
//	                              var: the variable; explored as unknowns
//	//ltl:specfile PATH           prop and spec directives from a file
//	//ltl:range NAME LO..HI       the integer variable NAME (or the values a
//	                              channel NAME carries) stay within LO..HI;
//	                              for finite-state analyses (package split)
//
// A trailing // comment ends a directive. Every problem is an *Error with a
// position, in the form "file.go:LINE:COL: ltl:spec NAME: message"; FromTypes
// and Load collect all of them in an ErrorList and never stop at the first.
// Lint adds the meaning checks — unsatisfiable, valid and vacuous specs,
// G(a -> G !a) equivalent to G !a — and unused props.
//
// Entry points: Load (from package patterns, with go/packages) and FromTypes
// (from syntax and types already at hand, as in an analysis pass; the
// ltlanalysis subpackage is the go vet analyzer).
//
// # Limits
//
//   - This package binds atoms to program points; it gives them no runtime
//     meaning. The explorer evaluates them and supports a subset: state
//     predicates over package-level variables (not locals, parameters, map
//     indexing or method calls), and no go props. A directive this package
//     accepts can still be unsupported there.
//   - A prop expression may call only len, cap, min, max, real, imag,
//     complex and conversions; receives, function literals and other calls
//     are rejected as side effects.
//   - An event marks a statement inside a function body (the line before
//     it, or its end); calls of a function are props (call F), not events.
//     Spec files hold only prop and spec directives and include no other
//     spec files.
//   - //ltl:symbolic is bound to parameters and package-level variables
//     whatever their type; the explorer accepts only booleans and integers.
//   - //ltl:range promises a range for integer variables and channels of
//     integers; only package split relies on it and checks it.
//   - Lint's meaning checks consider non-empty traces with at most one event
//     per step, and report only what the Checker proves; a spec the Checker
//     cannot decide (too large, or an error) is reported as "meaning not
//     checked", not as fine.
package annotate
