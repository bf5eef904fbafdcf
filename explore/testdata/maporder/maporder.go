// Package maporder has programs whose outcome depends on the iteration
// order of a range over a map (Go randomizes it), for the explorer's
// map-order choices.
package maporder

import (
	"sort"
	"strings"
	"sync"
	"testing"
)

// BBeforeA fails only when "b" is visited before "a": an order insertion
// order (a, b) never shows.
func BBeforeA(t *testing.T) {
	m := map[string]int{"a": 1, "b": 2}
	var order []string
	for k := range m {
		order = append(order, k)
	}
	if order[0] == "b" {
		t.Errorf("visited b before a: %v", order)
	}
}

// Order returns the keys of m in the order a range visits them.
func Order(m map[string]int) string {
	var b strings.Builder
	for k := range m {
		b.WriteString(k)
	}
	return b.String()
}

// NotRotation fails only for the order a, c, b, which no rotation of the
// insertion order (a, b, c) produces.
func NotRotation(t *testing.T) {
	m := map[string]int{"a": 1, "b": 2, "c": 3}
	if o := Order(m); o == "acb" {
		t.Errorf("order %s", o)
	}
}

// Rotation fails only for the order c, a, b, a rotation.
func Rotation(t *testing.T) {
	m := map[string]int{"a": 1, "b": 2, "c": 3}
	if o := Order(m); o == "cab" {
		t.Errorf("order %s", o)
	}
}

// Orders counts the distinct orders of a 4-entry map over explorations
// (the test reads the output).
func Orders() {
	m := map[int]int{1: 1, 2: 2, 3: 3, 4: 4}
	var s []byte
	for k := range m {
		s = append(s, byte('0'+k))
	}
	println(string(s))
}

// Sorted ranges over a map and sorts the keys: every order gives the
// same result (the explorer still explores each order).
func Sorted(t *testing.T) {
	m := map[string]bool{"x": true, "y": true, "z": true}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, "") != "xyz" {
		t.Error("keys", keys)
	}
}

// One ranges over a map of one entry: no choice.
func One(t *testing.T) {
	m := map[string]int{"only": 1}
	n := 0
	for range m {
		n++
	}
	if n != 1 {
		t.Error(n)
	}
}

// DeleteAhead deletes, during the range, the entry it has not reached
// yet: it is not visited, whichever comes first.
func DeleteAhead(t *testing.T) {
	m := map[string]int{"a": 1, "b": 2}
	visited := 0
	for k := range m {
		visited++
		if k == "a" {
			delete(m, "b")
		} else {
			delete(m, "a")
		}
	}
	if visited != 1 || len(m) != 1 {
		t.Errorf("visited %d, %d left", visited, len(m))
	}
}

// AddDuring adds an entry during the range: the explorer visits it
// after the original ones (Go may skip it) and warns.
func AddDuring(t *testing.T) {
	m := map[int]bool{1: true, 2: true}
	seen := 0
	for k := range m {
		seen++
		if k < 10 {
			m[k+10] = true
		}
	}
	if seen != 4 {
		t.Errorf("seen %d", seen)
	}
}

// FirstWins: two goroutines each take the first key of their own map
// and race (under a mutex) to record it; the test fails if the winner
// recorded "b". Needs both a schedule and an order.
func FirstWins(t *testing.T) {
	var mu sync.Mutex
	winner := ""
	var wg sync.WaitGroup
	for i, m := range []map[string]int{{"a": 1, "b": 2}, {"a": 1, "c": 3}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := ""
			for k := range m {
				first = k
				break
			}
			mu.Lock()
			if winner == "" && (i == 0 || first != "a") {
				winner = first
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if winner == "b" {
		t.Error("b won")
	}
}

// Workers: k goroutines each sum their own map of 3 entries, then add
// the sum to a total under a mutex (the order is irrelevant to the
// result; every order is still a different execution). For measuring.
func workers(k int) {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for i := range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := map[int]int{i: 1, i + 10: 2, i + 20: 3}
			s := 0
			for _, v := range m {
				s += v
			}
			mu.Lock()
			total += s
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 6*k {
		panic("total")
	}
}

// Workers2 and Workers3 run workers with 2 and 3 goroutines.
func Workers2() { workers(2) }
func Workers3() { workers(3) }

// OneEntryWorkers is Workers3 with maps of one entry: no order choice.
func OneEntryWorkers() {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := map[int]int{i: 1}
			s := 0
			for _, v := range m {
				s += v
			}
			mu.Lock()
			total += s
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 3 {
		panic("total")
	}
}

// SharedRange: one goroutine ranges over a map of 3 entries that only
// it uses while two others exchange messages: orders × interleavings.
func SharedRange() {
	ch := make(chan int)
	go func() { ch <- 1 }()
	go func() { ch <- 2 }()
	m := map[string]int{"a": 1, "b": 2, "c": 3}
	s := 0
	for _, v := range m {
		s += v
	}
	<-ch
	<-ch
	if s != 6 {
		panic("sum")
	}
}
