// Package multiinstance is the two-instance example of the Java thesis
// (§4.3): "the field k of the first instance plus 2 will eventually equal
// the field k of the second instance", <> k#1 + 2 == k#2. Here the number
// of calls of foo on the second instance is a symbolic input.
package multiinstance

// Counter is the thesis's MultiInstance class.
type Counter struct{ k int }

func (c *Counter) foo() { c.k++ }

// Run creates two instances and calls foo on the second one calls times
// (at most 4). The spec is checked after every state change: it holds
// iff k#1 + 2 == k#2 at some point, i.e. for calls >= 2.
//
//ltl:symbolic
func Run(calls uint8) {
	first, second := &Counter{}, &Counter{}
	held := first.k+2 == second.k
	for i := uint8(0); i < calls && i < 4; i++ {
		second.foo()
		held = held || first.k+2 == second.k
	}
	if !held {
		panic("LTL violated: <> k#1 + 2 == k#2")
	}
}
