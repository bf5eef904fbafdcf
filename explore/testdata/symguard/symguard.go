// Package symguard has LTL state predicates over symbolic values that
// the explorer's tests use for the corner cases of deciding them: a
// predicate the solver cannot decide quickly, and one whose evaluation
// divides by a symbolic value.
package symguard

var x, y uint32

//ltl:prop factored x > 1 && y > 1 && uint64(x)*uint64(y) == 4294967291*4294967279
//ltl:spec neverFactored G !factored

// Factor stores two inputs; the spec is violated iff they factor the
// product of the two largest 32-bit primes.
//
//ltl:symbolic
func Factor(a, b uint32) {
	x, y = a, b
}

// (8-bit division is cheap for the solver; count starts at 1, so the
// initial state has no division by zero)
var (
	total int8
	count int8 = 1
)

//ltl:prop crowded count != 0 && total/count > 10 || count == 0 && total > 10
//ltl:prop avgHigh total/count > 10
//ltl:spec notCrowded G !crowded
//ltl:spec avgNotHigh G !avgHigh

// Average stores a count and a total (the average is total/count).
// The predicates are observed after each store: with the count first,
// the state between the two (total still 0) divides only by n.
//
//ltl:symbolic
func Average(t, n int8) {
	count, total = n, t
}

var limit int

//ltl:prop overLimit limit > 100
//ltl:prop opened call Open
//ltl:spec openUnderLimit G(opened -> !overLimit)

// Configure sets the limit and opens: the spec is decided at the call
// event of Open (a scheduling point inside the entry goroutine's code).
//
//ltl:symbolic
func Configure(l int8) {
	limit = int(l) * 2
	Open()
	limit = 0
}

// Open is the observed call.
func Open() {}
