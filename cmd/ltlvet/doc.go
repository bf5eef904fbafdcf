// Command ltlvet checks //ltl: annotations (see package annotate): their
// syntax, that their Go expressions type-check where they stand, are
// boolean and have no side effects, that events and symbolic directives are
// attached to something, and that every spec means something (not
// unsatisfiable, valid or vacuous). It is the analyzer of package
// annotate/ltlanalysis.
//
// Usage, under go vet:
//
//	go install github.com/henceforth-go/henceforth/cmd/ltlvet
//	go vet -vettool=$(which ltlvet) ./...
//
// or standalone, loading packages itself (tests included unless -test=false):
//
//	ltlvet ./...
//
// Both print one line per problem, file:line:col: message.
//
// # Exit status
//
// Standalone: 0 no problem, 3 problems reported, 1 the packages could not
// be loaded or analyzed. Under go vet: go vet's own status, 1 when any
// problem is reported.
//
// # Limits
//
//   - It checks that annotations are well-formed and meaningful, not that
//     they hold (ltl explore and ltltest.Explore do), nor that the explorer
//     supports them: a state predicate over a local variable, for instance,
//     passes ltlvet and is reported when explored.
//   - The meaning checks give up on specs whose automata exceed 2^14
//     states: such a spec gets a "meaning not checked" diagnostic.
//   - "Not used by any spec" is reported on a package's test variant when
//     it has in-package test files, so that specs in the tests count.
package main
