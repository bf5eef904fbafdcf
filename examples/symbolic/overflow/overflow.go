// Package overflow has an overflow check that is reachable only with
// inputs near the top of the range.
package overflow

// Reserve returns the new fill level of a buffer after reserving n more
// bytes; the sum wraps around for large inputs, which the a+b < a check
// catches.
//
//ltl:symbolic
func Reserve(used, n uint64) uint64 {
	total := used + n
	if total < used {
		panic("reservation overflows")
	}
	return total
}
