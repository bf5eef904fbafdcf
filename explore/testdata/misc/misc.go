// Package misc holds programs for the explorer's API tests.
package misc

import (
	"os"
	"sync"
	"testing"
)

func WritesFile(t *testing.T) {
	err := os.WriteFile(os.DevNull, nil, 0o644)
	_ = err
}

func Spin(t *testing.T) {
	x := 0
	for {
		x++
	}
}

func ManySteps(t *testing.T) {
	ch := make(chan int, 1)
	for i := 0; i < 1000; i++ {
		ch <- i
		<-ch
	}
}

func Subtests(t *testing.T) {
	var order []string
	t.Cleanup(func() { order = append(order, "cleanup") })
	ok := t.Run("first", func(t *testing.T) {
		order = append(order, "first")
	})
	if !ok {
		t.Error("first failed")
	}
	failed := t.Run("second", func(t *testing.T) {
		order = append(order, "second")
		t.Fatal("boom")
		order = append(order, "not reached")
	})
	if failed {
		t.Error("second should have failed")
	}
	t.Run("skipped", func(t *testing.T) {
		t.Skip("later")
		order = append(order, "not reached either")
	})
	if len(order) != 2 || order[0] != "first" || order[1] != "second" {
		t.Errorf("order %v", order)
	}
}

func Fatal(t *testing.T) {
	done := false
	t.Cleanup(func() { done = true; _ = done })
	t.Fatalf("stop at %d", 42)
	t.Error("not reached")
}

func ABBA(t *testing.T) {
	var a, b sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
	}()
	b.Lock()
	a.Lock()
	a.Unlock()
	b.Unlock()
	wg.Wait()
}

func TestWithClosure(t *testing.T) {
	x := 1
	body := func(t *testing.T) {
		if x != 1 {
			t.Error("x")
		}
	}
	_ = body
	clean := func(t *testing.T) {
		t.Log("no captures")
	}
	_ = clean
}

var calls int

func Work() { calls++ }

func Observed(t *testing.T) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); Work() }()
	}
	wg.Wait()
}

// Flag is a symbolic input in the brancher test.
var Flag bool

func Branchy(t *testing.T) {
	if Flag {
		t.Error("took the true branch")
	}
}

func recurse(n int) int { return recurse(n+1) + 1 }

func Recursion(t *testing.T) { recurse(0) }

// RacyFlag writes a variable from two goroutines without synchronization;
// nothing checks the result.
func RacyFlag(t *testing.T) {
	flag := 0
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			flag = i
		}()
	}
	wg.Wait()
	_ = flag
}

// OrderedFlag writes the same variable, ordered by a channel.
func OrderedFlag(t *testing.T) {
	flag := 0
	ch := make(chan bool)
	go func() {
		flag = 1
		ch <- true
	}()
	<-ch
	flag = 2
	_ = flag
}

// MapRace writes a map from two goroutines without a lock.
func MapRace(t *testing.T) {
	m := map[int]int{}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m[i] = i
		}()
	}
	wg.Wait()
}

// MapLocked writes a map from two goroutines under a mutex.
func MapLocked(t *testing.T) {
	m := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			m[i] = i
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(m) != 2 {
		t.Error("lost a map entry")
	}
}

// bump increments *p: the racing access is one frame below the goroutine.
func bump(p *int) { *p++ }

// RacyBump races on a counter through a helper, from two goroutines.
func RacyBump(t *testing.T) {
	n := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bump(&n)
		}()
	}
	wg.Wait()
}

// LazyShareOrders: the int is reached by the goroutine only through the
// captured pointer p (two hops); the test writes it through q, a copy it
// took before the go statement. The test fails when the goroutine reads
// before the write: only a schedule at both accesses shows it.
func LazyShareOrders(t *testing.T) {
	p := new(int)
	q := p
	done := make(chan bool)
	go func() {
		if *p == 0 {
			t.Error("read before the write")
		}
		close(done)
	}()
	*q = 1
	<-done
}
