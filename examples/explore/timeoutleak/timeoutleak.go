// Package timeoutleak is a goroutine leak: a worker sends its result on an
// unbuffered channel, but the caller gave up after a timeout and nobody
// will ever receive.
package timeoutleak

import (
	"errors"
	"time"
)

// ErrTimeout is returned when the work takes too long.
var ErrTimeout = errors.New("timeout")

func work() int {
	time.Sleep(2 * time.Second)
	return 42
}

// Fetch waits at most one second for the result. When it times out the
// worker blocks forever on its send.
func Fetch() (int, error) {
	ch := make(chan int)
	go func() { ch <- work() }()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(time.Second):
		return 0, ErrTimeout
	}
}

// SafeFetch gives the channel room for the result, so the worker can
// always finish.
func SafeFetch() (int, error) {
	ch := make(chan int, 1)
	go func() { ch <- work() }()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(time.Second):
		return 0, ErrTimeout
	}
}
