package syntax

// ltl:spec spaced G(x) // want `not a directive because of the space after //: write //ltl:spec`
/*ltl:spec block G(x)*/ // want `directives are line comments: write //ltl:spec on a line of its own`
//ltl: // want `ltl: missing directive name after ltl: \(want prop, event, spec, symbolic, specfile or range\)`
//ltl:frobnicate x // want `ltl:frobnicate: unknown directive`
//ltl:spec // want `ltl:spec: missing name \(want //ltl:spec NAME FORMULA\)`
//ltl:spec G G(x) // want `ltl:spec: invalid name "G": a name is an identifier`
//ltl:spec a.b G(x) // want `ltl:spec: invalid name "a.b"`
//ltl:spec noformula // want `ltl:spec noformula: missing formula`
//ltl:prop noexpr // want `ltl:prop noexpr: missing expression`
//ltl:event e1 extra // want `ltl:event e1: unexpected "extra" after the name`
//ltl:specfile // want `ltl:specfile: missing path`
//ltl:spec bad G(x &&) // want `ltl:spec bad: syntax error: expected formula, found "\)"`
// An unterminated quote swallows a trailing comment, so this want is above:
// want +1 `ltl:spec bad2: syntax error: expected closing " of the atom at offset 2, found end of formula`
//ltl:spec bad2 G("unterminated)
//ltl:spec dup F x
//ltl:spec dup G x // want `ltl:spec dup: duplicate name: already declared by the ltl:spec at syntax.go:18:1`
//
// A doc comment's code block may show a directive:
//
//	ltl:spec inCodeBlock G(x)
var x bool

//ltl:range x 0..1 // want `ltl:range: x has type bool: a range bounds an integer variable`
//ltl:range y 1..0 // want `ltl:range: empty range 1..0`
