// Package bounds has an off-by-one bounds bug behind a length check.
package bounds

var table = []int{10, 20, 30, 40}

// Lookup returns table[i], or -1 for an index outside the table. The
// length check is off by one: i == len(table) passes it.
//
//ltl:symbolic
func Lookup(i int) int {
	if i < 0 || i > len(table) {
		return -1
	}
	return table[i]
}
