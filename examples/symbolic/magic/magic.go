// Package magic hides a bug behind a magic-number comparison that random
// inputs practically never hit.
package magic

// Check fails for the inputs with n*3 == limit+7 (in int arithmetic).
//
//ltl:symbolic
func Check(n, limit int) int {
	if n*3 == limit+7 {
		panic("magic number reached")
	}
	return n - limit
}
