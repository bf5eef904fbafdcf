// Package ltl owns henceforth's formula language: the abstract syntax of
// linear temporal logic over finite traces (LTLf) with future, past and the
// Havelund–Roşu monitoring operators; its parser and printer; rewriting
// (simplification, negation normal form); classification; the naive reference
// evaluator that every engine is tested against; and random formulas for tests.
//
// Formulas are immutable and hash-consed: two formulas with the same structure
// are the same value, so == compares them structurally in constant time and a
// Formula can be a map key. The zero Formula is invalid.
//
// Entry points: Parse and MustParse read a formula, Formula.String prints
// it in canonical ASCII (Parse(f.String()) == f), the constructors (Atom,
// And, Until…) build one, Eval and EvalAll evaluate it on a Trace, Simplify
// and NNF rewrite it under a Semantics, Classify says which temporal
// operators it uses, and Random and RandomTrace generate test inputs.
//
// # Syntax
//
// ASCII, with Unicode forms accepted too (¬ ∧ ∨ ⊕ → ↔ ◇ □ ◯):
//
//	constants    true false
//	atoms        identifiers [A-Za-z_][A-Za-z0-9_.]* that are not keywords;
//	             any text in double quotes: "balance >= 0" (escapes \" and \\)
//	at(G, L)     a scenario atom: the atom named at(G,L), G made of
//	             [A-Za-z0-9_.#] and L of [A-Za-z0-9_.]; explore.Find reads
//	             it as "goroutine G is at label L"; at without ( is an atom
//	Boolean      ! ~ (not)   && & (and)   || | (or)   ^ xor (xor)
//	             -> => (implies)   <-> <=> (iff)
//	future       X f, X[!] f (strong next)   N f, WX f (weak next)
//	             F f, <> f (eventually)   G f, [] f (always)
//	             f U g (until)   f W g (weak until)   f R g, f V g (release)
//	             f M g (strong release)
//	past         Y f (yesterday)   Z f (weak yesterday)   O f (once)
//	             H f (historically)   f S g (since)   f B g (weak since)
//	monitoring   start(f)   end(f)   [f, g) and [f, g)s (strong interval)
//	             [f, g)w (weak interval)
//
// A token is read as long as it can be: Fa is the atom Fa; write F a or
// F(a). The keywords X N WX F G U W R V M Y Z O H S B true false xor start
// end are never atoms unless quoted. Precedence, loosest first: <-> (left
// associative), -> (right associative), xor, ||, &&, the binary temporal
// operators U W R V M S B (right associative), then the unary operators.
// So a && b U c is a && (b U c), and a -> b -> c is a -> (b -> c). The
// interval suffix s or w follows the ) with no space. Parse errors are
// *SyntaxError values with the byte offset, what was found and what was
// expected.
//
// # Semantics
//
// A trace w = w0…w(n-1) is a finite sequence of sets of atoms; the verdict
// of a formula is its value at position 0. Under LTLf, the default
// Semantics (docs/semantics.md in the repository has the same rules):
//
//   - an atom holds at i if it is in wi; Boolean operators as usual;
//   - X f at i: i+1 < n and f at i+1; N f at i: i+1 = n or f at i+1;
//   - F f at i: f at some k in i…n-1; G f at i: f at every k in i…n-1;
//   - f U g at i: g at some k ≥ i, f on i…k-1; f W g: f U g, or G f;
//   - f R g at i: g at every k ≥ i up to and including the first k with f
//     (or to the end); f M g: some k ≥ i has f and g, and g holds on i…k;
//   - Y f at i: i > 0 and f at i-1; Z f at i: i = 0 or f at i-1;
//   - O f at i: f at some k in 0…i; H f at i: f at every k in 0…i;
//   - f S g at i: g at some j ≤ i, f on j+1…i; f B g: f S g, or H f;
//   - start(f) at i: i > 0, f at i and not at i-1; end(f) at i: i > 0, f
//     not at i and at i-1;
//   - [f, g)s at i: f at some j ≤ i, and g nowhere in j…i; [f, g)w:
//     [f, g)s, or g nowhere in 0…i;
//   - the empty trace (n = 0): atoms are false; X, F, U, M, Y, O, S, start,
//     end and [f, g)s are false; N, G, W, R, Z, H, B and [f, g)w are true;
//     Boolean operators combine these values as usual.
//
// F, U and M are strong at the end of the trace; G, W, R and N are weak;
// F and G, U and R, W and M, X and N are duals. The RosuHavelund semantics
// follows the two source papers for readers who compare with them: Y f
// and Z f at position 0 equal f there, and a trace of n events has a
// virtual position n (the empty suffix) where no atom holds and F, U and M
// may be satisfied.
//
// # Limits
//
//   - Propositional atoms only: no first-order parameters, quantifiers, or
//     metric bounds on operators (no F[0,5]). Atoms name what the caller
//     binds them to; this package gives them no meaning.
//   - Finite traces only: infinite-word LTL is package automaton's Buchi
//     translation, not this package's evaluator.
//   - Parse accepts at most MaxNesting (4096) levels of nesting; deeper
//     input is a *SyntaxError.
//   - Eval and EvalAll are the literal reference semantics, O(|f|·n²) time:
//     an oracle for tests, not a monitor (use package monitor or
//     automaton on long traces).
//   - Simplify applies local rewrites only: it never grows a formula but
//     does not decide equivalence (automaton does).
package ltl
