package explore

// flag: the explorer does not parse a command line, so a flag defined by
// interpreted code keeps its default value, as in a go test run without
// that flag. flag.Int, Bool, String… (the functions that define a flag
// and return a pointer to its variable) return a pointer to a new
// variable holding the default, and flag.IntVar, BoolVar… store the
// default in their variable; these are what package initializers call
// (testing/quick's -quickchecks, a test's -update). The other functions
// of flag (Parse, Lookup, the FlagSet methods) stay unsupported.
func flagModel() model {
	t := map[string]intrinsicFactory{}
	for _, name := range []string{"Bool", "Int", "Int64", "Uint", "Uint64", "String", "Float64", "Duration"} {
		t["flag."+name] = simple(func(c *icall) ctrl {
			o := newObject(1)
			o.cells[0] = c.args[1] // (name, value, usage)
			return c.ret(ptrV(o, 0))
		})
	}
	// flag.BoolVar(p, name, value, usage)…: *p = value
	for _, name := range []string{"BoolVar", "IntVar", "Int64Var", "UintVar", "Uint64Var", "StringVar", "Float64Var", "DurationVar"} {
		t["flag."+name] = simple(func(c *icall) ctrl {
			o, off, ok := c.ptrArg(0)
			if !ok {
				return c.nilPanic()
			}
			o.cells[off] = c.args[2]
			return c.ret(Value{})
		})
	}
	return model{funcs: t}
}
