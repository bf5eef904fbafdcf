// Package bugs holds tests for `ltl explore`'s own tests: one per outcome
// (a deadlock, a failed assertion, a passing test, an unsupported call).
package bugs
