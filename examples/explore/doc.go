// Package explore holds example programs for the schedule explorer
// (package github.com/henceforth-go/henceforth/explore). Each
// subdirectory is a small package with a concurrency bug taken from the
// patterns that recur in real Go projects, and its fix:
//
//   - the buggy scenario is a function Scenario(t *testing.T) in the
//     package's test file. It is not a Test function, so plain `go test`
//     does not run it (the bug shows only in some schedules, and would make
//     the package's tests flaky); the explorer runs it by name and finds the
//     bug in every exploration;
//   - the fixed version is an ordinary TestFixed that passes under `go test`
//     and under exhaustive exploration.
//
// The explorer's own tests (explore/examples_test.go) assert the kind of
// each finding and that its replay token reproduces it.
package explore
