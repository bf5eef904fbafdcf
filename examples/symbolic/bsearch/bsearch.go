// Package bsearch is the classic binary search whose midpoint (lo+hi)/2
// overflows for large sizes (Bloch, "Nearly all binary searches are
// broken", 2006). It uses int32 so that the overflow needs sizes above
// 2^30 rather than 2^62; the bug is the same.
package bsearch

// Search returns the index of target in the virtual sorted sequence
// 0, 1, …, n-1 (element i is i), or -1. at panics like a slice index
// when mid is out of range, which happens when lo+hi wraps around.
//
//ltl:symbolic
func Search(n, target int32) int32 {
	if n <= 0 {
		return -1
	}
	at := func(i int32) int32 {
		if i < 0 || i >= n {
			panic("index out of range")
		}
		return i
	}
	lo, hi := int32(0), n-1
	for lo <= hi {
		mid := (lo + hi) / 2 // bug: lo+hi overflows; lo+(hi-lo)/2 does not
		v := at(mid)
		if v == target {
			return mid
		}
		if v > target {
			hi = mid - 1
		} else {
			lo = mid + 1
		}
	}
	return -1
}
