// Package ctxcancel is a context-cancellation bug: a producer sends its
// results without watching the context, so when the consumer is cancelled
// and stops reading, the producer blocks forever.
package ctxcancel

import "context"

// Produce sends n values on out. It ignores ctx: after the consumer is
// cancelled the send blocks forever.
func Produce(ctx context.Context, n int, out chan<- int) {
	for i := 0; i < n; i++ {
		out <- i
	}
	close(out)
}

// SafeProduce gives up when ctx is cancelled.
func SafeProduce(ctx context.Context, n int, out chan<- int) {
	defer close(out)
	for i := 0; i < n; i++ {
		select {
		case out <- i:
		case <-ctx.Done():
			return
		}
	}
}

// Consume reads values until it has seen limit of them, then cancels.
func Consume(produce func(context.Context, int, chan<- int), n, limit int) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := make(chan int)
	go produce(ctx, n, ch)
	sum := 0
	for v := range ch {
		sum += v
		if v+1 == limit {
			break
		}
	}
	return sum
}
