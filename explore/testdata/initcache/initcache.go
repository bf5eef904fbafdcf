// Package initcache has a package initialization that does real work
// (tables built from strings, sorted, formatted) and many small
// concurrent tests: the explorations of its tests share compiled code and
// the initialization snapshot when they reuse machines.
package initcache

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// words is built at initialization.
var words = buildWords()

// index maps each word to its rank in words.
var index = map[string]int{}

func init() {
	for i, w := range words {
		index[w] = i
	}
}

func buildWords() []string {
	var ws []string
	for i := range 200 {
		ws = append(ws, strings.Repeat(string(rune('a'+i%26)), 1+i%5)+fmt.Sprint(i))
	}
	sort.Strings(ws)
	return ws
}

// Rank returns the rank of w, -1 if it is not a word.
func Rank(w string) int {
	if i, ok := index[w]; ok {
		return i
	}
	return -1
}

// Counter is a counter safe for concurrent use.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Add adds d.
func (c *Counter) Add(d int) {
	c.mu.Lock()
	c.n += d
	c.mu.Unlock()
}

// Value returns the count.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// RacyCounter is not safe for concurrent use.
type RacyCounter struct{ n int }

// Add adds d without synchronization.
func (c *RacyCounter) Add(d int) { c.n += d }
