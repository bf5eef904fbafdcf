package explore

import "golang.org/x/tools/go/ssa"

// flag: the explorer does not parse a command line, so a flag defined by
// interpreted code keeps its default value. flag.Int, Bool, String… (the
// functions that define a flag and return a pointer to its variable)
// return a pointer to a new variable holding the default; they are what
// the initializers of interpreted standard packages call (testing/quick's
// -quickchecks). The other functions of flag stay unsupported.
func flagModel() model {
	t := map[string]intrinsicFactory{}
	for _, name := range []string{"Bool", "Int", "Int64", "Uint", "Uint64", "String", "Float64", "Duration"} {
		t["flag."+name] = func(m *machine, fn *ssa.Function) intrinsic {
			return func(c *icall) ctrl {
				o := newObject(1)
				o.cells[0] = c.args[1] // (name, value, usage)
				return c.ret(ptrV(o, 0))
			}
		}
	}
	return model{funcs: t}
}
