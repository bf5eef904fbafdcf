package fds

import (
	"syscall"
	"unsafe"
)

// hugePageMin is the smallest table adviseHuge advises: a huge page is
// 2 MiB, and a smaller table fits the processor's caches and TLB anyway.
const hugePageMin = 4 << 20

// adviseHuge asks Linux to back the table s with transparent huge pages
// (madvise MADV_HUGEPAGE). The kernel's large tables (the node table, the
// unique table's buckets, the operation cache, the handles) are read at
// hashed or arbitrary indexes, so with 4 KiB pages, once they outgrow the
// TLB's reach (a few MiB), nearly every access also misses the TLB and
// walks page tables that may miss the caches; 2 MiB pages make those walks
// far rarer (AMBA n = 12: determinization 12–17 % cheaper with this and
// the bytewise cache sweep; synth's BENCHMARKS.part.md). It is only advice:
// where the system turned transparent huge pages off, or has none to
// give, nothing changes, and it never changes what the tables hold. Only
// the part of s that covers whole pages is advised; errors are ignored.
// The advised tables are backed whole, which costs some resident memory
// (AMBA n = 12: +10 % peak RSS).
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
