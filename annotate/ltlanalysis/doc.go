// Package ltlanalysis is the go vet analyzer for //ltl: directives: it
// reports every problem package annotate finds — malformed directives,
// unknown atoms, Go expressions that do not type-check, are not boolean or
// have side effects, events attached to nothing, duplicate names, spec files
// that cannot be read — and the findings of annotate's Lint: specs that are
// unsatisfiable, valid or vacuous, G(a -> G !a) that says less than it
// seems, and props no spec uses.
//
// cmd/ltlvet runs it, under go vet or standalone. Each diagnostic's
// category is the annotate.Kind of the problem ("syntax", "meaning", …).
//
// # Limits
//
//   - The meaning checks build automata of at most 2^14 states, so that vet
//     stays fast: a larger spec gets a "meaning not checked" diagnostic
//     instead of a verdict.
//   - "Not used by any spec" is decided on the package's test variant when
//     the package has in-package test files, since specs there may use the
//     package's props: the plain package's pass does not report it.
//   - It checks that directives are well-formed and meaningful, not that
//     they hold: that is the explorer's job (ltl explore, ltltest.Explore),
//     and not whether the explorer supports them (state predicates over
//     locals, for instance, are reported only when explored).
package ltlanalysis
