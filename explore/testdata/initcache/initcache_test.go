package initcache

import (
	"sync"
	"testing"
)

func TestRankKnown(t *testing.T) {
	if Rank(words[3]) != 3 {
		t.Errorf("Rank(%q) = %d", words[3], Rank(words[3]))
	}
}

func TestRankUnknown(t *testing.T) {
	if r := Rank("?"); r != -1 {
		t.Errorf("Rank = %d", r)
	}
}

func TestCounter(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); c.Add(Rank(words[1])) }()
	}
	wg.Wait()
	if c.Value() != 2 {
		t.Errorf("count = %d", c.Value())
	}
}

func TestRacyCounter(t *testing.T) {
	var c RacyCounter
	done := make(chan bool)
	go func() { c.Add(1); done <- true }()
	c.Add(1)
	<-done
}

func TestDeadlock(t *testing.T) {
	var a, b sync.Mutex
	done := make(chan bool)
	go func() {
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
		done <- true
	}()
	b.Lock()
	a.Lock()
	a.Unlock()
	b.Unlock()
	<-done
}

func TestLeak(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- Rank(words[0]) }()
}

func TestPanicSometimes(t *testing.T) {
	var m sync.Mutex
	x := 0
	done := make(chan bool)
	go func() { m.Lock(); x = 1; m.Unlock(); done <- true }()
	m.Lock()
	if x == 1 {
		m.Unlock()
		panic("x is 1")
	}
	m.Unlock()
	<-done
}

func TestFailsSometimes(t *testing.T) {
	ch := make(chan int, 2)
	go func() { ch <- 1 }()
	go func() { ch <- 2 }()
	if a := <-ch; a == 2 {
		t.Errorf("2 came first")
	}
	<-ch
}

func TestChannels(t *testing.T) {
	ch := make(chan string)
	go func() {
		for _, w := range words[:3] {
			ch <- w
		}
		close(ch)
	}()
	n := 0
	for w := range ch {
		n += Rank(w)
	}
	if n != 0+1+2 {
		t.Errorf("n = %d", n)
	}
}

func TestSelect(t *testing.T) {
	a, b := make(chan int), make(chan int)
	go func() { a <- 1 }()
	go func() { b <- 2 }()
	for range 2 {
		select {
		case <-a:
		case <-b:
		}
	}
}

func TestOnce(t *testing.T) {
	var once sync.Once
	var wg sync.WaitGroup
	n := 0
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); once.Do(func() { n++ }) }()
	}
	wg.Wait()
	if n != 1 {
		t.Errorf("n = %d", n)
	}
}

func TestRWMutex(t *testing.T) {
	var mu sync.RWMutex
	m := map[string]int{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); mu.Lock(); m[words[0]] = 1; mu.Unlock() }()
	go func() { defer wg.Done(); mu.RLock(); _ = m[words[0]]; mu.RUnlock() }()
	wg.Wait()
}

func TestMapRace(t *testing.T) {
	m := map[string]int{}
	done := make(chan bool)
	go func() { m[words[1]] = 1; done <- true }()
	m[words[2]] = 2
	<-done
}

func TestCond(t *testing.T) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	go func() { mu.Lock(); ready = true; c.Signal(); mu.Unlock() }()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
}

func TestSubtests(t *testing.T) {
	for _, w := range words[:2] {
		t.Run(w, func(t *testing.T) {
			if Rank(w) < 0 {
				t.Errorf("no rank for %q", w)
			}
		})
	}
}

func TestFatal(t *testing.T) {
	if len(index) == len(words) {
		t.Fatalf("%d words", len(words))
	}
}

func TestSkip(t *testing.T) {
	t.Skip("skipped")
}

func TestPipeline(t *testing.T) {
	in, out := make(chan int), make(chan int)
	go func() {
		for v := range in {
			out <- v * 2
		}
		close(out)
	}()
	go func() { in <- 1; in <- 2; close(in) }()
	sum := 0
	for v := range out {
		sum += v
	}
	if sum != 6 {
		t.Errorf("sum = %d", sum)
	}
}

func TestWaitGroupMisuse(t *testing.T) {
	var wg sync.WaitGroup
	go func() { wg.Add(1); wg.Done() }()
	wg.Wait()
}

func TestUnlockTwice(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	mu.Unlock()
	mu.Unlock()
}
