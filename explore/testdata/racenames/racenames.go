// Package racenames holds racy functions whose race reports must name the
// accessed memory by its source expression.
package racenames

// Counter is counted through a pointer receiver.
type Counter struct{ m int }

func (c *Counter) inc() { c.m++ }

// FieldOfReceiver races on a field through a pointer receiver.
func FieldOfReceiver() {
	c := &Counter{}
	done := make(chan bool)
	go func() {
		c.inc()
		done <- true
	}()
	c.inc()
	<-done
}

type stack struct{ items []int }

func (s *stack) set(i, v int) { s.items[i] = v }

// SliceElement races on an element of a slice field.
func SliceElement() {
	s := &stack{items: make([]int, 2)}
	done := make(chan bool)
	go func() {
		s.set(1, 1)
		done <- true
	}()
	s.set(1, 2)
	<-done
}

type registry struct{ names map[string]int }

func (r *registry) add(name string) { r.names[name]++ }

// Map races on a map field.
func Map() {
	r := &registry{names: map[string]int{}}
	done := make(chan bool)
	go func() {
		r.add("a")
		done <- true
	}()
	r.add("b")
	<-done
}

// Captured races on a variable captured by a closure.
func Captured() {
	total := 0
	done := make(chan bool)
	go func() {
		total++
		done <- true
	}()
	total++
	<-done
}

var hits int

// PackageVar races on a package variable.
func PackageVar() {
	done := make(chan bool)
	go func() {
		hits++
		done <- true
	}()
	hits++
	<-done
}

type node struct{ next *Counter }

func (n *node) get() *Counter { return n.next }

// Nested races on a field reached through a pointer field and a call, in
// a closure that captured the pointer.
func Nested() {
	n := &node{next: &Counter{}}
	done := make(chan bool)
	go func() {
		n.next.m = 1
		done <- true
	}()
	n.get().m = 2
	<-done
}

// Elements races on a slice element indexed by an expression, through a
// captured slice.
func Elements() {
	items := make([]int, 4)
	k := 1
	done := make(chan bool)
	go func() {
		items[k+1] = 1
		done <- true
	}()
	_ = items[2]
	<-done
}
