package fds

import (
	"syscall"
	"unsafe"
)

// hugePageMin is the smallest table adviseHuge advises: a huge page is
// 2 MiB, and a smaller table fits the processor's caches and TLB anyway.
const hugePageMin = 4 << 20

// adviseHuge asks Linux to back the table s with transparent huge pages
// (madvise MADV_HUGEPAGE), which the kernel's tables need because they are
// large and read at random: the node table, the unique table's buckets,
// the operation cache and the handles, each read at a hashed or arbitrary
// index, cost a TLB miss per access with 4 KiB pages once they outgrow the
// TLB's reach (a few MiB), and a page walk that itself misses the caches.
// With huge pages the walks mostly hit (synth's BENCHMARKS.part.md: AMBA
// determinization and realizability). It is only advice: where the system
// turned transparent huge pages off, or has no huge page to give, nothing
// changes, and it never changes what the tables hold. Only the part of s
// that covers whole pages is advised; errors are ignored.
func adviseHuge[T any](s []T) {
	if len(s) == 0 {
		return
	}
	n := uintptr(len(s)) * unsafe.Sizeof(s[0])
	if n < hugePageMin {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), n)
	page := uintptr(syscall.Getpagesize())
	p := uintptr(unsafe.Pointer(&b[0]))
	lo := (p+page-1)&^(page-1) - p
	hi := (p+n)&^(page-1) - p
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(b[lo:hi], syscall.MADV_HUGEPAGE)
}
