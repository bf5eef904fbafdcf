// Package conc holds concurrency kernels for the explorer's tests.
package conc

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func PingPong(t *testing.T) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
		close(pong)
	}()
	for i := 0; i < 3; i++ {
		ping <- i
		if got := <-pong; got != i+1 {
			t.Errorf("got %d, want %d", got, i+1)
		}
	}
	close(ping)
	if _, ok := <-pong; ok {
		t.Error("pong not closed")
	}
}

func ABBA(t *testing.T) {
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

func Counter(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 3 {
		t.Fatalf("n = %d", n)
	}
}

func TimeoutLeak(t *testing.T) {
	ch := make(chan int)
	go func() {
		time.Sleep(2 * time.Second)
		ch <- 42
	}()
	select {
	case v := <-ch:
		t.Log("got", v)
	case <-time.After(time.Second):
		t.Log("timeout")
	}
}

func DoubleClose(t *testing.T) {
	ch := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-ch:
			default:
				close(ch)
			}
		}()
	}
	wg.Wait()
}

func CondMissed(t *testing.T) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	go func() {
		mu.Lock()
		ready = true
		mu.Unlock()
		c.Signal()
	}()
	mu.Lock()
	if !ready {
		c.Wait()
	}
	mu.Unlock()
	_ = ready
}

func CondLost(t *testing.T) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	go func() {
		c.Signal() // may come before Wait: lost
	}()
	mu.Lock()
	c.Wait()
	mu.Unlock()
}

func Context(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	select {
	case <-ctx.Done():
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Errorf("err = %v", ctx.Err())
		}
	case <-time.After(2 * time.Second):
		t.Error("context did not time out")
	}
}

func Atomics(t *testing.T) {
	var n atomic.Int64
	var old int32
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.Add(1)
			atomic.AddInt32(&old, 2)
		}()
	}
	wg.Wait()
	if n.Load() != 2 || atomic.LoadInt32(&old) != 4 {
		t.Error("atomics")
	}
}

func Sleep(t *testing.T) {
	start := time.Now()
	var order []int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 3; i >= 1; i-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * time.Millisecond)
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(order) != 3 || order[0] != 1 || order[1] != 2 || order[2] != 3 {
		t.Errorf("order %v", order)
	}
	if d := time.Since(start); d < 3*time.Millisecond || d > 3*time.Millisecond+time.Microsecond {
		t.Errorf("elapsed %v", d)
	}
}

func SelectSendClosed(t *testing.T) {
	ch := make(chan int, 1)
	close(ch)
	select {
	case ch <- 1:
	default:
	}
}

func NilChanRecv(t *testing.T) {
	var ch chan int
	<-ch
}

func CloseNil(t *testing.T) {
	var ch chan int
	close(ch)
}

func EmptySelect(t *testing.T) {
	go func() {}()
	select {}
}

func ChanLenCap(t *testing.T) {
	ch := make(chan int, 3)
	ch <- 1
	ch <- 2
	<-ch
	if len(ch) != 1 || cap(ch) != 3 {
		t.Errorf("len %d cap %d", len(ch), cap(ch))
	}
	close(ch)
	v, ok := <-ch
	w, ok2 := <-ch
	if v != 2 || !ok || w != 0 || ok2 {
		t.Errorf("drain after close: %d %v %d %v", v, ok, w, ok2)
	}
}

func UnlockUnlocked(t *testing.T) {
	var mu sync.Mutex
	mu.Unlock()
}

func NegativeWaitGroup(t *testing.T) {
	var wg sync.WaitGroup
	wg.Done()
}

func RecoverInGoroutine(t *testing.T) {
	done := make(chan string)
	go func() {
		defer func() { done <- fmt.Sprint(recover()) }()
		var m map[string]int
		m["x"]++
	}()
	if got := <-done; got != "assignment to entry in nil map" {
		t.Errorf("recovered %q", got)
	}
}

func GoexitRunsDefers(t *testing.T) {
	done := make(chan bool)
	go func() {
		defer close(done)
		runtime.Goexit()
	}()
	<-done
}

func PanicInGoroutine(t *testing.T) {
	done := make(chan bool)
	go func() {
		panic(fmt.Errorf("worker %d failed", 3))
	}()
	<-done
}
