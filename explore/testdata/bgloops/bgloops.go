// Package bgloops holds libraries that start background loops their tests
// never stop: a cache's janitor, a pool's purge loop, a sleeping worker.
package bgloops

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// Cache is a TTL cache whose janitor deletes expired items on a ticker,
// stopped by a finalizer once the cache is unreachable (as go-cache's).
type Cache struct {
	*cache
}

type item struct {
	v       int
	expires time.Time
}

type cache struct {
	mu    sync.Mutex
	items map[string]item
	stop  chan bool
}

// NewCache returns a cache whose janitor runs every interval.
func NewCache(interval time.Duration) *Cache {
	c := &cache{items: map[string]item{}, stop: make(chan bool)}
	go c.janitor(interval)
	C := &Cache{c}
	runtime.SetFinalizer(C, func(C *Cache) { C.stop <- true })
	return C
}

func (c *cache) janitor(interval time.Duration) {
	t := time.NewTicker(interval)
	for {
		select {
		case <-t.C:
			c.DeleteExpired()
		case <-c.stop:
			t.Stop()
			return
		}
	}
}

// Set stores v under k until d has passed.
func (c *cache) Set(k string, v int, d time.Duration) {
	c.mu.Lock()
	c.items[k] = item{v, time.Now().Add(d)}
	c.mu.Unlock()
}

// Get returns the value under k if it has not expired.
func (c *cache) Get(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[k]
	if !ok || time.Now().After(it.expires) {
		return 0, false
	}
	return it.v, true
}

// DeleteExpired removes the expired items.
func (c *cache) DeleteExpired() {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, it := range c.items {
		if now.After(it.expires) {
			delete(c.items, k)
		}
	}
}

// Pool runs tasks; its purge loop runs until the pool's context is
// cancelled (as ants').
type Pool struct {
	mu      sync.Mutex
	idle    int
	cancel  context.CancelFunc
	purged  int
	running sync.WaitGroup
}

// NewPool starts the pool's purge loop.
func NewPool(interval time.Duration) *Pool {
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pool{cancel: cancel}
	go p.purge(ctx, interval)
	return p
}

func (p *Pool) purge(ctx context.Context, interval time.Duration) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		p.mu.Lock()
		p.purged += p.idle
		p.idle = 0
		p.mu.Unlock()
	}
}

// Submit runs f on a worker and waits for it.
func (p *Pool) Submit(f func()) {
	p.running.Add(1)
	go func() {
		defer p.running.Done()
		f()
		p.mu.Lock()
		p.idle++
		p.mu.Unlock()
	}()
	p.running.Wait()
}

// Release stops the purge loop.
func (p *Pool) Release() { p.cancel() }

// Stats counts work in the background, sleeping between rounds.
type Stats struct {
	mu     sync.Mutex
	rounds int
}

// NewStats starts the background loop.
func NewStats() *Stats {
	s := &Stats{}
	go func() {
		for {
			time.Sleep(time.Second)
			s.mu.Lock()
			s.rounds++
			s.mu.Unlock()
		}
	}()
	return s
}
