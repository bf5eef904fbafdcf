package lazyshare

import "testing"

// The int is allocated by the test goroutine and reached by the other
// goroutine only through the captured variable p (two pointer hops).
// The test goroutine's write is never a scheduling point nor a checked
// access, because no other goroutine had touched the int yet.
func TestOwnerWriteIsInvisible(t *testing.T) {
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

// The fixed version: the write happens before a close that the reader
// waits for, so the read sees it.
func TestOwnerWriteIsInvisibleFixed(t *testing.T) {
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
