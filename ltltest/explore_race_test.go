package ltltest_test

import (
	"testing"

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
	assert.Regexp(t, `(?m)^\s*\S*/ltltest/explore_race_test\.go:18:\d+$`, out, "the read's position is in a stack")
	assert.Regexp(t, `(?m)^\s*\S*/ltltest/explore_race_test\.go:23:\d+$`, out, "the write's position is in a stack")
	assert.Regexp(t, `replay with: go test -run '\^TestLazyShare\$' -ltl.replay=v[12]:`, out)

	ft2 := &fakeT{}
	assert.True(t, ltltest.Explore(ft2, lazyShareFixedBody), ft2.output())
	assert.False(t, ft2.failed)
}
