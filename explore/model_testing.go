package explore

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The testing model. A *testing.T is an interpreter object of type
// testing.T whose fields are never read; its state lives in testState.
//
// The explored test is the only one the run executes (as with go test
// -run '^TestX$'), so the run's root test — the parent of every top-level
// test in package testing, named "" — completes together with it. This is
// the state a goroutine the test left running sees if it outlives the
// test, which the explorer keeps running after the entry returned.

type testState struct {
	name    string
	val     Value // the *testing.T
	parent  *testState
	g       *goroutine
	failed  bool
	skipped bool
	// finished is testing's c.finished: the test function returned, or
	// FailNow/SkipNow was called on the test (from any goroutine);
	// finishPos is where FailNow/SkipNow was called.
	finished  bool
	finishPos token.Pos
	// done is testing's c.done: set by tRunner when the test, its
	// cleanups and its subtests have completed.
	done bool
	// aborted: tRunner signalled false to t.Run (the test's goroutine
	// exited by runtime.Goexit while a parent had finished), so the
	// goroutine that called t.Run calls runtime.Goexit.
	aborted  bool
	fnPos    token.Pos // a subtest's function
	errors   []string
	failPos  token.Pos
	cleanups []Value
	helpers  map[*fnCode]bool
	// depth is the number of the test's parents (0: the entry's test).
	depth int
	// t.TempDir: the test's temporary directory (made at the first
	// call) and the number of directories made in it.
	tempDir string
	tempSeq int

	// t.Parallel (see parallelIntrinsic). parallel is testing's
	// isParallel; parSubs is testing's t.sub, the parallel subtests the
	// test releases when its function has returned (barrier: a cell that
	// is 1 until then, testing's t.barrier) and waits for before its
	// cleanups run (waited of them so far; subsDone once all finished).
	parallel bool
	parSubs  []*testState
	barrier  *object
	waited   int
	subsDone bool
	// runner is the goroutine whose t.Run started the subtest.
	runner *goroutine
	// endPos is the closing brace of the test's function (where tRunner
	// releases and waits for the parallel subtests).
	endPos token.Pos
	// The race detector's clocks: the subtest's when it called
	// t.Parallel (testing's t.signal), the test's when it released its
	// parallel subtests (close(t.barrier)).
	signalVC  vclock
	barrierVC vclock
	// endPanic is the panic tRunnerEnd raises after the cleanups.
	endPanic *panicRec
}

func (x *execution) newTest(name string, parent *testState, g *goroutine) *testState {
	tt := x.m.named("testing", "T")
	size := 1
	if tt != nil {
		size = max(1, x.m.rtypeOf(tt).size)
	}
	o := &object{cells: make([]Value, size)}
	t := &testState{name: name, val: ptrV(o, 0), parent: parent, g: g}
	if parent != nil {
		t.depth = parent.depth + 1
	}
	if parent == nil && x.entry != nil {
		t.endPos = funcEnd(x.entry.Fn)
	}
	x.testing().tests[o] = t
	g.test = t
	return t
}

// testOf returns the test state of the receiver (a *testing.T, or the
// embedded *testing.common).
func (c *icall) testOf() *testState {
	if c.args[0].p == nil {
		return nil
	}
	return c.x().testOf(c.args[0].obj())
}

// testingState is the testing model's per-execution state: the tests of
// the execution, by the object of their *testing.T.
type testingState struct {
	// root is the entry's test (nil if the entry takes no *testing.T).
	root  *testState
	tests map[*object]*testState
	// subNames counts the subtests' full names (testing's
	// matcher.subNames: the #NN suffixes).
	subNames map[string]int32
	// found are the subtest names a discovery execution recorded;
	// selected is the entry's subtest (Entry.Path) once it started.
	found    []string
	selected *testState
}

// snapshot carries nothing: the tests are the execution's, created when
// the entry starts, not by package initialization.
func (st *testingState) snapshot() (modelState, bool) { return nil, true }

func (st *testingState) release() {}

// testing returns the execution's testing state, created on first use.
func (x *execution) testing() *testingState {
	return x.modelState(testingSlot).(*testingState)
}

// rootTest returns the entry's test, or nil.
func (x *execution) rootTest() *testState {
	if st, ok := x.models[testingSlot].(*testingState); ok {
		return st.root
	}
	return nil
}

// testOf returns the test whose *testing.T is o, or nil.
func (x *execution) testOf(o *object) *testState {
	if st, ok := x.models[testingSlot].(*testingState); ok {
		return st.tests[o]
	}
	return nil
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

// finish records that FailNow or SkipNow was called on t at pos.
func (t *testState) finish(pos token.Pos) {
	if !t.finished {
		t.finishPos = pos
	}
	t.finished = true
}

// logDone reports whether testing's c.destination() is nil: the test and
// all its parents (the run's root included, which completes with the
// top-level test) have completed, so a Log has nowhere to go.
func (t *testState) logDone() bool {
	for u := t; u != nil; u = u.parent {
		if !u.done {
			return false
		}
	}
	return true
}

// failDone reports whether testing's c.Fail panics, and the name it
// panics with. Fail calls the parent's Fail first, so the outermost
// completed test of the chain panics: the run's root (named "") once the
// top-level test has completed, else the outermost completed subtest.
func (t *testState) failDone() (string, bool) {
	var chain []*testState // root first
	for u := t; u != nil; u = u.parent {
		chain = append([]*testState{u}, chain...)
	}
	if chain[0].done {
		return "", true
	}
	for _, u := range chain {
		if u.done {
			return u.fullName(), true
		}
	}
	return "", false
}

// failAfterDone does what testing's c.Fail does when the test or a parent
// has completed: the tests above the one that panics are marked failed,
// then it panics with "Fail in goroutine after <name> has completed".
func (c *icall) failAfterDone(t *testState) (ctrl, bool) {
	name, bad := t.failDone()
	if !bad {
		return ctrlNext, false
	}
	var chain []*testState // root first
	for u := t; u != nil; u = u.parent {
		chain = append([]*testState{u}, chain...)
	}
	for _, u := range chain {
		if u.done {
			break
		}
		u.failed = true
	}
	return c.throwString("Fail in goroutine after " + name + " has completed"), true
}

// logText is the text testing's c.log records: one final newline
// removed, later lines indented by four spaces.
func logText(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.ReplaceAll(s, "\n", "\n    ")
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

// testLog is t.Log, Error, Fatal, Skip and their f forms (kind) once
// their message is formatted: it prints the line, and fails, stops or
// skips the test ts as kind says.
func (c *icall) testLog(ts *testState, kind, msg string) ctrl {
	msg = strings.TrimSuffix(msg, "\n")
	if ts.logDone() {
		// testing's c.log panics with this text followed by
		// a newline; the newline is left out here, so the
		// finding's message is the line Go prints.
		return c.throwString("Log in goroutine after " + ts.fullName() + " has completed: " + logText(msg))
	}
	pos := c.logPos(ts)
	p := c.m().prog.Fset.Position(pos)
	line := fmt.Sprintf("%s: %s", shortPos(p), msg)
	c.x().out.WriteString("    " + line + "\n")
	switch strings.TrimSuffix(kind, "f") {
	case "Error":
		if cc, bad := c.failAfterDone(ts); bad {
			return cc
		}
		ts.fail(pos, line)
		c.x().note(c.g, pos, "t.%s: %s", kind, msg)
	case "Fatal":
		if cc, bad := c.failAfterDone(ts); bad {
			return cc
		}
		ts.fail(pos, line)
		c.x().note(c.g, pos, "t.%s: %s", kind, msg)
		ts.finish(c.pos)
		return c.g.goexit()
	case "Skip":
		ts.skipped = true
		ts.finish(c.pos)
		return c.g.goexit()
	}
	return c.ret(Value{})
}

func testingModel() model {
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
			}
			if cc != ctrlNext {
				return cc
			}
			return c.testLog(ts, kind, msg)
		})
	}
	for _, k := range []string{"Error", "Errorf", "Fatal", "Fatalf", "Log", "Logf", "Skip", "Skipf"} {
		t["(*testing.common)."+k] = nests(logf(k), true)
	}
	// Fail, FailNow and SkipNow as testing does them. FailNow and SkipNow
	// call runtime.Goexit on the calling goroutine, whichever it is: from
	// a goroutine other than the test's, that goroutine exits and the
	// test goes on (FailNow: it fails; SkipNow: it is skipped) — Go
	// reports nothing else. Called on a parent test from a subtest's
	// goroutine, the subtest's end reports it (tRunnerEnd).
	t["(*testing.common).Fail"] = simple(func(c *icall) ctrl {
		if ts := c.testOf(); ts != nil {
			if cc, bad := c.failAfterDone(ts); bad {
				return cc
			}
			ts.fail(c.pos, "")
		}
		return c.ret(Value{})
	})
	t["(*testing.common).FailNow"] = simple(func(c *icall) ctrl {
		if ts := c.testOf(); ts != nil {
			if cc, bad := c.failAfterDone(ts); bad {
				return cc
			}
			ts.fail(c.pos, "")
			ts.finish(c.pos)
		}
		return c.g.goexit()
	})
	t["(*testing.common).SkipNow"] = simple(func(c *icall) ctrl {
		// SkipNow does not check whether the test has completed.
		if ts := c.testOf(); ts != nil {
			ts.skipped = true
			ts.finish(c.pos)
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
	t["(*testing.common).TempDir"] = testTempDir()
	t["(*testing.T).Parallel"] = simple(parallelIntrinsic)
	t["(*testing.T).Deadline"] = func(m *machine, fn *ssa.Function) intrinsic {
		tt := m.rtypeOf(fn.Signature.Results().At(0).Type())
		return func(c *icall) ctrl { return c.retN(tt.zero, boolV(false)) }
	}
	t["(*testing.T).Run"] = func(m *machine, fn *ssa.Function) intrinsic { return m.testRun() }
	t["testing.Short"] = simple(func(c *icall) ctrl { return c.ret(boolV(false)) })
	t["testing.Verbose"] = simple(func(c *icall) ctrl { return c.ret(boolV(false)) })
	t["testing.Testing"] = simple(func(c *icall) ctrl { return c.ret(boolV(true)) })
	t["testing.AllocsPerRun"] = nests(simple(allocsPerRun), false)
	return model{
		funcs:    t,
		slot:     testingSlot,
		newState: func(*execution) modelState { return &testingState{tests: map[*object]*testState{}} },
	}
}

// allocsPerRun is testing.AllocsPerRun(runs, f): it calls f once, then
// runs times, as Go does (each call a nested call, whose scheduling
// points are explored), and returns 0 with a warning: the interpreter's
// allocations are not Go's (escape analysis decides those), so it cannot
// count them. A check that the count is at most a bound passes; one that
// it is exactly a positive number fails, and the warning says why.
func allocsPerRun(c *icall) ctrl {
	runs := c.args[0].Int()
	for i := int64(-1); i < runs; i++ {
		if _, cc := c.g.callNested(c.args[1], nil); cc != ctrlNext {
			return cc
		}
	}
	if runs == 0 {
		return c.g.throwRuntime("integer divide by zero") // mallocs / uint64(runs)
	}
	c.x().warn("%s: testing.AllocsPerRun returned 0: the explorer does not count Go's allocations, so the test's checks of the count were not tested (a check that it is exactly a positive number fails)", c.m().prog.Fset.Position(c.pos))
	return c.ret(floatV(0))
}

// errNilPanicOrGoexit is testing's error for a test whose goroutine
// ended by runtime.Goexit without the test having finished.
const errNilPanicOrGoexit = "test executed panic(nil) or runtime.Goexit"

// Steps of the tRunnerEnd trampoline: 0 how the test function ended,
// 1 release the parallel subtests, 2 wait for each of them, 3 run the
// cleanups, then:
const (
	endDone          = 4 // the test is done
	endPanicCleanups = 5 // a panic: the cleanups not run yet, then panic on
)

// tRunnerEnd returns the deferred trampoline that does what the deferred
// function of testing.tRunner does when a test's goroutine ends (after
// the test's cleanups, unless the test has parallel subtests): if the
// goroutine exits by runtime.Goexit while the test has not finished (it
// neither returned nor called FailNow/SkipNow on itself), then
//   - if a parent test has finished (a subtest called FailNow or SkipNow
//     on a parent) and the test is not parallel, the test fails with
//     "test executed panic(nil) or runtime.Goexit: subtest may have
//     called FailNow on a parent test" and t.Run, in the goroutine that
//     called it, calls runtime.Goexit (so the parent stops too: Go's
//     "continue aborting up the chain");
//   - otherwise (the test's goroutine called runtime.Goexit itself, not
//     through FailNow or SkipNow of its own test, or a parallel test —
//     whose parent has always finished — did), the test panics with the
//     error "test executed panic(nil) or runtime.Goexit".
//
// Then, if the test has parallel subtests, it releases them (testing's
// close(t.barrier): a scheduling step), waits for each to finish
// (testing's <-sub.signal) and runs its cleanups. Then the test is done
// (testing's c.done). A test that panics is never done: its cleanups run
// (testing's doPanic) and the panic goes on and ends the program.
func (m *machine) tRunnerEnd() *fnCode {
	cleanups := m.cleanupRunner()
	return m.trampoline("testing.tRunner.func1", 0, []instrFn{
		// 0: how the test function ended
		func(fr *frame) ctrl {
			g := fr.g
			t := g.test
			if t == nil {
				return g.ret(Value{})
			}
			p := g.panic
			switch {
			case p == nil:
				t.finished = true
				return ctrlNext
			case !p.goexit:
				fr.pc = endPanicCleanups
				return ctrlNext
			case t.finished:
				return ctrlNext
			}
			for u := t.parent; u != nil && !t.parallel; u = u.parent {
				if !u.finished {
					continue
				}
				// t.Errorf from tRunner (Go's position is in
				// testing.go; here it is where FailNow or SkipNow was
				// called on the parent).
				msg := errNilPanicOrGoexit + ": subtest may have called FailNow on a parent test"
				line := fmt.Sprintf("%s: %s", shortPos(g.x.m.prog.Fset.Position(u.finishPos)), msg)
				g.x.out.WriteString("    " + line + "\n")
				t.fail(u.finishPos, line)
				g.x.note(g, u.finishPos, "t.Errorf: %s", msg)
				t.aborted = true
				return ctrlNext
			}
			// Go's panic is raised in testing.go; its position here is
			// the test function's.
			t.fail(token.NoPos, "")
			pos := t.fnPos
			if t.parent == nil {
				pos = g.x.entry.Fn.Pos()
			}
			t.endPanic = &panicRec{val: g.x.m.newErrorString(errNilPanicOrGoexit), prev: p, pos: pos, stack: g.stack()}
			fr.pc = endPanicCleanups
			return ctrlNext
		},
		// 1: release the parallel subtests
		func(fr *frame) ctrl {
			g := fr.g
			t := g.test
			if len(t.parSubs) == 0 {
				fr.pc = endDone
				return ctrlNext
			}
			if g.yieldAt(pendingOp{kind: opSync, obj: t.barrier, pos: t.endPos, label: "release the parallel subtests of " + t.fullName()}) {
				return ctrlYield
			}
			t.barrier.cells[0] = Value{}
			if g.x.race != nil {
				g.release(&t.barrierVC)
			}
			return ctrlNext
		},
		// 2: wait for each
		func(fr *frame) ctrl {
			g := fr.g
			t := g.test
			if t.waited == len(t.parSubs) {
				return ctrlNext
			}
			s := t.parSubs[t.waited]
			if g.yieldAt(pendingOp{kind: opJoin, g2: s.g, pos: t.endPos, label: "wait for " + s.fullName()}) {
				return ctrlYield
			}
			t.waited++
			fr.pc--
			return ctrlNext
		},
		// 3: their cleanups
		func(fr *frame) ctrl {
			fr.g.test.subsDone = true
			return fr.g.callValue(fr, funcV(cleanups.self), nil, -1, token.NoPos)
		},
		// endDone
		func(fr *frame) ctrl {
			fr.g.test.done = true
			return fr.g.ret(Value{})
		},
		// endPanicCleanups: testing's doPanic runs the cleanups (those of
		// a test without parallel subtests have run already)
		func(fr *frame) ctrl {
			t := fr.g.test
			if len(t.parSubs) > 0 && !t.subsDone {
				t.subsDone = true
				return fr.g.callValue(fr, funcV(cleanups.self), nil, -1, token.NoPos)
			}
			return ctrlNext
		},
		func(fr *frame) ctrl {
			g := fr.g
			if p := g.test.endPanic; p != nil {
				g.test.endPanic = nil
				g.panic = p
				return ctrlPanic
			}
			return g.ret(Value{})
		},
	})
}

// cleanupsWait reports whether t's cleanups wait for its parallel
// subtests (testing's tRunner runs them after <-sub.signal).
func (t *testState) cleanupsWait() bool { return len(t.parSubs) > 0 && !t.subsDone }

// yieldAt is icall.yield for trampoline code: it reports whether g must
// yield at the scheduling point p (now its pending operation), false when
// p was granted and must be performed.
func (g *goroutine) yieldAt(p pendingOp) bool {
	if g.granted {
		g.granted = false
		return false
	}
	if !p.pos.IsValid() {
		p.pos = g.sourcePos()
	}
	g.pend = p
	return true
}

// How an opJoin waits (pendingOp.n).
const (
	joinDone      = 0 // until goroutine g2 finished
	joinSignalled = 1 // t.Run: the subtest on g2 called t.Parallel (enabled)
)

// joinReady reports whether a pending opJoin can proceed.
func joinReady(p *pendingOp) bool { return p.n == joinSignalled || p.g2.done }

// joinClock is the clock a goroutine whose opJoin is granted acquires:
// the finished goroutine's, or the subtest's when it called t.Parallel
// (testing's t.signal <- true; what the subtest does after it is not
// ordered before t.Run's return).
func joinClock(p *pendingOp) vclock {
	if p.n == joinSignalled {
		return p.g2.test.signalVC
	}
	return p.g2.vc
}

// joinStep describes a granted opJoin in a trace.
func joinStep(p *pendingOp) string {
	if p.n == joinSignalled {
		return fmt.Sprintf("t.Run returns: goroutine %d called t.Parallel", p.g2.id)
	}
	return fmt.Sprintf("resume after goroutine %d finished", p.g2.id)
}

// parallelIntrinsic is t.Parallel, as testing.go does it. A subtest
// joins its parent's parallel subtests (testing's t.parent.sub), signals
// the goroutine waiting in t.Run, which returns (whether the subtest
// failed so far), and waits until its parent has released its parallel
// subtests (testing's <-t.parent.barrier): when the parent's function has
// returned (or called FailNow/SkipNow). Then it runs concurrently with
// its sibling parallel subtests; the parent runs its cleanups and
// completes once they all finished (tRunnerEnd).
//
// Go then limits the number of tests running at once to -parallel
// (testing's waitParallel; GOMAXPROCS by default). The explorer runs all
// of them at once, as Go does when -parallel is at least their number
// (plus the sequential test); with a smaller limit Go runs some of these
// schedules (a waiting subtest starts when a running one finished), and
// subtests that wait for each other could deadlock there, which the
// explorer does not report.
//
// A top-level test (the explored one) is a parallel subtest of the run's
// root, whose function runs the top-level tests one after the other: as
// the explored test is the only one, the root's function returns at once,
// the test is released and the running count has room for it (the root
// gave its slot back), so it simply continues. It is parallel from then
// on: a second call panics, and a Goexit without finishing panics rather
// than failing (no parent test).
//
// testing's other checks: "t.Parallel called inside synctest bubble"
// (testing/synctest is not modelled) and the conflict with t.Setenv and
// t.Chdir (not modelled: they are unsupported).
func parallelIntrinsic(c *icall) ctrl {
	g := c.g
	t := c.testOf()
	if t == nil {
		return c.nilPanic()
	}
	parent := t.parent
	if g.phase == 0 {
		if t.parallel {
			return c.throwString("testing: t.Parallel called multiple times")
		}
		t.parallel = true
		if parent == nil {
			return c.ret(Value{})
		}
		parent.parSubs = append(parent.parSubs, t)
		if parent.barrier == nil {
			parent.barrier = &object{cells: []Value{uintV(1)}, id: mix(stringHash("testing barrier "+parent.fullName()), 1)}
		}
		if c.x().race != nil {
			g.release(&t.signalVC)
		}
		if r := t.runner; r != nil && !r.done && r.pend.kind == opJoin && r.pend.g2 == t.g && r.pend.n == joinDone {
			r.pend.n = joinSignalled
		}
		g.phase = 1
	}
	// A WaitGroup-like wait on the barrier cell: it reads it (the
	// parallel subtests' waits commute) and the parent's release writes
	// it.
	if c.yield(pendingOp{kind: opWGWait, obj: parent.barrier, label: "t.Parallel: wait until " + parent.fullName() + " returned"}) {
		return ctrlYield
	}
	g.phase = 0
	if c.x().race != nil {
		g.acquire(parent.barrierVC)
	}
	return c.ret(Value{})
}

// funcEnd is the position of the closing brace of fn's body.
func funcEnd(fn *ssa.Function) token.Pos {
	if fn == nil {
		return token.NoPos
	}
	if syn := fn.Syntax(); syn != nil && syn.End().IsValid() {
		return syn.End() - 1
	}
	return fn.Pos()
}

// testRun implements t.Run(name, f): f runs on a new goroutine with a
// subtest T; the parent waits for it (a scheduling point) to finish or to
// call t.Parallel, and gets !failed. The subtest's name is testing's
// (rewritten, made unique with #NN suffixes); a subtest the entry does
// not run (subtestRuns: not on its subtest path, filtered out by its
// -run pattern, or recorded by a discovery execution) returns true at
// once, as testing's t.Run does for a subtest -run filters out.
func (m *machine) testRun() intrinsic {
	cleanups := m.cleanupRunner()
	end := m.tRunnerEnd()
	// reg0 = f, reg1 = sub *testing.T
	tr := m.trampoline("testing.tRunner", 2, []instrFn{
		func(fr *frame) ctrl {
			fr.defers = append(fr.defers,
				deferred{fn: funcV(end.self)},
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
			name, run := c.x().subtestRuns(parent, c.args[1].Str())
			if !run {
				// testing's t.Run of a subtest -run filters out
				return c.ret(boolV(true))
			}
			c.x().publishFunc(c.args[2])
			sg := c.x().spawn(g, tr.self, nil, c.pos)
			st := c.x().newTest(name, parent, sg)
			st.runner = g
			if n := len(c.x().entry.Path); n > 0 && st.depth == n {
				// only the subtests on the path run down to its level
				c.x().testing().selected = st
			}
			fr := sg.top
			fr.regs[0] = c.args[2]
			fr.regs[1] = st.val
			if cl := c.args[2].closure(); cl != nil && cl.fn.fn != nil {
				st.fnPos = cl.fn.fn.Pos()
				st.endPos = funcEnd(cl.fn.fn)
			}
			g.phase = 1
			g.sub = sg
		}
		if c.yield(pendingOp{kind: opJoin, g2: g.sub, label: "t.Run"}) {
			return ctrlYield
		}
		g.phase = 0
		sg := g.sub
		g.sub = nil
		if sg.test.aborted {
			// testing's t.Run: "FailNow was called on one of the parent
			// tests by one of the subtests. Continue aborting up the
			// chain."
			return c.g.goexit()
		}
		// A parallel subtest: whether it failed before t.Parallel (or
		// since, from another goroutine).
		return c.ret(boolV(!sg.test.failed))
	}
}
