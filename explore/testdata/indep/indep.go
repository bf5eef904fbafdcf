// Package indep holds programs whose operations commute by Go's semantics
// (independence.go): partial-order reduction explores fewer of their
// schedules, and must still reach every outcome and finding.
package indep

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// SixDone: six goroutines call Done after Add(6); one happens-before
// class.
func SixDone(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(6)
	for range 6 {
		go wg.Done()
	}
	wg.Wait()
}

// DoneThenLog: three goroutines call Done, then log under a mutex; the
// waiter logs after Wait. The outcomes are the orders of the logs.
func DoneThenLog(t *testing.T) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var log []int
	wg.Add(3)
	for i := 1; i <= 3; i++ {
		go func() {
			wg.Done()
			mu.Lock()
			log = append(log, i)
			mu.Unlock()
		}()
	}
	wg.Wait()
	mu.Lock()
	log = append(log, 0)
	s := fmt.Sprint(log)
	mu.Unlock()
	t.Errorf("%s", s)
}

// DoneRace: each goroutine writes its own slot before Done, and one
// writes a shared variable after it, which races with the waiter's read.
func DoneRace(t *testing.T) {
	var wg sync.WaitGroup
	slots := make([]int, 3)
	late := 0
	wg.Add(3)
	for i := range 3 {
		go func() {
			slots[i] = i + 1
			wg.Done()
			if i == 1 {
				late = 1
			}
		}()
	}
	wg.Wait()
	t.Errorf("%v %d", slots, late)
}

// IncDec: an Add(1) and a Done from a counter of 1 do not commute: the
// Done first lets the Wait return (or the Add then panics: Add called
// concurrently with Wait).
func IncDec(t *testing.T) {
	var wg sync.WaitGroup
	var added atomic.Bool
	wg.Add(1)
	go func() {
		wg.Add(1)
		added.Store(true)
		wg.Done()
	}()
	go wg.Done()
	wg.Wait()
	t.Errorf("added before Wait returned: %v", added.Load())
}

// Increments: increments from a positive counter commute; the Dones
// follow them in each goroutine.
func Increments(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	for range 3 {
		go func() {
			wg.Add(1)
			wg.Done()
		}()
	}
	wg.Done()
	wg.Wait()
}

// Reuse: the WaitGroup is reused while a waiter may not have returned
// (waitgroup.go's panics); Done calls commute only from a positive
// counter.
func Reuse(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(2)
	go wg.Done()
	go wg.Done()
	go func() {
		wg.Wait()
	}()
	wg.Wait()
	wg.Add(1)
	go wg.Done()
	wg.Wait()
}

// Pipe: a producer sends into a buffered channel that already holds a
// value while a consumer receives; a send and a receive commute while
// the channel is neither empty nor full.
func Pipe(t *testing.T) {
	ch := make(chan int, 3)
	ch <- 0
	done := make(chan []int)
	go func() {
		for i := 1; i <= 3; i++ {
			ch <- i
		}
	}()
	go func() {
		var got []int
		for range 3 {
			got = append(got, <-ch)
		}
		done <- got
	}()
	t.Errorf("%v", <-done)
}

// PipeTwo: two producers and two consumers on a buffered channel; which
// consumer gets which value is the outcome.
func PipeTwo(t *testing.T) {
	ch := make(chan int, 2)
	ch <- 0
	out := make(chan string, 2)
	for i := 1; i <= 2; i++ {
		go func() { ch <- i }()
		go func() { out <- fmt.Sprint(i, ":", <-ch) }()
	}
	a, b := <-out, <-out
	if a > b {
		a, b = b, a
	}
	t.Errorf("%s %s %d", a, b, <-ch)
}

// FullPipe: a capacity-1 channel: each send and receive is on slot 0, so
// none commute.
func FullPipe(t *testing.T) {
	ch := make(chan int, 1)
	var got []int
	done := make(chan bool)
	go func() {
		ch <- 1
		ch <- 2
	}()
	go func() {
		got = append(got, <-ch, <-ch)
		done <- true
	}()
	<-done
	t.Errorf("%v", got)
}

// CloseDrain: receives from a buffered channel that a sender closes.
func CloseDrain(t *testing.T) {
	ch := make(chan int, 2)
	ch <- 0
	go func() {
		ch <- 1
		close(ch)
	}()
	var got []string
	for range 3 {
		v, ok := <-ch
		got = append(got, fmt.Sprint(v, ok))
	}
	t.Errorf("%v", got)
}

// Loads: atomic loads commute with each other, not with the store.
func Loads(t *testing.T) {
	var x atomic.Int32
	var wg sync.WaitGroup
	res := make([]int32, 2)
	wg.Add(3)
	for i := range 2 {
		go func() {
			defer wg.Done()
			res[i] = x.Load() + x.Load()
		}()
	}
	go func() {
		defer wg.Done()
		x.Store(1)
	}()
	wg.Wait()
	t.Errorf("%v", res)
}

// Readers: read locks commute.
func Readers(t *testing.T) {
	var mu sync.RWMutex
	var wg sync.WaitGroup
	n := 0
	seen := make([]int, 2)
	wg.Add(3)
	for i := range 2 {
		go func() {
			defer wg.Done()
			mu.RLock()
			seen[i] = n
			mu.RUnlock()
		}()
	}
	go func() {
		defer wg.Done()
		mu.Lock()
		n++
		mu.Unlock()
	}()
	wg.Wait()
	t.Errorf("%v", seen)
}

// lockHandOver is timecases/manygo's test with n workers of iters
// iterations: two workers can deadlock (one holds outer, waits for inner;
// the other holds inner, waits for the read lock).
func lockHandOver(n, iters int) {
	var outer sync.RWMutex
	var inner sync.Mutex
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range iters {
				outer.Lock()
				inner.Lock()
				outer.Unlock()
				outer.RLock()
				inner.Unlock()
				outer.RUnlock()
				time.Sleep(time.Microsecond)
			}
		}()
	}
	wg.Wait()
}

func ManyGo3(t *testing.T) { lockHandOver(3, 10) }
func ManyGo4(t *testing.T) { lockHandOver(4, 10) }
func ManyGo5(t *testing.T) { lockHandOver(5, 10) }
func ManyGo6(t *testing.T) { lockHandOver(6, 10) }

// ManyGoOnce3 and ManyGoOnce4: one iteration each (explored completely).
func ManyGoOnce3(t *testing.T) { lockHandOver(3, 1) }
func ManyGoOnce4(t *testing.T) { lockHandOver(4, 1) }

// DoneN: n goroutines call Done after Add(n).
func doneN(n int) {
	var wg sync.WaitGroup
	wg.Add(n)
	for range n {
		go wg.Done()
	}
	wg.Wait()
}

func Done4(t *testing.T) { doneN(4) }
func Done8(t *testing.T) { doneN(8) }
