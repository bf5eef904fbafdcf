package explore

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Models of sync/atomic: every operation is a scheduling point on the
// addressed cell. Loads are reads, everything else writes (for DPOR).

func atomicModel() model {
	t := map[string]intrinsicFactory{}
	for _, ty := range []string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Pointer"} {
		for _, op := range []string{"Add", "Load", "Store", "Swap", "CompareAndSwap", "And", "Or"} {
			if ty == "Pointer" && (op == "Add" || op == "And" || op == "Or") {
				continue
			}
			t["sync/atomic."+op+ty] = atomicFunc(op)
		}
	}
	for _, ty := range []string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Bool", "Pointer[T]", "Value"} {
		for _, op := range []string{"Add", "Load", "Store", "Swap", "CompareAndSwap", "And", "Or"} {
			t["(*sync/atomic."+ty+")."+op] = atomicFunc(op)
		}
	}
	return model{funcs: t}
}

// atomicFunc implements one operation for the function or method fn. The
// operand's type is the pointer parameter's element (functions) or the
// method receiver's v field (types); the value is always cell 0 of the
// receiver (the types' other fields take no cells).
func atomicFunc(op string) intrinsicFactory {
	return func(m *machine, fn *ssa.Function) intrinsic {
		sig := fn.Signature
		var vt types.Type
		if recv := sig.Recv(); recv != nil {
			st := recv.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
			vt = st.Field(st.NumFields() - 1).Type()
			if strings.Contains(fn.String(), "atomic.Bool") {
				vt = types.Typ[types.Bool]
			}
		} else {
			vt = sig.Params().At(0).Type().(*types.Pointer).Elem()
		}
		rt := m.rtypeOf(vt)
		isValue := strings.Contains(fn.String(), "atomic.Value")
		n := norm(rt.kind)
		label := "atomic." + op
		if recv := sig.Recv(); recv != nil {
			label = strings.TrimPrefix(fn.String(), "(*sync/") + ""
			label = "atomic." + label[strings.Index(label, ".")+1:]
		}
		// arguments after the pointer/receiver
		return func(c *icall) ctrl {
			o, off, ok := c.ptrArg(0)
			if !ok {
				return c.nilPanic()
			}
			pend := pendingOp{kind: opAtomic, obj: o, off: off, write: op != "Load", label: label}
			if op == "CompareAndSwap" && c.args[1].p == nil {
				// the scalar it expects: a swap that will fail is a read
				// (fair.go: readOnly)
				pend.val = c.args[1]
			}
			if c.yield(pend) {
				return ctrlYield
			}
			if rs := c.x().race; rs != nil {
				atomicRace(c, rs, o, off, op, label)
			}
			if op != "Load" && c.m().sharedMemory() && mayPublish(rt) {
				for _, a := range c.args[1:] {
					c.m().publish(rt, a)
				}
			}
			cell := &o.cells[off]
			old := *cell
			wrap := func(v uint64) uint64 {
				if n != nil {
					return n(v)
				}
				return v
			}
			switch op {
			case "Load":
				if rt.kind == kBool {
					return c.ret(boolV(old.a != 0))
				}
				return c.ret(old)
			case "Store", "Swap":
				v := c.args[1]
				if isValue {
					if cc := checkValueStore(c, old, v); cc != ctrlNext {
						return cc
					}
				}
				*cell = v
				if op == "Store" {
					return c.ret(Value{})
				}
				return c.ret(old)
			case "Add":
				*cell = Value{a: wrap(old.a + c.args[1].a)}
				return c.ret(*cell)
			case "And":
				*cell = Value{a: old.a & c.args[1].a}
				return c.ret(old)
			case "Or":
				*cell = Value{a: old.a | c.args[1].a}
				return c.ret(old)
			case "CompareAndSwap":
				oldArg, newArg := c.args[1], c.args[2]
				if isValue {
					if cc := checkValueStore(c, old, newArg); cc != ctrlNext {
						return cc
					}
				}
				eq, bad := equal(rt, old, oldArg)
				if bad != nil {
					return c.g.throwRuntime("comparing uncomparable type %s", bad)
				}
				if !eq {
					return c.ret(boolV(false))
				}
				*cell = newArg
				return c.ret(boolV(true))
			}
			return c.g.unsupported(c.pos, "atomic operation %s", op)
		}
	}
}

// checkValueStore enforces atomic.Value's rules.
func checkValueStore(c *icall, old, v Value) ctrl {
	if v.p == nil {
		return c.g.throwPlain("sync/atomic: store of nil value into Value")
	}
	if old.p != nil && old.iface().t != v.iface().t {
		return c.g.throwPlain("sync/atomic: store of inconsistently typed value into Value")
	}
	return ctrlNext
}

// atomicRace is the race detector's view of an atomic operation: an
// access that races with plain accesses of the cell (never with other
// atomics), and a synchronization on the address as Go's race runtime
// models it: a load acquires; a store releases, replacing what earlier
// stores released (a load that observes it is not ordered after them);
// a read-modify-write acquires, then releases.
func atomicRace(c *icall, rs *raceState, o *object, off int, op, label string) {
	g := c.g
	rs.access(g, o, off, 1, op != "Load", true, c.m().site(c.pos, label))
	switch op {
	case "Load":
		g.acquireAt(o, off)
	case "Store":
		if v := g.x.syncClock(o, off); v != nil {
			g.releaseStore(v)
		}
	default:
		g.acquireAt(o, off)
		g.releaseAt(o, off)
	}
}
