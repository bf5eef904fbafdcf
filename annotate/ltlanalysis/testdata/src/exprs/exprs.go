package exprs

import "strings"

var _ = strings.ToUpper

var (
	counter int
	name    string
	ch      chan bool
	on      bool
)

//ltl:prop p1 counter + // want `ltl:prop p1: syntax error: expected operand, found end of expression`
//ltl:prop p2 undefinedVar > 0 // want `ltl:prop p2: undefined: undefinedVar`
//ltl:prop p3 counter // want `ltl:prop p3: counter has type int, not bool`
//ltl:prop p4 strings.HasPrefix(name, "x") // want `ltl:prop p4: call of strings.HasPrefix is not allowed: it may have side effects`
//ltl:prop p5 <-ch // want `ltl:prop p5: receive <-ch is not allowed: it has side effects`
//ltl:prop p6 func() bool { return on }() // want `ltl:prop p6: function literal is not allowed in a prop`
//ltl:prop p7 true // want `ltl:prop p7: true is the constant true: a prop must depend on the program's state`
//ltl:prop p8 int // want `ltl:prop p8: int is a type, not a boolean expression`
//ltl:prop p9 name == 3 // want `ltl:prop p9: invalid operation: name == 3 \(mismatched types string and untyped int\)`
//ltl:prop p10 len // want `ltl:prop p10: len is not a boolean expression`
//ltl:prop ok len(name) > 0 && int8(counter) < 3 && max(counter, 2) > 2 && on && name != "//"
//ltl:spec usesAll G(p1 || p2 || p3 || p4 || p5 || p6 || p7 || p8 || p9 || p10 || ok)
