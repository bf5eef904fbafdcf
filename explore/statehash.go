package explore

import (
	"go/types"
	"hash/maphash"
	"unsafe"
)

// This file fingerprints program states for scenario search (find.go):
// two executions whose current states have equal fingerprints continue
// identically, so the search visits the state once.
//
// Only a conservative class of states is fingerprinted: the package-level
// variables of the user's packages (booleans, numbers, strings, nil
// references, pointers into package variables, functions without free
// variables), and every goroutine's frames (function, pc, registers,
// pending operation) where each register is a scalar, nil, or the value
// the function's register template holds (constants, globals, functions).
// A state with anything else — heap objects, channels, maps, closures
// with free variables, native deferred calls, panics, timers, model
// state of sync or time, temporary files — has no fingerprint (ok = false): the search then never prunes
// at it. So matching is sound (it never merges different states) and
// precise only for programs like the paper's, whose state is variables
// and control positions.

// fingerprint returns the state's fingerprint, or false if the state is
// outside the class above.
func (x *execution) fingerprint(seed maphash.Seed) (uint64, bool) {
	if len(x.timers) > 0 || len(x.side) > 0 || x.symst != nil {
		return 0, false
	}
	if st, ok := x.models[osSlot].(*osState); ok && st.fs != nil {
		return 0, false // the in-memory file system is not fingerprinted
	}
	h := stateHasher{x: x}
	h.h.SetSeed(seed)
	for _, gl := range x.m.globalList {
		if gl.Pkg == nil {
			continue
		}
		if _, user := x.m.prog.syntax[gl.Pkg.Pkg]; !user {
			continue
		}
		o := x.m.globals[gl]
		rt := x.m.rtypeOf(gl.Type().(*types.Pointer).Elem())
		if !h.typed(rt, o.cells, 0) {
			return 0, false
		}
	}
	h.word(x.randWord())
	for _, g := range x.gs {
		h.word(uint64(g.id))
		if g.done {
			h.word(1)
			continue
		}
		if g.panic != nil || g.sub != nil || g.nest.co != nil {
			return 0, false
		}
		p := &g.pend
		if p.ch != nil || len(p.cases) > 0 || p.g2 != nil || (p.obj != nil && !h.static(unsafe.Pointer(p.obj))) || !h.value(p.val, Value{}) {
			return 0, false
		}
		h.word(uint64(p.kind))
		h.word(uint64(p.pos))
		h.word(uint64(p.off))
		h.word(uint64(p.n))
		h.word(uint64(p.wake))
		h.h.WriteString(p.label)
		h.word(boolWord(g.granted))
		h.word(uint64(g.depth))
		for _, fr := range g.frames[:g.depth] {
			if fr.unwinding || fr.nested {
				return 0, false
			}
			for _, d := range fr.defers {
				// Native deferred calls hold state we cannot see,
				// except the explorer's own entry driver's.
				if d.native != nil && fr.fn.fn != nil {
					return 0, false
				}
				h.word(uint64(d.pos))
				if fr.fn.fn == nil {
					continue // the entry driver's cleanups: fixed by pos
				}
				if !h.value(d.fn, Value{}) {
					return 0, false
				}
				for _, a := range d.args {
					if !h.value(a, Value{}) {
						return 0, false
					}
				}
			}
			h.word(uint64(uintptr(unsafe.Pointer(fr.fn))))
			h.word(uint64(fr.pc))
			for i, r := range fr.regs {
				var t Value
				if i < len(fr.fn.tmpl) {
					t = fr.fn.tmpl[i]
				}
				if !h.value(r, t) {
					return 0, false
				}
			}
		}
	}
	return h.h.Sum64(), true
}

type stateHasher struct {
	x       *execution
	h       maphash.Hash
	statics map[unsafe.Pointer]bool
}

func boolWord(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func (h *stateHasher) word(w uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(w >> (8 * i))
	}
	h.h.Write(b[:])
}

// value hashes an untyped register: a scalar (no pointer), or exactly the
// register template's value.
func (h *stateHasher) value(v, tmpl Value) bool {
	switch {
	case v.p == nil:
		h.word(0)
	case v == tmpl:
		h.word(1)
		h.word(uint64(uintptr(v.p)))
	case h.static(v.p):
		h.word(2)
		h.word(uint64(uintptr(v.p)))
	case h.x.testOf((*object)(v.p)) != nil:
		// a *testing.T: its identity is its test; its state is whether
		// it failed
		ts := h.x.testOf((*object)(v.p))
		h.word(3)
		h.h.WriteString(ts.name)
		h.word(boolWord(ts.failed))
		h.word(uint64(len(ts.errors)))
	default:
		return false
	}
	h.word(v.a)
	h.word(v.b)
	return true
}

// static reports whether p is a package variable's memory or a function
// without free variables: identities that are the same in every state.
func (h *stateHasher) static(p unsafe.Pointer) bool {
	if h.statics == nil {
		h.statics = map[unsafe.Pointer]bool{}
		for _, o := range h.x.m.globals {
			h.statics[unsafe.Pointer(o)] = true
		}
		for _, fc := range h.x.m.fns {
			h.statics[unsafe.Pointer(fc.self)] = true
		}
	}
	return h.statics[p]
}

// typed hashes memory of type rt at cells[off:].
func (h *stateHasher) typed(rt *rtype, cells []Value, off int) bool {
	switch k := rt.kind; {
	case k == kStruct:
		for _, f := range rt.fields {
			if !h.typed(f.t, cells, off+f.off) {
				return false
			}
		}
		return true
	case k == kArray:
		for i := range rt.len {
			if !h.typed(rt.elem, cells, off+i*rt.elem.size) {
				return false
			}
		}
		return true
	case k == kString:
		h.h.WriteString(cells[off].Str())
		h.word(0xff)
		return true
	case k == kBool || k.isInteger() || k.isFloat() || k.isComplex():
		h.word(cells[off].a)
		h.word(cells[off].b)
		return true
	}
	v := cells[off]
	if v.p == nil {
		h.word(0)
		return true
	}
	if (rt.kind == kPtr || rt.kind == kFunc) && h.static(v.p) {
		h.word(uint64(uintptr(v.p)))
		h.word(v.a)
		return true
	}
	return false
}
