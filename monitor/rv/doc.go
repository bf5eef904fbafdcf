// Package rv monitors a temporal property inside a running program: the
// program reports events and state changes as they happen, and a Monitor
// checks the property online, in constant memory, at the cost of a table
// lookup per event, and calls back with a report when the property is
// violated. It is what ltltest.NewMonitor runs under a test, usable without
// package testing, in production code.
//
//	m, err := rv.New("G(req -> F ack) && G(write -> locked)", func(v *rv.Violation) {
//		log.Print(v) // formula, where, why, and the last events
//	})
//	req, ack := m.Atom("req"), m.Atom("ack") // resolve once
//	locked := m.State("locked")
//	…
//	req.Step()          // an event at which req holds
//	locked.Set(true)    // holds at every event until set false
//	m.Step("req", "x")  // the same, by name (a map lookup per atom)
//	…
//	m.Finish() // the end of the run: decides what is still open
//
// # Engines
//
// By default a Monitor steps the formula's minimal DFA (package automaton,
// past operators translated exactly) once per event: it reports a violation
// at the first event after which no continuation can satisfy the formula,
// and stops checking once every continuation satisfies it. Generated
// monitors (monitor.Generate, ltl gen) are engines too: Generated plugs one
// in, for G(φ) with φ past or propositional.
//
// # Memory
//
// A Monitor keeps the engine's state, the atoms' names, and a ring of the
// last events (WithWindow; DefaultWindow by default) with the DFA state
// before each, so its memory does not grow with the run. A report shows the
// last events and explains the verdict from the DFA state at the start of
// the ring and the events in it: the events before the ring are stood in
// for by a shortest trace that leaves the DFA in the same state, which
// every continuation treats alike. WithFullTrace keeps every event instead
// (8 bytes each), for an explanation over the whole run and for Trace.
//
// # Concurrency
//
// Every method is safe for concurrent use (unless Unsynchronized). Events
// are ordered by one critical section per event: the order in which
// concurrent Steps enter it is the order of the trace. The callback given
// to New runs once, on the goroutine whose event (or Finish) revealed the
// violation, outside the critical section: it may call the Monitor, and
// events that other goroutines add meanwhile are recorded, not checked. To
// receive verdicts on a channel, send on it from the callback; Verdict
// polls.
//
// # Limits
//
//   - The DFA engine needs ltl.LTLf semantics and a DFA of at most
//     MaxStates states; otherwise New fails unless WithFullTrace, and then
//     checks the formula's G(past) conjuncts online and the rest at Finish.
//   - A Monitor tracks at most 64 atoms (monitor.MaxAtoms): the formula's
//     atoms first, then others in the order they are first used. Further
//     atoms are accepted and ignored (counted in Stats).
//   - A generated engine's state is saved every half window (a copy of the
//     struct), and a report stands in for the events before the last save
//     with a shortest trace that leads the generated monitor to that state.
//     When the search cannot (an engine that is not a pointer to a
//     comparable struct, more than 12 atoms, or more than 65536 states), the
//     explanation is computed from the kept events alone and says so, or is
//     missing when those events do not show the violation.
package rv
