// Package outcomes holds concurrent programs that report their outcome
// with t.Errorf, so that the set of reported outcomes shows which
// behaviours an exploration strategy reached.
package outcomes

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

func MutexOrder(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	var order []int
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
		}()
	}
	wg.Wait()
	t.Errorf("%v", order)
}

func FanIn(t *testing.T) {
	ch := make(chan int)
	for i := 0; i < 3; i++ {
		go func() { ch <- i }()
	}
	t.Errorf("%d %d %d", <-ch, <-ch, <-ch)
}

func Buffered(t *testing.T) {
	ch := make(chan int, 2)
	done := make(chan bool)
	go func() {
		for i := 0; i < 3; i++ {
			ch <- i
		}
		close(ch)
	}()
	go func() {
		s := ""
		for v := range ch {
			s += fmt.Sprint(v)
		}
		done <- true
		_ = s
	}()
	select {
	case <-done:
		t.Errorf("done first")
	case v, ok := <-ch:
		t.Errorf("got %d %v", v, ok)
	}
}

func RWMutex(t *testing.T) {
	var rw sync.RWMutex
	x := 0
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); rw.Lock(); x = x*10 + 1; rw.Unlock() }()
	go func() {
		defer wg.Done()
		rw.RLock()
		_ = x
		rw.RUnlock()
		rw.Lock()
		x = x*10 + 2
		rw.Unlock()
	}()
	go func() {
		defer wg.Done()
		rw.RLock()
		y := x
		rw.RUnlock()
		rw.Lock()
		x = x*10 + y%10
		rw.Unlock()
	}()
	wg.Wait()
	t.Errorf("%d", x)
}

func CAS(t *testing.T) {
	var v atomic.Int32
	var wg sync.WaitGroup
	wins := make([]bool, 3)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wins[i] = v.CompareAndSwap(0, int32(i+1))
		}()
	}
	wg.Wait()
	t.Errorf("%d %v", v.Load(), wins)
}

func SelectMany(t *testing.T) {
	a, b := make(chan int, 1), make(chan int, 1)
	go func() { a <- 1 }()
	go func() { b <- 2 }()
	got := ""
	for i := 0; i < 2; i++ {
		select {
		case v := <-a:
			got += fmt.Sprint("a", v)
		case v := <-b:
			got += fmt.Sprint("b", v)
		}
	}
	t.Errorf("%s", got)
}

func Partners(t *testing.T) {
	ch := make(chan string)
	res := make(chan string, 2)
	go func() { ch <- "x" }()
	go func() { ch <- "y" }()
	go func() { res <- "r1:" + <-ch }()
	go func() { res <- "r2:" + <-ch }()
	t.Errorf("%s %s", <-res, <-res)
}

func Once(t *testing.T) {
	var once sync.Once
	var wg sync.WaitGroup
	winner := -1
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { winner = i })
		}()
	}
	wg.Wait()
	t.Errorf("winner %d", winner)
}

func Broadcast(t *testing.T) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	var log []string
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			for !ready {
				c.Wait()
			}
			log = append(log, fmt.Sprint("w", i))
			mu.Unlock()
		}()
	}
	mu.Lock()
	ready = true
	log = append(log, "set")
	c.Broadcast()
	mu.Unlock()
	wg.Wait()
	t.Errorf("%v", log)
}

func CloseRace(t *testing.T) {
	ch := make(chan int, 1)
	out := make(chan string, 2)
	go func() { ch <- 1; close(ch) }()
	go func() {
		v, ok := <-ch
		out <- fmt.Sprint(v, ok)
		v, ok = <-ch
		out <- fmt.Sprint(v, ok)
	}()
	t.Errorf("%s %s", <-out, <-out)
}

// Diners: four philosophers with ordered sync.Mutex forks; each records
// when it eats (the outcome is the order of meals). Used to check parallel
// DPOR against sequential DPOR and DFS on a larger schedule tree.
func Diners(t *testing.T) {
	const n = 4
	var forks [n]sync.Mutex
	var logMu sync.Mutex
	var meals []int
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first, second := i, (i+1)%n
			if second < first {
				first, second = second, first
			}
			forks[first].Lock()
			forks[second].Lock()
			logMu.Lock()
			meals = append(meals, i)
			logMu.Unlock()
			forks[second].Unlock()
			forks[first].Unlock()
		}()
	}
	wg.Wait()
	t.Errorf("%v", meals)
}

// ChanLock: a buffered channel of capacity 1 used as a lock; the outcome
// is the order of the critical sections. The second acquisition is
// blocked (channel full) until the first holder releases: DPOR must still
// try it first.
func ChanLock(t *testing.T) {
	lock := make(chan bool, 1)
	done := make(chan bool)
	var log []int
	for i := 1; i <= 2; i++ {
		go func() {
			lock <- true
			log = append(log, i)
			<-lock
			done <- true
		}()
	}
	<-done
	<-done
	t.Errorf("%v", log)
}

// MutexDone: two goroutines take a mutex, then send their number to
// main over an unbuffered channel; the outcome shows both orders.
func MutexDone(t *testing.T) {
	var mu sync.Mutex
	done := make(chan int)
	var log []int
	for i := 1; i <= 2; i++ {
		go func() {
			mu.Lock()
			log = append(log, i)
			mu.Unlock()
			done <- i
		}()
	}
	a := <-done
	b := <-done
	t.Errorf("%v %d %d", log, a, b)
}

// WGDone: two goroutines signal a WaitGroup, then log under a mutex; main
// logs after Wait.
func WGDone(t *testing.T) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var log []int
	wg.Add(2)
	for i := 1; i <= 2; i++ {
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

// WGWaiters: two waiters on one WaitGroup released by two Done calls.
func WGWaiters(t *testing.T) {
	var wg sync.WaitGroup
	ch := make(chan int, 4)
	wg.Add(2)
	for i := 1; i <= 2; i++ {
		go func() {
			ch <- i
			wg.Done()
		}()
		go func() {
			wg.Wait()
			ch <- 10 * i
		}()
	}
	t.Errorf("%d %d %d %d", <-ch, <-ch, <-ch, <-ch)
}

// ChanForksShared: three philosophers with channel forks (capacity 1,
// lower-numbered first) that copy their captured forks into locals (with
// Options.Shared, two shared reads each before the first fork). No
// outcome: the happens-before classes are the orders of the fork
// acquisitions (6).
func ChanForksShared(t *testing.T) {
	const n = 3
	forks := make([]chan bool, n)
	for i := range forks {
		forks[i] = make(chan bool, 1)
	}
	for i := 0; i < n; i++ {
		first, second := i, (i+1)%n
		if second < first {
			first, second = second, first
		}
		a, b := forks[first], forks[second]
		go func() {
			x, y := a, b
			x <- true
			y <- true
			<-y
			<-x
		}()
	}
}

// guarded is a counter whose String method locks the mutex it shares
// with NestedLock's goroutine.
type guarded struct {
	mu *sync.Mutex
	n  *int
}

func (g guarded) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return fmt.Sprint(*g.n)
}

// NestedLock formats a guarded counter while a goroutine increments it:
// the Lock and Unlock in String run inside fmt.Sprintf (nested calls),
// scheduling points there too. Go may print "0" or "1"; the explorer
// reaches both.
func NestedLock(t *testing.T) {
	var mu sync.Mutex
	n := 0
	done := make(chan bool)
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		done <- true
	}()
	s := fmt.Sprintf("%v", guarded{&mu, &n})
	<-done
	t.Errorf("%s", s)
}
