package explore

import "golang.org/x/tools/go/ssa"

// The unique package: unique.Make interns values in a per-execution table
// (uniqueState), so equal values get equal handles within an execution.
// A Handle[T] is struct{ value *T }. The table prevents the package
// initialization snapshot: handles restored from it would not match the
// table of a later execution.

func uniqueModel() model {
	return model{
		funcs: map[string]intrinsicFactory{
			"unique.Make": func(m *machine, fn *ssa.Function) intrinsic {
				// Handle[T] is struct{ value *T }: equal values share one
				// pointer (per execution).
				t := m.rtypeOf(fn.Signature.Params().At(0).Type())
				return func(c *icall) ctrl {
					k, bad := keyOf(t, c.args[0])
					if bad != nil {
						return c.g.throwRuntime("hash of unhashable type %s", bad)
					}
					st := c.x().uniqueState()
					key := ifaceKey{t, k}
					o, ok := st.interned[key]
					if !ok {
						o = &object{cells: make([]Value, t.size), id: c.g.newID(), owner: c.g.key}
						storeValue(t, o, 0, c.args[0])
						st.interned[key] = o
					}
					h := newObject(1)
					h.cells[0] = ptrV(o, 0)
					return c.ret(ptrV(h, 0))
				}
			},
			"(unique.Handle[T]).Value": func(m *machine, fn *ssa.Function) intrinsic {
				t := m.rtypeOf(fn.Signature.Results().At(0).Type())
				return func(c *icall) ctrl {
					p := c.args[0].obj().cells[c.args[0].off()]
					if p.p == nil {
						return c.nilPanic()
					}
					return c.ret(loadValue(t, p.obj(), p.off()))
				}
			},
		},
		slot:     uniqueSlot,
		newState: func(*execution) modelState { return &uniqueState{interned: map[any]*object{}} },
	}
}

// uniqueState is the execution's table of interned values, by type and
// key.
type uniqueState struct {
	interned map[any]*object
}

func (x *execution) uniqueState() *uniqueState { return x.modelState(uniqueSlot).(*uniqueState) }

// snapshot refuses: the handles in the restored memory would not be the
// table's.
func (st *uniqueState) snapshot() (modelState, bool) { return nil, false }

func (st *uniqueState) release() {}
