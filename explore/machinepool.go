package explore

import (
	"sync"
	"time"

	"golang.org/x/tools/go/ssa"
)

// Machine reuse across explorations.
//
// A machine compiles every function an execution reaches and snapshots
// package initialization (snapshot.go); both are paid again by each new
// machine. The explorations of a Program (one per test, by ltl explore
// and ltltest) therefore take their machines from a small pool of idle
// machines and return them when done, so consecutive tests of a package
// compile their shared code and run its initializers once.
//
// A machine is reused only by an exploration with the same machineKey:
// everything that affects how the machine compiles code (the options read
// through machine.opts: Shared, NoRaces, MapOrders) or how
// its first execution initializes the packages (the entry package, Seed,
// the step, loop and timer bounds, fairness), which the snapshot, the
// broken packages and their warnings depend on. A machine whose state
// depends on more is not pooled: one with an observer (specs, Find: the
// compiled code calls it), a symbolic or Inputs exploration, a package
// whose initialization failed (breakPackage), or one whose last execution
// had an unsupported or internal finding. A snapshot carrying model state
// (the math/rand generator is seeded by the execution that took it) is
// dropped when the machine is reused, so the new exploration's first
// execution takes it again. Everything else a machine carries across
// executions (compiled code, runtime types, trampolines, the race
// detector's sites and generation counter, buffers) is independent of the
// exploration, so an exploration's report is the same with and without
// reuse.

// maxIdleMachines bounds the idle machines a Program keeps (the oldest
// goes first).
const maxIdleMachines = 8

// machineKey is what a machine's compiled code and initialization
// snapshot depend on (see above); machines are reused only among
// explorations with equal keys. Symbolic mode is not in it: symbolic
// explorations are not pooled (poolKey).
type machineKey struct {
	pkg       *ssa.Package
	seed      int64
	shared    bool
	noRaces   bool
	unfair    bool
	mapOrders MapOrder
	maxSteps  int
	maxLoop   int
	earlyFire time.Duration
}

// machinePool holds a Program's idle machines. It is safe for concurrent
// use. Invariant: every machine in idle has no current execution (m.x ==
// nil) and a key equal to its entry's.
type machinePool struct {
	mu     sync.Mutex
	off    bool // no reuse: every acquire makes a new machine
	idle   []idleMachine
	reused int // acquires served by an idle machine (for tests)
}

type idleMachine struct {
	key machineKey
	m   *machine
}

// poolKey returns the key of a machine for exploring e with opts, or
// false if such a machine must not be reused.
func poolKey(e *Entry, opts *Options) (machineKey, bool) {
	if e == nil || e.Fn == nil || opts.observer != nil || opts.symbolic || opts.Inputs != nil {
		return machineKey{}, false
	}
	mo := opts.MapOrders
	if mo == "" {
		mo = MapOffsets
	}
	return machineKey{
		pkg:       e.Fn.Pkg,
		seed:      opts.Seed,
		shared:    opts.Shared,
		noRaces:   opts.NoRaces,
		unfair:    opts.unfair,
		mapOrders: mo,
		maxSteps:  opts.maxSteps(),
		maxLoop:   opts.maxLoop(),
		earlyFire: opts.EarlyFire,
	}, true
}

// acquireMachine returns a machine for exploring e with opts: an idle one
// with the same key if there is one, else a new one. Return it with
// releaseMachine.
func (p *Program) acquireMachine(e *Entry, opts *Options) *machine {
	key, ok := poolKey(e, opts)
	if !ok {
		return newMachine(p, opts)
	}
	pool := &p.machines
	pool.mu.Lock()
	var m *machine
	if !pool.off {
		for i := len(pool.idle) - 1; i >= 0; i-- {
			if pool.idle[i].key == key {
				m = pool.idle[i].m
				pool.idle = append(pool.idle[:i], pool.idle[i+1:]...)
				pool.reused++
				break
			}
		}
	}
	pool.mu.Unlock()
	if m == nil {
		m = newMachine(p, opts)
		m.poolKey, m.pooled = key, true
		return m
	}
	m.opts = opts
	m.dropModelSnapshots()
	return m
}

// releaseMachine returns a machine acquired with acquireMachine, after
// its last execution was released; the caller must not use it afterwards.
func (p *Program) releaseMachine(m *machine) {
	if !m.pooled || m.spoiled || len(m.broken) != 0 || m.x != nil || m.sym != nil {
		return
	}
	pool := &p.machines
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if pool.off {
		return
	}
	m.opts = nil // the exploration's options (its context) are not kept
	pool.idle = append(pool.idle, idleMachine{m.poolKey, m})
	if len(pool.idle) > maxIdleMachines {
		pool.idle = append(pool.idle[:0], pool.idle[1:]...)
	}
}

// dropModelSnapshots forgets the initialization snapshots that carry
// model states: they were taken by an execution of an earlier
// exploration, with its seed.
func (m *machine) dropModelSnapshots() {
	for pkg, s := range m.snaps {
		if s != nil && s.hasModels() {
			delete(m.snaps, pkg)
			delete(m.snapTried, pkg)
			delete(m.snapWhy, pkg)
		}
	}
}

// hasModels reports whether the snapshot carries a model's state.
func (s *snapshot) hasModels() bool {
	for _, st := range s.models {
		if st != nil {
			return true
		}
	}
	return false
}
