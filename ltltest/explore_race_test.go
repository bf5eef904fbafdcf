package ltltest_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/henceforth-go/henceforth/ltltest"
)

// lazyShareBody is the lazyshare race case (explore/testdata/racecases):
// the test writes an int through a pointer that its goroutine reads,
// unsynchronized; go test -race reports the write and the read.
func lazyShareBody(t *testing.T) {
	p := new(int)
	done := make(chan struct{})
	go func() {
		if *p == 1 { // unsynchronized read
			t.Log("saw the write")
		}
		close(done)
	}()
	*p = 1 // unsynchronized write: go test -race reports a data race
	<-done
}

// lazyShareFixedBody orders the write before the read with a close.
func lazyShareFixedBody(t *testing.T) {
	p := new(int)
	written := make(chan struct{})
	done := make(chan struct{})
	go func() {
		<-written
		if *p != 1 {
			t.Error("missed the write")
		}
		close(done)
	}()
	*p = 1
	close(written)
	<-done
}

// TestExploreReportsRace: with default options Explore reports the race
// of a body of this test package, with both accesses, and passes the
// fixed body.
func TestExploreReportsRace(t *testing.T) {
	ft := &namedT{name: "TestLazyShare"}
	assert.False(t, ltltest.Explore(ft, lazyShareBody))
	out := ft.output()
	t.Log(out)
	assert.Contains(t, out, "ltltest: the exploration found 1 problem (race)")
	assert.Contains(t, out, "entry: github.com/henceforth-go/henceforth/ltltest_test.lazyShareBody")
	assert.Regexp(t, `explore_race_test\.go:\d+:\d+: race: data race: `, out)
	assert.Regexp(t, `(?m)^\s*\S*/ltltest/explore_race_test\.go:21:\d+$`, out, "the read's position is in a stack")
	assert.Regexp(t, `(?m)^\s*\S*/ltltest/explore_race_test\.go:26:\d+$`, out, "the write's position is in a stack")
	assert.Regexp(t, `replay with: go test -run '\^TestLazyShare\$' -ltl.replay=v[12]:`, out)

	ft2 := &fakeT{}
	assert.True(t, ltltest.Explore(ft2, lazyShareFixedBody), ft2.output())
	assert.False(t, ft2.failed)
}

// The other race cases, as bodies of this test package: each must be
// found by Explore with default options.

func atomicMixBody(t *testing.T) {
	var hits int64
	done := make(chan struct{})
	go func() {
		atomic.AddInt64(&hits, 1)
		close(done)
	}()
	if hits > 0 { // plain read, not ordered with the atomic add
		t.Log("already counted")
	}
	<-done
}

func sleepHBBody(t *testing.T) {
	ready := false
	go func() {
		ready = true
	}()
	time.Sleep(10 * time.Millisecond) // not synchronization
	if !ready {
		t.Log("not ready yet")
	}
}

func wgAddWaitBody(t *testing.T) {
	var wg sync.WaitGroup
	release := make(chan struct{})
	go func() {
		addOne(&wg) // from zero, not ordered before Wait
		go func() {
			<-release
			wg.Done()
		}()
	}()
	time.Sleep(time.Millisecond)
	go close(release)
	wg.Wait()
}

// addOne is wg.Add(1) out of vet's sight (vet rejects a literal Add in
// a new goroutine, which is this case's bug).
func addOne(wg *sync.WaitGroup) { wg.Add(1) }

func logAfterBody(t *testing.T) {
	go func() {
		time.Sleep(time.Millisecond)
		t.Log("late")
	}()
}

func TestExploreReportsRaceCases(t *testing.T) {
	for _, c := range []struct {
		name string
		body func(*testing.T)
		want []string
	}{
		{"atomicmix", atomicMixBody, []string{"found 1 problem (race)", "atomic.Add at explore_race_test.go:"}},
		{"sleephb", sleepHBBody, []string{"found 1 problem (race)", "ready at explore_race_test.go:"}},
		{"wgaddwait", wgAddWaitBody, []string{"found 1 problem (race)", "sync.(*WaitGroup).Add from zero at explore_race_test.go:"}},
		{"logafter", logAfterBody, []string{"found 1 problem (panic)", "has completed: late"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ft := &namedT{name: "TestCase"}
			assert.False(t, ltltest.Explore(ft, c.body))
			out := ft.output()
			for _, w := range c.want {
				assert.Contains(t, out, w)
			}
			assert.Regexp(t, `replay with: go test -run '\^TestCase\$' -ltl.replay=v[12]:`, out)
		})
	}
}
