package nestedcalls

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"testing"
)

// cache's String method takes a read lock.
type cache struct{ mu sync.RWMutex }

func (c *cache) String() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return "cache"
}

// ReadLockReleased is TestRecursiveReadLockThroughFmt fixed: the read
// lock is released before fmt takes it again in String.
func ReadLockReleased(t *testing.T) {
	c := &cache{}
	done := make(chan struct{})
	go func() { c.mu.Lock(); c.mu.Unlock(); close(done) }()
	c.mu.RLock()
	c.mu.RUnlock()
	_ = fmt.Sprint(c)
	<-done
}

// plainCache's String method does not lock.
type plainCache struct{ mu sync.RWMutex }

func (c *plainCache) String() string { return "cache" }

// StringWithoutLock is TestRecursiveReadLockThroughFmt fixed the other
// way: String takes no lock.
func StringWithoutLock(t *testing.T) {
	c := &plainCache{}
	done := make(chan struct{})
	go func() { c.mu.Lock(); c.mu.Unlock(); close(done) }()
	c.mu.RLock()
	_ = fmt.Sprint(c)
	c.mu.RUnlock()
	<-done
}

// SortFlag sorts with a less function that reads, under a mutex, a flag
// a goroutine sets: the goroutine may set it between two calls of less,
// and the test fails with the flag's first and last values it saw.
func SortFlag(t *testing.T) {
	var mu sync.Mutex
	flag := 0
	go func() {
		mu.Lock()
		flag = 1
		mu.Unlock()
	}()
	xs := []int{3, 1, 2}
	first, last := -1, -1
	sort.Slice(xs, func(i, j int) bool {
		mu.Lock()
		defer mu.Unlock()
		if first < 0 {
			first = flag
		}
		last = flag
		return xs[i] < xs[j]
	})
	t.Errorf("flag %d then %d", first, last)
}

// SortSelfDeadlock calls sort.Slice holding the mutex its less function
// takes: it blocks forever inside less.
func SortSelfDeadlock(t *testing.T) {
	var mu sync.Mutex
	xs := []int{2, 1}
	mu.Lock()
	sort.Slice(xs, func(i, j int) bool {
		mu.Lock()
		defer mu.Unlock()
		return xs[i] < xs[j]
	})
	mu.Unlock()
}

// chanErr's Is method receives the answer from a channel.
type chanErr struct{ answers chan bool }

func (e chanErr) Error() string        { return "chanErr" }
func (e chanErr) Is(target error) bool { return <-e.answers }

// ErrorsIsChan calls errors.Is on an error whose Is method receives from
// a channel a goroutine sends on: the receive blocks inside errors.Is
// until the goroutine runs.
func ErrorsIsChan(t *testing.T) {
	answers := make(chan bool)
	go func() { answers <- true }()
	if !errors.Is(fmt.Errorf("wrapped: %w", chanErr{answers}), io.EOF) {
		t.Error("errors.Is: false")
	}
}

// ErrorsIsNoAnswer: nobody sends, errors.Is blocks forever.
func ErrorsIsNoAnswer(t *testing.T) {
	answers := make(chan bool)
	_ = errors.Is(chanErr{answers}, io.EOF)
}

// exiting's String method ends the test with t.FailNow (runtime.Goexit
// through fmt).
type exiting struct{ t *testing.T }

func (e exiting) String() string {
	e.t.FailNow()
	return "unreachable"
}

// GoexitInString: FailNow inside String ends the test goroutine; the
// statement after Sprint does not run.
func GoexitInString(t *testing.T) {
	s := fmt.Sprint(exiting{t})
	t.Errorf("Sprint returned %q", s)
}

// panicky's String method panics after a scheduling point.
type panicky struct{ mu *sync.Mutex }

func (p panicky) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	panic("boom")
}

// PanicInString: fmt prints the panic of a String method that locked.
func PanicInString(t *testing.T) {
	var mu sync.Mutex
	go func() { mu.Lock(); mu.Unlock() }()
	t.Errorf("%v", panicky{&mu})
}

// inner and outer nest String calls: outer's String formats inner, whose
// String locks.
type inner struct{ mu *sync.Mutex }

func (i inner) String() string {
	i.mu.Lock()
	defer i.mu.Unlock()
	return "inner"
}

type outer struct{ in inner }

func (o outer) String() string { return fmt.Sprintf("outer(%v)", o.in) }

// NestedTwice: the lock is taken two nested calls deep (fmt → String →
// fmt → String), by the goroutine that holds it: a deadlock.
func NestedTwice(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	_ = fmt.Sprint(outer{inner{&mu}})
	mu.Unlock()
}

// DeferredPrint formats, in a deferred fmt.Sprint run by a panic, a value
// whose String locks a mutex a goroutine holds for a while; the panic
// ends the test after it.
func DeferredPrint(t *testing.T) {
	var mu sync.Mutex
	done := make(chan bool)
	go func() { mu.Lock(); mu.Unlock(); done <- true }()
	defer func() { <-done }()
	defer fmt.Sprint(inner{&mu})
	panic("after")
}

// deep recurses without end.
func deep(n int) int { return deep(n+1) + 1 }

type overflowing struct{}

func (overflowing) String() string { return fmt.Sprint(deep(0)) }

// OverflowInString overflows the stack inside String.
func OverflowInString(t *testing.T) {
	_ = fmt.Sprint(overflowing{})
}

// stepper's String method loops with a lock until the step bound stops
// the execution, while another goroutine waits for the lock.
type stepper struct{ mu *sync.Mutex }

func (s stepper) String() string {
	for {
		s.mu.Lock()
		s.mu.Unlock()
	}
}

// BoundInString hits the step bound inside String.
func BoundInString(t *testing.T) {
	var mu sync.Mutex
	go func() { mu.Lock(); mu.Unlock() }()
	_ = fmt.Sprint(stepper{&mu})
}

// GoAndDefer runs fmt.Println in a go statement and in a deferred call at
// return; both block in String until the test unlocks.
func GoAndDefer(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	go fmt.Println(inner{&mu})
	defer fmt.Println(inner{&mu})
	mu.Unlock()
}

// initLabel is computed by the package's initialization, through fmt and
// a String method that locks.
var initLabel = fmt.Sprint(&cache{})

// InitLabel reads it (from the initialization snapshot after the first
// execution).
func InitLabel(t *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	<-done
	if initLabel != "cache" {
		t.Errorf("initLabel = %q", initLabel)
	}
}

// lockErr's Error method locks.
type lockErr struct{ mu *sync.Mutex }

func (e lockErr) Error() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return "locked error"
}

// PanicLockingError panics with a lockErr: printing the panic calls
// Error, which takes the free lock.
func PanicLockingError(t *testing.T) {
	var mu sync.Mutex
	panic(lockErr{&mu})
}

// PanicBlockedError panics with a lockErr whose lock it holds: printing
// the panic blocks in Error (Go hangs there).
func PanicBlockedError(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	panic(lockErr{&mu})
}
