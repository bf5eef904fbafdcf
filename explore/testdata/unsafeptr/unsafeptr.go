// Package unsafeptr indexes arrays with unsafe.Add, as lock-free maps do
// to skip bounds checks.
package unsafeptr

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type bucket struct {
	meta    uint64
	entries [4]unsafe.Pointer
	pad     [3]uint64
}

type table struct{ buckets []bucket }

// at is &t.buckets[i] without the bounds check.
func (t *table) at(i int) *bucket {
	return (*bucket)(unsafe.Add(unsafe.Pointer(&t.buckets[0]), uintptr(i)*unsafe.Sizeof(bucket{})))
}

// entry is &b.entries[i], loaded atomically.
func (b *bucket) entry(i int) unsafe.Pointer {
	return atomic.LoadPointer((*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(&b.entries[0]), uintptr(i)*unsafe.Sizeof(unsafe.Pointer(nil)))))
}

func (b *bucket) setEntry(i int, p unsafe.Pointer) {
	atomic.StorePointer(&b.entries[i], p)
}

// Indexing reads back what was stored through ordinary indexing; it
// panics if unsafe.Add reached another element.
func Indexing() {
	t := &table{buckets: make([]bucket, 5)}
	for i := range t.buckets {
		t.buckets[i].meta = uint64(10 * i)
	}
	v := 42
	t.buckets[3].setEntry(2, unsafe.Pointer(&v))
	p := t.at(3).entry(2)
	if got := t.at(4).meta + t.at(1).meta + uint64(*(*int)(p)); got != 40+10+42 {
		panic("unsafe.Add reached the wrong element")
	}
}

// Race: two goroutines write the same bucket, one through unsafe.Add.
func Race() {
	t := &table{buckets: make([]bucket, 4)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.at(2).meta = 1 // unsafe-write
	}()
	t.buckets[2].meta = 2 // plain-write
	wg.Wait()
}

// NoRace: the goroutines write different buckets.
func NoRace() {
	t := &table{buckets: make([]bucket, 4)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.at(2).meta = 1
	}()
	t.buckets[1].meta = 2
	wg.Wait()
}

// Beyond moves the pointer past the end of the array.
func Beyond() {
	t := &table{buckets: make([]bucket, 2)}
	_ = t.at(2).meta
}

// Unaligned moves the pointer into the middle of an element.
func Unaligned() {
	t := &table{buckets: make([]bucket, 2)}
	_ = (*uint64)(unsafe.Add(unsafe.Pointer(&t.buckets[0]), 8))
}

func sizeOf[K any](k K) uintptr  { return unsafe.Sizeof(k) }
func alignOf[K any](k K) uintptr { return unsafe.Alignof(k) }

// GenericSizeof asks unsafe.Sizeof and Alignof of values whose type is a
// type parameter (not constants then); it panics on a wrong answer.
func GenericSizeof() {
	type pair struct {
		a int8
		b int64
	}
	if sizeOf(int32(1)) != 4 || sizeOf("x") != 16 || sizeOf(pair{}) != 16 || alignOf(pair{}) != 8 || alignOf(int16(0)) != 2 {
		panic("unsafe.Sizeof of a type parameter")
	}
}
