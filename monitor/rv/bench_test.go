package rv_test

import (
	"runtime"
	"sync"
	"testing"

	"github.com/henceforth-go/henceforth/monitor/internal/gen"
	"github.com/henceforth-go/henceforth/monitor/rv"
)

// The benchmarks feed G(req -> F ack) two events per iteration, req then
// ack, as a server would, and report ns/event. Baselines in the same run: a
// mutex-protected counter (the least a shared, ordered event sink costs),
// and the generated monitor stepped directly.

func newReqAck(b *testing.B, opts ...rv.Option) *rv.Monitor {
	m, err := rv.New("G(req -> F ack)", func(v *rv.Violation) { b.Errorf("unexpected violation:\n%s", v) }, opts...)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// measure runs body, which feeds events*b.N events, and reports ns/event
// of wall time and cpu-ns/event: the CPU time of the whole process per
// event, all goroutines together, which excludes the time other processes
// hold the CPUs.
func measure(b *testing.B, events int, body func()) {
	cpu0, ok := processCPU()
	body()
	cpu1, _ := processCPU()
	total := float64(events * b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/event")
	if ok {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/total, "cpu-ns/event")
	}
}

// lockedCounter is the baseline: a mutex-protected counter.
type lockedCounter struct {
	mu sync.Mutex
	n  int
}

func (c *lockedCounter) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// stepCases are the step benchmarks: each makes the body of an iteration,
// two events.
var stepCases = []struct {
	name string
	body func(b *testing.B) func()
}{
	{"baseline=mutex-counter", func(b *testing.B) func() {
		c := &lockedCounter{}
		return func() { c.add(); c.add() }
	}},
	{"atom", func(b *testing.B) func() {
		m := newReqAck(b)
		req, ack := m.Atom("req"), m.Atom("ack")
		return func() { req.Step(); ack.Step() }
	}},
	{"string", func(b *testing.B) func() {
		m := newReqAck(b)
		return func() { m.Step("req"); m.Step("ack") }
	}},
}

// BenchmarkStep feeds a Monitor from one goroutine (b.Loop) and from
// GOMAXPROCS goroutines (b.RunParallel).
func BenchmarkStep(b *testing.B) {
	for _, parallel := range []bool{false, true} {
		mode := "1-goroutine"
		if parallel {
			mode = "RunParallel"
		}
		for _, c := range stepCases {
			b.Run(mode+"/"+c.name, func(b *testing.B) {
				body := c.body(b)
				b.ReportAllocs()
				measure(b, 2, func() {
					if !parallel {
						for b.Loop() {
							body()
						}
						return
					}
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							body()
						}
					})
				})
			})
		}
	}
}

// BenchmarkGenerated compares the engines on G(unlock -> Y(!unlock S
// lock)), one goroutine: the generated monitor alone (baseline), a Monitor
// with it as engine, and a Monitor stepping the DFA.
func BenchmarkGenerated(b *testing.B) {
	const f = "G(unlock -> Y(!unlock S lock))"
	b.Run("baseline=generated-alone", func(b *testing.B) {
		var g gen.LockPairs
		ok := true
		measure(b, 2, func() {
			for b.Loop() {
				ok = g.StepLetter(1) && g.StepLetter(2) && ok
			}
		})
		if !ok {
			b.Fatal("violated")
		}
	})
	run := func(b *testing.B, opts ...rv.Option) {
		m, err := rv.New(f, func(v *rv.Violation) { b.Errorf("unexpected violation:\n%s", v) }, opts...)
		if err != nil {
			b.Fatal(err)
		}
		lock, unlock := m.Atom("lock"), m.Atom("unlock")
		b.ReportAllocs()
		measure(b, 2, func() {
			for b.Loop() {
				lock.Step()
				unlock.Step()
			}
		})
	}
	b.Run("rv-generated", func(b *testing.B) { run(b, rv.Generated(&gen.LockPairs{})) })
	b.Run("rv-dfa", func(b *testing.B) { run(b) })
	b.Run("rv-generated-unsynchronized", func(b *testing.B) { run(b, rv.Generated(&gen.LockPairs{}), rv.Unsynchronized()) })
	b.Run("rv-dfa-unsynchronized", func(b *testing.B) { run(b, rv.Unsynchronized()) })
}

// BenchmarkRetained feeds 10 M events per iteration and reports the heap
// the Monitor retains afterwards (after a GC, against the heap before it
// was created).
func BenchmarkRetained(b *testing.B) {
	const events = 10_000_000
	for _, c := range []struct {
		name string
		opts []rv.Option
	}{{"default", nil}, {"full-trace", []rv.Option{rv.WithFullTrace()}}} {
		b.Run(c.name, func(b *testing.B) {
			var retained uint64
			for b.Loop() {
				before := heap()
				m := newReqAck(b, c.opts...)
				req, ack := m.Atom("req"), m.Atom("ack")
				for i := 0; i < events/2; i++ {
					req.Step()
					ack.Step()
				}
				retained = heap() - before
				runtime.KeepAlive(m)
			}
			b.ReportMetric(float64(retained), "retained-B")
			b.ReportMetric(float64(retained)/events, "retained-B/event")
		})
	}
}

func heap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
