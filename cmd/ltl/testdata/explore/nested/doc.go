// Package nested holds a test for `ltl explore`'s own tests: a String
// method that locks a mutex runs inside fmt.Sprintf, without a scheduling
// choice, which ltl explore reports as a warning.
package nested
