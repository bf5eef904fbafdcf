package explore

import "testing"

// TestSmallSet checks the set against a map across its switch from a
// slice to a map (a wrong answer of has would make DPOR skip a backtrack
// point as already covered).
func TestSmallSet(t *testing.T) {
	var gs smallSet[uint64]
	want := map[uint64]bool{}
	for i := uint64(0); i < 3*smallSetFew; i++ {
		g := (i * 7) % (2 * smallSetFew) // repeats after 2*few adds
		gs.add(g)
		want[g] = true
		for h := uint64(0); h < 3*smallSetFew; h++ {
			if gs.has(h) != want[h] {
				t.Fatalf("after %d adds: has(%d) = %v, want %v", i+1, h, gs.has(h), want[h])
			}
		}
	}
	if n := gs.count(func(uint64) bool { return true }); n != len(want) {
		t.Fatalf("count = %d, want %d", n, len(want))
	}
	if gs.many == nil {
		t.Fatalf("%d keys still in a slice", len(want))
	}
}

// TestClaimOrder checks the claim numbers against a map across the
// switch to an index.
func TestClaimOrder(t *testing.T) {
	var c claimOrder
	want := map[tid]int{}
	for i := 0; i < 3*smallSetFew; i++ {
		u := tid{g: uint64(i * 5 % (2 * smallSetFew)), alt: i % 2}
		c.claim(u)
		if _, ok := want[u]; !ok {
			want[u] = len(want) + 1
		}
		for g := 0; g < 2*smallSetFew; g++ {
			for alt := 0; alt < 2; alt++ {
				v := tid{g: uint64(g), alt: alt}
				n, ok := c.order(v)
				if w, wok := want[v]; n != w || ok != wok {
					t.Fatalf("after %d claims: order(%v) = %d, %v; want %d, %v", i+1, v, n, ok, w, wok)
				}
			}
		}
	}
	if c.index == nil || len(c.list) != len(want) {
		t.Fatalf("%d claims listed (index %v), want %d", len(c.list), c.index != nil, len(want))
	}
}
