package explore

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// internal/godebug, which standard packages consult for compatibility
// settings: every setting is unset (the default behaviour).

func godebugModel() model {
	return model{funcs: map[string]intrinsicFactory{
		"internal/godebug.New": func(m *machine, fn *ssa.Function) intrinsic {
			st := m.rtypeOf(fn.Signature.Results().At(0).Type().(*types.Pointer).Elem())
			return func(c *icall) ctrl { return c.ret(ptrV(newObject(max(1, st.size)), 0)) }
		},
		"(*internal/godebug.Setting).Value":         simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"(*internal/godebug.Setting).IncNonDefault": simple(func(c *icall) ctrl { return c.ret(Value{}) }),
		"(*internal/godebug.Setting).Name":          simple(func(c *icall) ctrl { return c.ret(Value{}) }),
	}}
}
