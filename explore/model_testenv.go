package explore

import (
	"fmt"

	"golang.org/x/tools/go/ssa"
)

// The functions of internal/testenv, the standard library's test helper,
// that the standard packages' external tests call, as the host (which
// builds and runs the tests) answers them: it is no builder
// (testenv.Builder is ""), optimizations are on, and it has the go
// command and exec (MustHaveGoBuild and MustHaveExec return). SkipFlaky
// skips the test as testenv does without its -flaky flag.
// The profiling and GC settings of runtime and runtime/debug that tests
// adjust have no effect in the interpreter: SetGCPercent returns 100,
// SetMutexProfileFraction and SetBlockProfileRate return 0 (the previous
// settings). runtime.AddCleanup, like SetFinalizer, registers nothing: the
// interpreter collects no garbage, so the cleanup never runs.

func testenvModel() model {
	noop := simple(func(c *icall) ctrl { return c.ret(Value{}) })
	return model{funcs: map[string]intrinsicFactory{
		"internal/testenv.Builder":               simple(func(c *icall) ctrl { return c.ret(strV("")) }),
		"internal/testenv.OptimizationOff":       simple(func(c *icall) ctrl { return c.ret(boolV(false)) }),
		"internal/testenv.SkipIfOptimizationOff": noop,
		"internal/testenv.MustHaveGoBuild":       noop,
		"internal/testenv.MustHaveExec":          noop,
		"internal/testenv.SkipFlaky":             simple(testenvSkipFlaky),
		"runtime/debug.SetGCPercent":             simple(func(c *icall) ctrl { return c.ret(intV(100)) }),
		"runtime.SetMutexProfileFraction":        simple(func(c *icall) ctrl { return c.ret(intV(0)) }),
		"runtime.SetBlockProfileRate":            noop,
		"runtime.AddCleanup": func(m *machine, fn *ssa.Function) intrinsic {
			// The result is a runtime.Cleanup, a struct: its zero value.
			size := max(1, m.rtypeOf(fn.Signature.Results().At(0).Type()).size)
			return func(c *icall) ctrl {
				if c.args[0].p == nil {
					return c.throwString("runtime.AddCleanup: ptr is nil")
				}
				return c.ret(ptrV(newObject(size), 0))
			}
		},
		"(runtime.Cleanup).Stop": noop,
	}}
}

// testenvSkipFlaky is testenv.SkipFlaky(t, issue) without the -flaky flag:
// t.Skipf("skipping known flaky test without the -flaky flag; see
// golang.org/issue/%d", issue). t must be a *testing.T or *testing.B.
func testenvSkipFlaky(c *icall) ctrl {
	var ts *testState
	if i := (*iface)(c.args[0].p); i != nil && i.v.p != nil {
		ts = c.x().testOf(i.v.obj())
	}
	if ts == nil {
		return c.g.unsupported(c.pos, "internal/testenv.SkipFlaky: its testing.TB is not a test of the execution")
	}
	msg := fmt.Sprintf("skipping known flaky test without the -flaky flag; see golang.org/issue/%d", c.args[1].Int())
	return c.testLog(ts, "Skipf", msg)
}
