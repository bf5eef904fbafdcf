// Package scale divides by a value that is zero only for a magic
// combination of inputs; its test draws the inputs with
// ltltest.Symbolic, so it is a randomized test under go test and a
// symbolic one under the explorer.
package scale

// Scale returns 100*n divided by n*3-limit-7, which is zero exactly when
// n*3 == limit+7.
func Scale(n, limit int) int {
	return 100 * n / (n*3 - limit - 7)
}
