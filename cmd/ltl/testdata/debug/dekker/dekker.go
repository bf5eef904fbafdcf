// Package dekker is a copy of examples/explore/dekker without its test
// (the tests of ltl debug load it in a fraction of the time): the Dekker
// mutual-exclusion example of Gunter and Peled's "Temporal Debugging for
// Concurrent Systems" (§6, Figs. 3–4), ported statement by statement.
//
// Every node of the paper's flow graph is a statement marked with the
// paper's label (//ltl:event m1 … m11 for P0, n1 … n11 for P1), so each
// node is one step of the explorer and "Pi at l" — l was the last node
// Pi executed — is the location atom at(P0, l). The code is the paper's
// as printed, including its "wait turn=1" for P0 and "wait turn=0" for
// P1 (classic Dekker waits for the other value); the paper's results hold
// for the printed version. A wait is a spin on runtime.Gosched, which
// leaves the state unchanged, so the search's state matching makes it a
// self-loop, as the paper's blocked "wait" transition is.
//
// The variables are plain ints: without Options.Shared, only the labelled
// statements are scheduling points, which is the paper's atomicity (one
// flow-graph node per step).
package dekker

import "runtime"

// The shared variables of Fig. 3. turn starts at 0 (the paper sets it in
// a separate initialization process); c0 and c1 start at 0 (the paper
// leaves them unspecified; its results do not depend on them).
var c0, c1, turn, critical int

// running is the condition of the paper's "while true" (node m11/n11).
var running = true

// P0 is process P0 of Fig. 3.
func P0() {
	//ltl:event m1
	c0 = 1
	for {
		//ltl:event m11
		if !running {
			return
		}
		//ltl:event m2
		c0 = 0
		for {
			//ltl:event m7
			if c1 != 0 {
				break
			}
			//ltl:event m6
			if turn == 1 {
				//ltl:event m3
				c0 = 1
				//ltl:event m4
				await(1) // wait turn=1
				//ltl:event m5
				c0 = 0
			}
		}
		//ltl:event m8
		critical = 0
		//ltl:event m9
		c0 = 1
		//ltl:event m10
		turn = 1
	}
}

// P1 is process P1 of Fig. 3, symmetric to P0.
func P1() {
	//ltl:event n1
	c1 = 1
	for {
		//ltl:event n11
		if !running {
			return
		}
		//ltl:event n2
		c1 = 0
		for {
			//ltl:event n7
			if c0 != 0 {
				break
			}
			//ltl:event n6
			if turn == 0 {
				//ltl:event n3
				c1 = 1
				//ltl:event n4
				await(0) // wait turn=0
				//ltl:event n5
				c1 = 0
			}
		}
		//ltl:event n8
		critical = 1
		//ltl:event n9
		c1 = 1
		//ltl:event n10
		turn = 0
	}
}

// await is the paper's "wait turn=v": it returns once turn is v.
func await(v int) {
	for turn != v {
		runtime.Gosched()
	}
}

// Run starts both processes; they run forever.
func Run() {
	c0, c1, turn, critical = 0, 0, 0, 0
	go P0()
	go P1()
	select {}
}
