package fds

import "weak"

// handleTable keeps a kernel's weak pointers to the handles it handed out,
// at most one per ref, and finds a ref's handle by the ref.
//
// The weak pointers are the only pointers in a kernel's tables, and each
// of the kernel's collections runs the Go collector (countHandles), which
// reads every word of an array of pointers, nil or not. Kept as one entry
// per ref (two per node of the table), they made that collector read as
// many bytes as the node table itself at every collection, while only the
// refs handed out since need an entry (on AMBA n = 3 the forced
// collections of determinization took up to 10 ms each, and a third of its
// wall time). So the weak pointers are kept compact, one per ref that has
// a handle, and indexed by ref with pointer-free int32s, which the Go
// collector does not read.
//
// Invariant: slot[r] = i+1 exactly when ref[i] = r, for i < len(weak); the
// other slots are 0.
type handleTable struct {
	slot []int32                // per ref: 1 + the index of its entry, or 0
	weak []weak.Pointer[handle] // the entries
	ref  []int32                // per entry: its ref
}

// resize makes room for refs refs (never fewer than before).
func (t *handleTable) resize(refs int) {
	if refs <= len(t.slot) {
		return
	}
	slot := make([]int32, refs)
	adviseHuge(slot)
	copy(slot, t.slot)
	t.slot = slot
}

// get returns ref r's handle if it has one that is still reachable.
func (t *handleTable) get(r int32) *handle {
	if i := t.slot[r]; i != 0 {
		return t.weak[i-1].Value()
	}
	return nil
}

// put records h as ref r's handle.
func (t *handleTable) put(r int32, h *handle) {
	w := weak.Make(h)
	if i := t.slot[r]; i != 0 {
		t.weak[i-1] = w
		return
	}
	t.weak = append(t.weak, w)
	t.ref = append(t.ref, r)
	t.slot[r] = int32(len(t.weak))
}

// sweep forgets the entries whose handles are no longer reachable (after a
// run of the Go collector, exactly those whose weak pointers are nil) and
// adds one to refs[r>>1] for the ref r of each other entry.
func (t *handleTable) sweep(refs []int32) {
	n := 0
	for i, w := range t.weak {
		r := t.ref[i]
		if w.Value() == nil {
			t.slot[r] = 0
			continue
		}
		t.weak[n], t.ref[n] = w, r
		t.slot[r] = int32(n + 1)
		refs[r>>1]++
		n++
	}
	clear(t.weak[n:])
	t.weak, t.ref = t.weak[:n], t.ref[:n]
	if c := cap(t.weak); c > 1024 && n < c/4 {
		// Give back the room of a burst of short-lived handles: the Go
		// collector reads the whole array, not only its length.
		t.weak = append(make([]weak.Pointer[handle], 0, 2*n), t.weak...)
		t.ref = append(make([]int32, 0, 2*n), t.ref...)
	}
}
