package explore

import (
	"slices"
)

// The virtual clock. Time starts at 2000-01-01 00:00:00 UTC (as in
// testing/synctest). The clock's advance is a transition of its own (the
// clock pseudo-goroutine's), which moves the clock to the next deadline
// that has an effect — a sleeper's, an AfterFunc timer's, that of a
// timer whose channel has room for a value, or the deadline of a blocked
// net operation (model_net.go) — and fires the timers due. It
// is enabled
//
//   - when no goroutine can move except by polls of stalled goroutines
//     (fair.go: they have seen every change since their last read): time
//     passes while everything waits for it, as with testing/synctest;
//   - at any scheduling point, when that deadline is at most
//     Options.EarlyFire away: real time passes between any two steps of a
//     Go program, so a short timer may fire, or a short sleep end, while
//     other goroutines run (a tick arrives while a goroutine holds a
//     lock). Longer ones are assumed not to expire while the program can
//     still make progress (the assumption testing/synctest makes for all
//     of them). So are early advances that would take the clock more than
//     Options.EarlyFire ahead in all since the last advance at which
//     nothing else could move (ahead): a stretch of computation between
//     two waits for time takes at most that long, however many steps it
//     has (a 1ms ticker does not make each of a hundred steps last 1ms).
//
// The scheduler chooses between the clock's advance and the goroutines'
// transitions as between goroutines; the strategies try it last (it is
// the last enabled transition). Its event conflicts with the operations
// that read the clock, change the timers or receive from a timer's
// channel, so partial-order reduction explores the earlier firings that
// matter.
//
// time.Now reads the clock plus one nanosecond per advance so far (now):
// real time passes while a program waits, so a deadline computed from
// Now before a wait that lasted until it is strictly in the past after
// the wait (expiry := Now().Add(d); Sleep(d); Now().After(expiry)), as
// in real runs, while timers still fire exactly at their deadlines. The
// offset counts advances, not steps or calls: two goroutines' reads of
// the clock commute (partial-order reduction explores one order of
// them), and a count of steps or of calls would make their values
// depend on that order.
//
// After the entry returned, the clock advances only while a goroutine of
// the test could still be woken by it and has not been yet (background):
// once every goroutine left is a background loop, blocked only on a
// timer again after a wake-up (a cache's janitor ticking, a sleeping
// poller), the execution ends and those goroutines are not leaks unless
// Options.ReportTimerLeaks asks. What such a loop would do later is not
// explored: in go test it runs, if at all, during later tests, until the
// process exits.
//
// Invariants: the clock never goes back; an advance jumps to the
// earliest deadline that has an effect and fires the timers due by then
// in deadline order, then creation order; Sleep(d) returns no earlier
// than d after it was called; a ticker whose channel is full drops its
// ticks, as Go's does; now() never goes back and increases strictly at
// every advance; now() - clock is the number of advances so far.

// clockKey is the clock's goroutine key (transition identity across
// executions, as goroutine keys are).
const clockKey = 0xc10c_c10c_c10c_c10c

// clockObj is the object the clock's events conflict on.
var clockObj = evKey{id: clockKey, off: -4}

// clockG returns the execution's clock pseudo-goroutine: it never runs
// code; its pending operation is always the advance (opClock), enabled
// when nextDeadline says so. It is not in x.gs.
func (x *execution) clockG() *goroutine {
	if x.clk == nil {
		x.clk = &goroutine{x: x, key: clockKey, spawnEv: -1, pend: pendingOp{kind: opClock, label: "clock"}}
	}
	return x.clk
}

// postEntryAdvances bounds clock advances after the entry returned (a
// ticker loop left running next to a goroutine blocked forever would
// advance forever).
const postEntryAdvances = 100

// now is the virtual time time.Now reports: the clock plus one
// nanosecond per advance so far.
func (x *execution) now() int64 { return x.clock + x.advances }

// nextDeadline returns the time the clock's next advance moves to: the
// earliest deadline whose firing has an effect (a sleeper wakes, an
// AfterFunc function starts, a value is sent on a timer's channel that
// has room). It reports false if the clock cannot advance now: there is
// no such deadline, or goroutines can move and the advance would be
// early: the deadline is farther than Options.EarlyFire, the test has
// returned (what runs after it returns is checked for leaks and late
// calls, not for timing), or a goroutine starves (starving). After the
// entry returned it cannot advance once only background loops are left
// (background), nor more than postEntryAdvances times.
func (x *execution) nextDeadline(ts []transition) (int64, bool) {
	if x.entryDone && x.postAdvances >= postEntryAdvances {
		return 0, false
	}
	const never = int64(1<<63 - 1)
	next := never
	for _, g := range x.gs {
		if !g.done && g.pend.kind == opSleep && g.pend.wake > x.clock {
			next = min(next, g.pend.wake)
		}
	}
	for _, t := range x.timers {
		if t.active && t.effective() {
			next = min(next, t.when)
		}
	}
	if d := x.netDeadline(); d != 0 {
		next = min(next, d)
	}
	if next == never {
		return 0, false
	}
	if x.canMove(ts) {
		if slack := x.opts.earlyFire(); slack < 0 || x.ahead+next-x.clock > slack || x.entryDone || x.starving(ts) {
			return 0, false
		}
	} else if x.entryDone && x.background() {
		return 0, false
	}
	return max(next, x.clock), true
}

// background reports whether, after the entry returned, only background
// loops are left: every goroutine of the test still running (not started
// by package initialization, not in Options.IgnoreLeaks) waits only for
// timers (timerBlocked) and has been woken by the clock since the entry
// returned, and every AfterFunc timer still set has fired since. A
// goroutine that waits for a timer but has not been woken since is
// woken first (a sleep before a late t.Log, a one-shot timer); one
// blocked on anything else keeps the clock going, up to
// postEntryAdvances, in case a loop wakes it.
func (x *execution) background() bool {
	for _, g := range x.gs {
		if g.done || g.fromInit || g.clockWakes > 0 && x.timerBlocked(g) {
			continue
		}
		if !x.ignoredLeak(g) {
			return false
		}
	}
	for _, t := range x.timers {
		if t.active && t.fn.p != nil && t.postFired == 0 {
			return false
		}
	}
	return true
}

// timerBlocked reports whether g is blocked on something only the clock
// can end: a sleep, a receive from the channel of a timer still set, or a
// blocking select with such a receive among its cases.
func (x *execution) timerBlocked(g *goroutine) bool {
	p := &g.pend
	switch p.kind {
	case opSleep:
		return true
	case opRecv:
		return x.timerSet(p.ch)
	case opSelect:
		if !p.blocking {
			return false
		}
		for _, c := range p.cases {
			if !c.send && x.timerSet(c.ch) {
				return true
			}
		}
	}
	return false
}

// timerSet reports whether ch is the channel of a timer that is still
// set (an advance can send on it).
func (x *execution) timerSet(ch *chanObject) bool {
	if ch == nil || !ch.timer {
		return false
	}
	for _, t := range x.timers {
		if t.ch == ch && t.active {
			return true
		}
	}
	return false
}

// timerReady reports whether the clock ended g's wait for a timer: its
// sleep is over, or a timer's channel it waits on holds a value.
func (x *execution) timerReady(g *goroutine) bool {
	p := &g.pend
	switch p.kind {
	case opSleep:
		return p.wake <= x.clock
	case opRecv:
		return p.ch != nil && p.ch.timer && p.ch.count > 0
	case opSelect:
		for _, c := range p.cases {
			if !c.send && c.ch != nil && c.ch.timer && c.ch.count > 0 {
				return true
			}
		}
	}
	return false
}

// starving reports whether a goroutine that could move at the clock's
// last early advance has not moved since and still can: time does not
// run ahead of a runnable goroutine by more than one early advance
// (otherwise a ticker could fire any number of times between two steps
// of a goroutine, each a different execution).
func (x *execution) starving(ts []transition) bool {
	for _, g := range x.starved {
		for _, t := range ts {
			if t.g == g || t.partner == g {
				return true
			}
		}
	}
	return false
}

// noteAdvance records, at an advance of the clock, the goroutines that
// could move instead (starving): none if the advance was not early.
func (x *execution) noteAdvance(ts []transition) {
	x.starved = x.starved[:0]
	for _, t := range ts {
		if t.g != x.clk && !t.spinning() {
			x.starved = appendNew(x.starved, t.g)
			if t.partner != nil {
				x.starved = appendNew(x.starved, t.partner)
			}
		}
	}
}

func appendNew(gs []*goroutine, g *goroutine) []*goroutine {
	if slices.Contains(gs, g) {
		return gs
	}
	return append(gs, g)
}

// moved records that g took a step: it no longer starves.
func (x *execution) moved(g *goroutine) {
	for i, h := range x.starved {
		if h == g {
			x.starved = append(x.starved[:i], x.starved[i+1:]...)
			return
		}
	}
}

// canMove reports whether a goroutine can move other than by a failed
// poll of a stalled goroutine (fair.go): a spinning goroutine that may
// see a change since its last read can move.
func (x *execution) canMove(ts []transition) bool {
	for _, t := range ts {
		if !t.stalled() {
			return true
		}
	}
	return false
}

// effective reports whether firing the timer now would change something:
// its function runs, or its channel receives a value.
func (t *timer) effective() bool {
	return t.fn.p != nil || t.ch.count < t.ch.cap
}

// clockPending reports whether the clock may still advance later in the
// execution: a timer is set or a goroutine sleeps.
func (x *execution) clockPending() bool {
	for _, g := range x.gs {
		if !g.done && g.pend.kind == opSleep {
			return true
		}
	}
	return x.activeTimers() || x.netDeadline() != 0
}

// advance is the clock's transition: it moves the clock to the given time
// (nextDeadline's) and fires every timer due by then, earliest deadline
// first. A timer whose channel is full drops its value.
func (x *execution) advance(to int64) {
	x.advances++
	x.changes++
	if x.entryDone {
		x.postAdvances++
	}
	if len(x.starved) == 0 {
		x.ahead = 0
	}
	if to > x.clock {
		if len(x.starved) > 0 {
			x.ahead += to - x.clock
		}
		x.clock = to
	}
	live := x.timers[:0]
	var due []*timer
	for _, t := range x.timers {
		if !t.active {
			continue
		}
		live = append(live, t)
		if t.when <= x.clock {
			due = append(due, t)
		}
	}
	clear(x.timers[len(live):])
	x.timers = live
	slices.SortFunc(due, func(a, b *timer) int {
		if a.when != b.when {
			return int(min(max(a.when-b.when, -1), 1))
		}
		return a.seq - b.seq
	})
	for _, t := range due {
		x.fire(t)
	}
	if x.entryDone {
		for _, g := range x.gs {
			if !g.done && x.timerReady(g) {
				g.clockWakes++
			}
		}
	}
}

// fire delivers a due timer: it starts an AfterFunc function, or sends
// the time on the timer's channel if it has room. A ticker's next
// deadline is the first multiple of its period after the clock (ticks
// that fell behind are dropped, as Go's tickers drop them).
func (x *execution) fire(t *timer) {
	if t.period > 0 {
		t.when += t.period
		if t.when <= x.clock {
			t.when += t.period * ((x.clock-t.when)/t.period + 1)
		}
	} else {
		t.active = false
	}
	if t.fn.p != nil {
		g := x.spawn(nil, t.fn.closure(), nil, t.pos)
		g.key = mix(0x7173e5, uint64(t.seq)<<20|uint64(t.fired))
		if x.race != nil {
			g.vc.join(t.vc)
		}
		t.fired++
		if x.entryDone {
			t.postFired++
		}
		return
	}
	if t.ch.count < t.ch.cap {
		if x.race != nil {
			t.ch.slot((t.ch.head + t.ch.count) % t.ch.cap).set(t.vc)
		}
		t.ch.push(timeValue(x.now()))
	}
}
