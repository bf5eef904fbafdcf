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
package annotate
