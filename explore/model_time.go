package explore

import (
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/ssa"
)

// The time package is interpreted from source; only the functions that
// reach the runtime are modelled: they read the virtual clock and set
// timers (clock.go). Each is a scheduling point (opTime) so that the
// clock's advances are ordered with them.

// timer is a time.Timer, time.Ticker or AfterFunc timer.
type timer struct {
	when   int64
	period int64 // ticker period; 0 for one-shot timers
	seq    int
	ch     *chanObject
	fn     Value // AfterFunc's function
	active bool
	pos    token.Pos
	fired  int
	// postFired counts its firings after the entry returned (clock.go:
	// background).
	postFired int
	// vc is the clock of the goroutine that created or last reset the
	// timer: its firing happens after that (race.go).
	vc vclock
}

// armedBy records that g created or reset t.
func (t *timer) armedBy(g *goroutine) {
	if g.x.race != nil {
		g.releaseStore(&t.vc)
	}
}

const unixToInternal = 62135596800

// timeValue builds a time.Time value (UTC, no monotonic reading).
func timeValue(ns int64) Value {
	o := newObject(3)
	sec, nsec := ns/1e9, ns%1e9
	o.cells[0] = uintV(uint64(nsec))
	o.cells[1] = intV(sec + unixToInternal)
	return ptrV(o, 0)
}

func timeModel() model {
	return model{funcs: map[string]intrinsicFactory{
		"time.Sleep": simple(func(c *icall) ctrl {
			d := c.args[0].Int()
			x := c.x()
			if d <= 0 {
				if c.yield(pendingOp{kind: opSync, label: "time.Sleep(0)"}) {
					return ctrlYield
				}
				return c.ret(Value{})
			}
			g := c.g
			if g.phase == 0 {
				// the sleep starts: a deadline is set (the clock's
				// next advance may change)
				if c.yield(pendingOp{kind: opTime, write: true, label: "time.Sleep(" + fmtDuration(d) + ")"}) {
					return ctrlYield
				}
				g.phase = 1
			}
			if c.yield(pendingOp{kind: opSleep, wake: x.clock + d}) {
				return ctrlYield
			}
			g.phase = 0
			return c.ret(Value{})
		}),
		"time.now": simple(func(c *icall) ctrl {
			if c.readClock("time.Now") {
				return ctrlYield
			}
			now := c.x().now()
			return c.retN(intV(now/1e9), intV(now%1e9), intV(now-epoch+1))
		}),
		"time.runtimeNow": simple(func(c *icall) ctrl {
			if c.readClock("time.Now") {
				return ctrlYield
			}
			now := c.x().now()
			return c.retN(intV(now/1e9), intV(now%1e9), intV(now-epoch+1))
		}),
		"time.runtimeNano": simple(func(c *icall) ctrl {
			if c.readClock("time.Now") {
				return ctrlYield
			}
			return c.ret(intV(c.x().now() - epoch + 1))
		}),
		"time.runtimeIsBubbled": simple(func(c *icall) ctrl { return c.ret(boolV(false)) }),
		"time.initLocal": func(m *machine, fn *ssa.Function) intrinsic {
			// The local zone is UTC (deterministic; no zoneinfo files).
			return func(c *icall) ctrl {
				if g := m.globalByName("time", "localLoc"); g != nil {
					o := m.global(g)
					if off, ok := m.cellOffset(g.Type().(*types.Pointer).Elem(), "name"); ok {
						o.cells[off] = strV("UTC")
					}
				}
				return c.ret(Value{})
			}
		},
		"time.NewTimer":  func(m *machine, fn *ssa.Function) intrinsic { return m.newTimerIntr(fn, false, false) },
		"time.After":     func(m *machine, fn *ssa.Function) intrinsic { return m.newTimerIntr(fn, false, true) },
		"time.AfterFunc": func(m *machine, fn *ssa.Function) intrinsic { return m.newTimerIntr(fn, false, false) },
		"time.NewTicker": func(m *machine, fn *ssa.Function) intrinsic { return m.newTimerIntr(fn, true, false) },
		"time.Tick":      func(m *machine, fn *ssa.Function) intrinsic { return m.newTimerIntr(fn, true, true) },
		"(*time.Timer).Stop": simple(func(c *icall) ctrl {
			if c.setTimer("time.(*Timer).Stop") {
				return ctrlYield
			}
			t := c.timerOf()
			if t == nil {
				return c.g.throwPlain("time: Stop called on uninitialized Timer")
			}
			was := t.active
			t.active = false
			t.drain()
			return c.ret(boolV(was))
		}),
		"(*time.Timer).Reset": simple(func(c *icall) ctrl {
			if c.setTimer("time.(*Timer).Reset") {
				return ctrlYield
			}
			t := c.timerOf()
			if t == nil {
				return c.g.throwPlain("time: Reset called on uninitialized Timer")
			}
			was := t.active
			t.drain()
			t.when = c.x().clock + c.args[1].Int()
			t.active = true
			c.x().rearm(t)
			t.armedBy(c.g)
			return c.ret(boolV(was))
		}),
		"(*time.Ticker).Stop": simple(func(c *icall) ctrl {
			if c.setTimer("time.(*Ticker).Stop") {
				return ctrlYield
			}
			if t := c.timerOf(); t != nil {
				t.active = false
			}
			return c.ret(Value{})
		}),
		"(*time.Ticker).Reset": simple(func(c *icall) ctrl {
			if c.setTimer("time.(*Ticker).Reset") {
				return ctrlYield
			}
			t := c.timerOf()
			d := c.args[1].Int()
			if d <= 0 {
				return c.g.throwPlain("non-positive interval for Ticker.Reset")
			}
			if t == nil {
				return c.g.throwPlain("time: Reset called on uninitialized Ticker")
			}
			t.period = d
			t.when = c.x().clock + d
			t.active = true
			c.x().rearm(t)
			t.armedBy(c.g)
			return c.ret(Value{})
		}),
	}}
}

// readClock yields at an operation that reads the clock (a scheduling
// point, so that the clock's advances are ordered with it); it reports
// whether the caller must return ctrlYield.
func (c *icall) readClock(label string) bool {
	return c.yield(pendingOp{kind: opTime, label: label})
}

// setTimers yields at an operation that creates, stops or resets a
// timer: it changes what the clock's next advance does.
func (c *icall) setTimers(label string) bool {
	return c.yield(pendingOp{kind: opTime, write: true, label: label})
}

// setTimer is setTimers for a method of a timer or ticker: operations on
// the same timer conflict with each other (a Stop and a Reset do not
// commute).
func (c *icall) setTimer(label string) bool {
	p := pendingOp{kind: opTime, write: true, label: label}
	if o, off, ok := c.ptrArg(0); ok {
		p.obj, p.off = o, off
	}
	return c.yield(p)
}

func (c *icall) timerOf() *timer {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return nil
	}
	t, _ := c.x().side[objKeyOf(o, off)].(*timer)
	return t
}

// drain removes a value the timer sent but nobody received (Go 1.23
// timers: after Stop or Reset no stale value is received).
func (t *timer) drain() {
	if t.ch != nil && t.ch.count > 0 {
		t.ch.pop()
	}
}

// newTimerIntr implements NewTimer, After, AfterFunc, NewTicker, Tick.
func (m *machine) newTimerIntr(fn *ssa.Function, periodic, chanOnly bool) intrinsic {
	afterFunc := fn.Name() == "AfterFunc"
	var objT *rtype
	if !chanOnly {
		objT = m.rtypeOf(fn.Signature.Results().At(0).Type().(*types.Pointer).Elem())
	}
	timeT := m.rtypeOf(m.named("time", "Time"))
	name := "time." + fn.Name()
	return func(c *icall) ctrl {
		if c.setTimers(name) {
			return ctrlYield
		}
		x := c.x()
		d := c.args[0].Int()
		if periodic && d <= 0 {
			if chanOnly {
				return c.ret(Value{})
			}
			return c.g.throwPlain("non-positive interval for NewTicker")
		}
		t := &timer{when: x.clock + max(d, 0), active: true, pos: c.pos}
		if periodic {
			t.period = d
		}
		if afterFunc {
			t.fn = c.args[1]
		} else {
			t.ch = x.newChan(timeT, 1, c.g.newID())
			t.ch.timer = true
		}
		x.addTimer(t)
		t.armedBy(c.g)
		x.noteEntry(c.g, c.pos, traceEntry{note: noteTimer, label: name, d: d})
		if chanOnly {
			return c.ret(chanV(t.ch))
		}
		o := &object{cells: make([]Value, objT.size), shared: true, id: c.g.newID()}
		o.cells[0] = chanV(t.ch)
		if x.side == nil {
			x.side = map[objKey]any{}
		}
		x.side[objKeyOf(o, 0)] = t
		return c.ret(ptrV(o, 0))
	}
}

func (x *execution) addTimer(t *timer) {
	x.timerSeq++
	t.seq = x.timerSeq
	x.timers = append(x.timers, t)
}

// rearm makes a reset timer fire after timers created before the reset
// that are due at the same instant.
func (x *execution) rearm(t *timer) {
	x.timerSeq++
	t.seq = x.timerSeq
	for _, u := range x.timers {
		if u == t {
			return
		}
	}
	x.timers = append(x.timers, t)
}

// activeTimers reports whether a timer is still set.
func (x *execution) activeTimers() bool {
	for _, t := range x.timers {
		if t.active {
			return true
		}
	}
	return false
}

func fmtDuration(d int64) string {
	return formatDuration(d)
}

func formatDuration(d int64) string { return time.Duration(d).String() }
