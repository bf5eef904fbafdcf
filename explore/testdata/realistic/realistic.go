// Package realistic holds kernels shaped like code from real Go projects
// (worker pools, tickers, context trees, pipelines), to check that the
// interpreter and models run them unmodified.
package realistic

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// WorkerPool: jobs on a channel, results collected, first error wins.
func WorkerPool(t *testing.T) {
	jobs := make(chan int)
	results := make(chan string, 4)
	errc := make(chan error, 1)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if j == 3 {
					select {
					case errc <- fmt.Errorf("job %d failed", j):
					default:
					}
					continue
				}
				results <- fmt.Sprintf("w%d:%d", w, j*j)
			}
		}()
	}
	for j := 1; j <= 4; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	close(results)
	var got []string
	for r := range results {
		got = append(got, r[strings.Index(r, ":")+1:])
	}
	sort.Strings(got)
	if strings.Join(got, ",") != "1,16,4" {
		t.Errorf("results %v", got)
	}
	if err := <-errc; err == nil || err.Error() != "job 3 failed" {
		t.Errorf("err = %v", err)
	}
}

// Ticker: a poller that stops on a stop channel.
func Ticker(t *testing.T) {
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		n := 0
		for {
			select {
			case <-tick.C:
				n++
			case <-stop:
				done <- n
				return
			}
		}
	}()
	time.Sleep(35 * time.Millisecond)
	close(stop)
	if n := <-done; n != 3 {
		t.Errorf("ticks = %d, want 3", n)
	}
}

// ContextTree: cancelling a parent cancels the children; their goroutines
// exit.
func ContextTree(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		child, cancelChild := context.WithTimeout(parent, time.Hour)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer cancelChild()
			<-child.Done()
			errs[i] = child.Err()
		}()
	}
	cancel()
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("child %d: %v", i, err)
		}
	}
}

// Pipeline: three stages connected by channels, with a done channel.
func Pipeline(t *testing.T) {
	done := make(chan struct{})
	defer close(done)
	gen := func(nums ...int) <-chan int {
		out := make(chan int)
		go func() {
			defer close(out)
			for _, n := range nums {
				select {
				case out <- n:
				case <-done:
					return
				}
			}
		}()
		return out
	}
	sq := func(in <-chan int) <-chan int {
		out := make(chan int)
		go func() {
			defer close(out)
			for n := range in {
				select {
				case out <- n * n:
				case <-done:
					return
				}
			}
		}()
		return out
	}
	sum := 0
	for v := range sq(gen(1, 2, 3)) {
		sum += v
	}
	if sum != 14 {
		t.Errorf("sum %d", sum)
	}
}

// Cache: an RWMutex-protected cache with lazy fill and a sync.Map index.
type Cache struct {
	mu    sync.RWMutex
	data  map[string]int
	index sync.Map
	fills int
}

func (c *Cache) Get(k string, fill func(string) int) int {
	c.mu.RLock()
	v, ok := c.data[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.data[k]; ok {
		return v
	}
	v = fill(k)
	c.data[k] = v
	c.fills++
	c.index.Store(k, v)
	return v
}

func CacheFill(t *testing.T) {
	c := &Cache{data: map[string]int{}}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Get("a", func(s string) int { return len(s) })
		}()
	}
	wg.Wait()
	if c.fills != 1 {
		t.Errorf("filled %d times", c.fills)
	}
	if v, ok := c.index.Load("a"); !ok || v.(int) != 1 {
		t.Errorf("index %v %v", v, ok)
	}
}

// Semaphore: a buffered channel limits concurrency to 1.
func Semaphore(t *testing.T) {
	sem := make(chan struct{}, 1)
	var mu sync.Mutex
	active, maxActive := 0, 0
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			mu.Lock()
			active++
			maxActive = max(maxActive, active)
			mu.Unlock()
			mu.Lock()
			active--
			mu.Unlock()
		}()
	}
	wg.Wait()
	if maxActive != 1 {
		t.Errorf("max active %d", maxActive)
	}
}

// Nothing does nothing: its executions measure package initialization.
func Nothing(t *testing.T) {}

// Registry is package state built during initialization and changed by
// the test: every execution must start from the initialized state.
var registry = map[string][]int{"a": {1}}

var names = []string{"x"}

var defaultCfg = &config{retries: 3, tags: []string{"t"}}

type config struct {
	retries int
	tags    []string
}

func init() { names = append(names, "y") }

func GlobalState(t *testing.T) {
	if len(registry) != 1 || len(registry["a"]) != 1 || len(names) != 2 || defaultCfg.retries != 3 || len(defaultCfg.tags) != 1 {
		t.Fatalf("state leaked from another execution: %v %v %+v", registry, names, *defaultCfg)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			registry["a"] = append(registry["a"], i)
			registry[fmt.Sprint(i)] = nil
			names[0] = "changed"
			defaultCfg.retries--
			defaultCfg.tags = append(defaultCfg.tags, "u")
			mu.Unlock()
		}()
	}
	wg.Wait()
}

// OnceValues uses sync.OnceFunc and OnceValue from several goroutines.
func OnceValues(t *testing.T) {
	calls := 0
	var mu sync.Mutex
	load := sync.OnceValue(func() int {
		mu.Lock()
		calls++
		mu.Unlock()
		return 42
	})
	hello := sync.OnceFunc(func() {
		mu.Lock()
		calls += 10
		mu.Unlock()
	})
	pair := sync.OnceValues(func() (string, error) { return "v", nil })
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if load() != 42 {
				t.Error("OnceValue result")
			}
			hello()
			if s, err := pair(); s != "v" || err != nil {
				t.Error("OnceValues results")
			}
		}()
	}
	wg.Wait()
	if calls != 11 {
		t.Errorf("calls = %d, want 11", calls)
	}
}

// Logging writes with the standard logger and a custom one, and formats
// virtual time.
func Logging(t *testing.T) {
	var buf bytes.Buffer
	l := log.New(&buf, "svc: ", log.Lmsgprefix)
	l.Printf("started %d workers", 2)
	l.Println("ok")
	if got := buf.String(); got != "svc: started 2 workers\nsvc: ok\n" {
		t.Errorf("logger wrote %q", got)
	}
	log.Println("to stderr")
	start := time.Now()
	if s := start.Format(time.RFC3339); s != "2000-01-01T00:00:00Z" {
		t.Errorf("virtual now = %s", s)
	}
	time.Sleep(1500 * time.Millisecond)
	if d := time.Since(start); d < 1500*time.Millisecond || d > 1500*time.Millisecond+time.Microsecond {
		t.Errorf("slept %v", d)
	}
	if s := time.Now().Add(time.Hour).UTC().Format("15:04:05.000"); s != "01:00:01.500" {
		t.Errorf("later = %s", s)
	}
}

type node struct{ v int }

// SyncAPIs exercises the less common sync and sync/atomic models.
func SyncAPIs(t *testing.T) {
	var rw sync.RWMutex
	rl := rw.RLocker()
	rl.Lock()
	rl.Lock() // two readers
	if rw.TryLock() {
		t.Error("TryLock succeeded while read-locked")
	}
	rl.Unlock()
	rl.Unlock()
	if !rw.TryLock() {
		t.Error("TryLock failed on a free RWMutex")
	}
	rw.Unlock()

	var wg sync.WaitGroup
	var sm sync.Map
	for i := range 3 {
		wg.Go(func() { sm.Store(i, i*i) })
	}
	wg.Wait()
	n := 0
	sm.Range(func(k, v any) bool {
		if v.(int) != k.(int)*k.(int) {
			t.Errorf("sync.Map %v -> %v", k, v)
		}
		n++
		return true
	})
	if v, loaded := sm.LoadOrStore(1, 100); !loaded || v.(int) != 1 || n != 3 {
		t.Errorf("LoadOrStore = %v %v, range saw %d", v, loaded, n)
	}
	sm.Delete(1)
	if _, ok := sm.Load(1); ok {
		t.Error("Delete")
	}

	var av atomic.Value
	av.Store("a")
	if old := av.Swap("b"); old != "a" || av.Load() != "b" {
		t.Error("atomic.Value")
	}
	var ap atomic.Pointer[node]
	first := &node{1}
	ap.Store(first)
	if !ap.CompareAndSwap(first, &node{2}) || ap.Load().v != 2 {
		t.Error("atomic.Pointer")
	}
	var flag atomic.Bool
	if flag.Swap(true) || !flag.Load() {
		t.Error("atomic.Bool")
	}
	var u atomic.Uint32
	u.Store(1)
	u.Add(^uint32(0)) // subtract one
	if u.Load() != 0 {
		t.Errorf("atomic.Uint32 = %d", u.Load())
	}

	pool := sync.Pool{New: func() any { return new(node) }}
	p := pool.Get().(*node)
	p.v = 7
	pool.Put(p)
	if q := pool.Get().(*node); q.v != 7 {
		t.Error("sync.Pool did not return the put value")
	}

	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := 0
	for range 2 {
		go func() {
			mu.Lock()
			ready++
			c.Broadcast()
			mu.Unlock()
		}()
	}
	mu.Lock()
	for ready < 2 {
		c.Wait()
	}
	mu.Unlock()
}

var wordRE = regexp.MustCompile(`(\w+)@(\w+)\.com`)

// Regexps uses a package-level regexp and compiles others.
func Regexps(t *testing.T) {
	if m := wordRE.FindStringSubmatch("mail bob@example.com now"); len(m) != 3 || m[1] != "bob" || m[2] != "example" {
		t.Errorf("submatch %q", m)
	}
	re, err := regexp.Compile(`a+b`)
	if err != nil || !re.MatchString("xaab") || re.ReplaceAllString("aab ab", "X") != "X X" {
		t.Errorf("compile/match/replace: %v", err)
	}
	if _, err := regexp.Compile(`a(`); err == nil {
		t.Error("no error for a bad expression")
	}
	up := wordRE.ReplaceAllStringFunc("a@b.com", strings.ToUpper)
	if up != "A@B.COM" {
		t.Errorf("func replace %q", up)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "missing closing )") {
			t.Errorf("MustCompile panic: %v", r)
		}
	}()
	regexp.MustCompile(`(`)
}

// Files reads a fixture with os.ReadFile and with os.Open and a scanner,
// and uses math/rand/v2 generators.
func Files(t *testing.T) {
	data, err := os.ReadFile("testdata/words.txt")
	if err != nil || string(data) != "alpha\nbeta\ngamma\n" {
		t.Fatalf("ReadFile: %q %v", data, err)
	}
	f, err := os.Open("testdata/words.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var words []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		words = append(words, sc.Text())
	}
	if err := sc.Err(); err != nil || strings.Join(words, ",") != "alpha,beta,gamma" {
		t.Errorf("scanned %v %v", words, err)
	}
	if _, err := os.ReadFile("testdata/missing.txt"); err == nil {
		t.Error("no error for a missing file")
	}
	r1 := rand.New(rand.NewPCG(1, 2))
	r2 := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		if r1.IntN(1000) != r2.IntN(1000) {
			t.Error("equal seeds gave different numbers")
		}
	}
}
