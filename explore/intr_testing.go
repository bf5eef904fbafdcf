package explore

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The testing model. A *testing.T is an interpreter object of type
// testing.T whose fields are never read; its state lives in testState.

type testState struct {
	name     string
	val      Value // the *testing.T
	parent   *testState
	g        *goroutine
	failed   bool
	skipped  bool
	finished bool
	errors   []string
	failPos  token.Pos
	cleanups []Value
	helpers  map[*fnCode]bool
	subs     map[string]int
}

func (x *execution) newTest(name string, parent *testState, g *goroutine) *testState {
	tt := x.m.named("testing", "T")
	size := 1
	if tt != nil {
		size = max(1, x.m.rtypeOf(tt).size)
	}
	o := &object{cells: make([]Value, size)}
	t := &testState{name: name, val: ptrV(o, 0), parent: parent, g: g}
	if x.tests == nil {
		x.tests = map[*object]*testState{}
	}
	x.tests[o] = t
	g.test = t
	return t
}

// testOf returns the test state of the receiver (a *testing.T, or the
// embedded *testing.common).
func (c *icall) testOf() *testState {
	if c.args[0].p == nil {
		return nil
	}
	return c.x().tests[c.args[0].obj()]
}

// fail marks t and its ancestors failed.
func (t *testState) fail(pos token.Pos, msg string) {
	for u := t; u != nil; u = u.parent {
		u.failed = true
		if !u.failPos.IsValid() {
			u.failPos = pos
		}
		if msg != "" {
			m := msg
			if u != t {
				m = t.fullName() + ": " + msg
			}
			u.errors = append(u.errors, m)
		}
	}
}

func (t *testState) fullName() string {
	if t.parent == nil {
		return t.name
	}
	return t.parent.fullName() + "/" + t.name
}

// logPos is the position a t.Log line reports: the call site, skipping
// functions marked with t.Helper.
func (c *icall) logPos(t *testState) token.Pos {
	g := c.g
	for i := g.depth - 1; i >= 0; i-- {
		fr := g.frames[i]
		if fr.fn.fn == nil || fr.fn.fn.Synthetic != "" || t != nil && t.helpers[fr.fn] {
			continue // trampolines, wrappers, t.Helper functions
		}
		if i == g.depth-1 && c.pos.IsValid() {
			return c.pos
		}
		return fr.pos()
	}
	return c.pos
}

func testingIntrinsics() map[string]intrinsicFactory {
	t := map[string]intrinsicFactory{}
	logf := func(kind string) intrinsicFactory {
		return simple(func(c *icall) ctrl {
			ts := c.testOf()
			if ts == nil {
				return c.nilPanic()
			}
			var msg string
			var cc ctrl
			if strings.HasSuffix(kind, "f") {
				msg, cc = c.x().sprintf(c.g, c.args[1].Str(), sliceElems(c.args[2]))
			} else {
				msg, cc = c.x().sprint(c.g, sliceElems(c.args[1]), true)
				msg = strings.TrimSuffix(msg, "\n")
			}
			if cc != ctrlNext {
				return cc
			}
			pos := c.logPos(ts)
			p := c.m().prog.Fset.Position(pos)
			line := fmt.Sprintf("%s: %s", shortPos(p), msg)
			c.x().out.WriteString("    " + line + "\n")
			switch strings.TrimSuffix(kind, "f") {
			case "Error":
				ts.fail(pos, line)
				c.x().note(c.g, pos, "t.%s: %s", kind, msg)
			case "Fatal":
				ts.fail(pos, line)
				c.x().note(c.g, pos, "t.%s: %s", kind, msg)
				return c.g.goexit()
			case "Skip":
				ts.skipped = true
				return c.g.goexit()
			}
			return c.ret(Value{})
		})
	}
	for _, k := range []string{"Error", "Errorf", "Fatal", "Fatalf", "Log", "Logf", "Skip", "Skipf"} {
		t["(*testing.common)."+k] = logf(k)
	}
	t["(*testing.common).Fail"] = simple(func(c *icall) ctrl {
		if ts := c.testOf(); ts != nil {
			ts.fail(c.pos, "")
		}
		return c.ret(Value{})
	})
	t["(*testing.common).FailNow"] = simple(func(c *icall) ctrl {
		if ts := c.testOf(); ts != nil {
			ts.fail(c.pos, "")
		}
		return c.g.goexit()
	})
	t["(*testing.common).SkipNow"] = simple(func(c *icall) ctrl {
		if ts := c.testOf(); ts != nil {
			ts.skipped = true
		}
		return c.g.goexit()
	})
	t["(*testing.common).Failed"] = simple(func(c *icall) ctrl {
		ts := c.testOf()
		return c.ret(boolV(ts != nil && ts.failed))
	})
	t["(*testing.common).Skipped"] = simple(func(c *icall) ctrl {
		ts := c.testOf()
		return c.ret(boolV(ts != nil && ts.skipped))
	})
	t["(*testing.common).Name"] = simple(func(c *icall) ctrl {
		ts := c.testOf()
		if ts == nil {
			return c.nilPanic()
		}
		return c.ret(strV(ts.fullName()))
	})
	t["(*testing.common).Helper"] = simple(func(c *icall) ctrl {
		ts := c.testOf()
		if ts == nil {
			return c.ret(Value{})
		}
		// the function calling Helper, skipping method wrappers (calls
		// through testing.TB go through them)
		for i := c.g.depth - 1; i >= 0; i-- {
			if fn := c.g.frames[i].fn; fn.fn != nil && fn.fn.Synthetic == "" {
				if ts.helpers == nil {
					ts.helpers = map[*fnCode]bool{}
				}
				ts.helpers[fn] = true
				break
			}
		}
		return c.ret(Value{})
	})
	t["(*testing.common).Cleanup"] = simple(func(c *icall) ctrl {
		ts := c.testOf()
		if ts == nil {
			return c.nilPanic()
		}
		ts.cleanups = append(ts.cleanups, c.args[1])
		return c.ret(Value{})
	})
	t["(*testing.T).Parallel"] = simple(func(c *icall) ctrl { return c.ret(Value{}) })
	t["(*testing.T).Deadline"] = func(m *machine, fn *ssa.Function) intrinsic {
		tt := m.rtypeOf(fn.Signature.Results().At(0).Type())
		return func(c *icall) ctrl { return c.retN(tt.zero, boolV(false)) }
	}
	t["(*testing.T).Run"] = func(m *machine, fn *ssa.Function) intrinsic { return m.testRun() }
	t["testing.Short"] = simple(func(c *icall) ctrl { return c.ret(boolV(false)) })
	t["testing.Verbose"] = simple(func(c *icall) ctrl { return c.ret(boolV(false)) })
	t["testing.Testing"] = simple(func(c *icall) ctrl { return c.ret(boolV(true)) })
	return t
}

// testRun implements t.Run(name, f): f runs on a new goroutine with a
// subtest T; the parent waits for it (a scheduling point) and gets
// !failed.
func (m *machine) testRun() intrinsic {
	cleanups := m.cleanupRunner()
	// reg0 = f, reg1 = sub *testing.T
	tr := m.trampoline("testing.tRunner", 2, []instrFn{
		func(fr *frame) ctrl {
			fr.defers = append(fr.defers,
				deferred{native: func(g *goroutine) {
					if g.test != nil {
						g.test.finished = true
					}
				}},
				deferred{fn: funcV(cleanups.self)})
			return ctrlNext
		},
		func(fr *frame) ctrl { return fr.g.callValue(fr, fr.regs[0], []Value{fr.regs[1]}, -1, token.NoPos) },
		runDefersInstr,
		func(fr *frame) ctrl { return fr.g.ret(Value{}) },
	})
	return func(c *icall) ctrl {
		g := c.g
		if g.phase == 0 {
			parent := c.testOf()
			if parent == nil {
				return c.nilPanic()
			}
			name := c.args[1].Str()
			if parent.subs == nil {
				parent.subs = map[string]int{}
			}
			parent.subs[name]++
			if n := parent.subs[name]; n > 1 {
				name = fmt.Sprintf("%s#%02d", name, n-1)
			}
			name = strings.ReplaceAll(name, " ", "_")
			sg := c.x().spawn(g, tr.self, nil, c.pos)
			st := c.x().newTest(name, parent, sg)
			fr := sg.top
			fr.regs[0] = c.args[2]
			fr.regs[1] = st.val
			g.phase = 1
			g.sub = sg
		}
		if c.yield(pendingOp{kind: opJoin, g2: g.sub, label: "t.Run"}) {
			return ctrlYield
		}
		g.phase = 0
		sg := g.sub
		g.sub = nil
		return c.ret(boolV(!sg.test.failed))
	}
}

// sliceElems returns the elements of a slice value (one cell each).
func sliceElems(s Value) []Value {
	if s.p == nil {
		return nil
	}
	return s.obj().cells[s.off() : s.off()+s.sliceLen()]
}

var _ = types.Typ
