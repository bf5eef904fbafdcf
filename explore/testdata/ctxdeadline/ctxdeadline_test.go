// Package ctxdeadline holds context's deadline tests, in the shapes of
// the standard library's own.
package ctxdeadline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

const shortDuration = 1 * time.Millisecond

func quiescent(t *testing.T) time.Duration {
	deadline, ok := t.Deadline()
	if !ok {
		return 5 * time.Second
	}
	return time.Until(deadline) - time.Second
}

func testDeadline(c context.Context, name string, t *testing.T) {
	t.Helper()
	d := quiescent(t)
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		t.Fatalf("%s: context not timed out after %v", name, d)
	case <-c.Done():
	}
	if e := c.Err(); e != context.DeadlineExceeded {
		t.Errorf("%s: c.Err() == %v; want %v", name, e, context.DeadlineExceeded)
	}
}

// TestDeadline is context_test's TestDeadline, first part.
func TestDeadline(t *testing.T) {
	c, _ := context.WithDeadline(context.Background(), time.Now().Add(shortDuration))
	if got, prefix := fmt.Sprint(c), "context.Background.WithDeadline("; !strings.HasPrefix(got, prefix) {
		t.Errorf("c.String() = %q want prefix %q", got, prefix)
	}
	testDeadline(c, "WithDeadline", t)
}

type box struct{ n int }

var (
	inner box
	outer = &inner // a package variable pointing to another
	owner = box{n: 1}
	alias = &owner
)

// TestGlobalIdentity compares pointers to package variables in every
// execution: the snapshot of the initialized packages keeps them.
func TestGlobalIdentity(t *testing.T) {
	done := make(chan bool, 2)
	for range 2 {
		go func() {
			done <- outer == &inner && alias == &owner
		}()
	}
	same := outer == &inner && alias == &owner
	if !<-done || !<-done || !same || alias.n != 1 {
		t.Fatalf("pointers to package variables changed")
	}
	inner.n++
	owner.n++
}
