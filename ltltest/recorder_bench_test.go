package ltltest_test

import (
	"sync"
	"testing"

	"github.com/henceforth-go/henceforth/ltltest"
)

// The Recorder benchmarks feed G(req -> F ack) as the README's server
// would, req then ack, two events per iteration, and report ns/event; the
// baseline in the same run is a mutex-protected counter, the least a
// shared, ordered event sink costs. (monitor/rv's benchmarks add CPU time
// per event and the generated engines.)

func recorderEvents(b *testing.B, events int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events*b.N), "ns/event")
}

func BenchmarkRecorder(b *testing.B) {
	for _, parallel := range []bool{false, true} {
		name := "1-goroutine"
		if parallel {
			name = "RunParallel"
		}
		loop := func(b *testing.B, body func()) {
			b.ReportAllocs()
			if parallel {
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						body()
					}
				})
			} else {
				for b.Loop() {
					body()
				}
			}
			recorderEvents(b, 2)
		}
		b.Run(name+"/baseline=mutex-counter", func(b *testing.B) {
			var mu sync.Mutex
			n := 0
			loop(b, func() {
				mu.Lock()
				n++
				mu.Unlock()
				mu.Lock()
				n++
				mu.Unlock()
			})
		})
		b.Run(name+"/atom", func(b *testing.B) {
			m := ltltest.NewMonitor(b, "G(req -> F ack)")
			req, ack := m.Atom("req"), m.Atom("ack")
			loop(b, func() {
				req.Step()
				ack.Step()
			})
		})
		b.Run(name+"/string", func(b *testing.B) {
			m := ltltest.NewMonitor(b, "G(req -> F ack)")
			loop(b, func() {
				m.Step("req")
				m.Step("ack")
			})
		})
	}
}
