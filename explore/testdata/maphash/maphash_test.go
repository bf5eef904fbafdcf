// Package maphash uses hash/maphash and a //go:linkname of the runtime's
// random numbers, as concurrent maps do.
package maphash

import (
	"hash/maphash"
	"sync"
	"testing"
	_ "unsafe" // go:linkname
)

//go:noescape
//go:linkname runtime_cheaprand runtime.cheaprand
func runtime_cheaprand() uint32

type point struct {
	x, y int
	name string
}

func TestHashesAgree(t *testing.T) {
	seed := maphash.MakeSeed()
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString("hello, ")
	h.Write([]byte("wor"))
	h.WriteByte('l')
	h.WriteString("d")
	if got, want := h.Sum64(), maphash.String(seed, "hello, world"); got != want {
		t.Errorf("streamed hash %x, String %x", got, want)
	}
	if maphash.Bytes(seed, []byte("hello, world")) != maphash.String(seed, "hello, world") {
		t.Error("Bytes and String disagree")
	}
	h.Reset()
	h.WriteString("hello, world")
	if h.Sum64() != maphash.String(seed, "hello, world") {
		t.Error("Reset does not restart the hash")
	}
	if h.Seed() != seed {
		t.Error("Seed differs from SetSeed's")
	}
	if maphash.Comparable(seed, point{1, 2, "p"}) != maphash.Comparable(seed, point{1, 2, "p"}) {
		t.Error("equal values hash differently")
	}
	// -1*0.0 would be a constant, +0: negate a variable for -0
	zero := 0.0
	if maphash.Comparable(seed, zero) != maphash.Comparable(seed, -zero) {
		t.Error("+0 and -0 hash differently")
	}
	if maphash.Comparable(seed, point{1, 2, "p"}) == maphash.Comparable(seed, point{2, 1, "p"}) ||
		maphash.String(seed, "a") == maphash.String(seed, "b") {
		t.Error("different values hash alike")
	}
	var any1, any2 any = "k", "k"
	if maphash.Comparable(seed, any1) != maphash.Comparable(seed, any2) {
		t.Error("equal interfaces hash differently")
	}
}

// shardedSet is a set split into shards by the keys' hashes.
type shardedSet struct {
	seed   maphash.Seed
	shards [4]struct {
		mu   sync.Mutex
		keys map[string]bool
	}
}

func (s *shardedSet) add(k string) {
	sh := &s.shards[maphash.String(s.seed, k)%4]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.keys == nil {
		sh.keys = map[string]bool{}
	}
	sh.keys[k] = true
}

func (s *shardedSet) has(k string) bool {
	sh := &s.shards[maphash.String(s.seed, k)%4]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.keys[k]
}

func TestShardedSet(t *testing.T) {
	s := &shardedSet{seed: maphash.MakeSeed()}
	var wg sync.WaitGroup
	for _, k := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.add(k)
		}()
	}
	wg.Wait()
	for _, k := range []string{"a", "b", "c"} {
		if !s.has(k) {
			t.Errorf("%s missing", k)
		}
	}
}

func TestLinkname(t *testing.T) {
	seen := map[uint32]bool{}
	for i := 0; i < 8; i++ {
		seen[runtime_cheaprand()] = true
	}
	if len(seen) < 2 {
		t.Errorf("cheaprand returned %d distinct values in 8 calls", len(seen))
	}
}
