package report

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// bigPage is a report of n events: a finding whose interleaving has n
// steps over 64 goroutines (locks, channels, go statements, waits), and
// a verdict on a trace of n positions over 8 atoms. The seed is fixed.
func bigPage(n int) *Page {
	const goroutines = 64
	rng := rand.New(rand.NewSource(1))
	f := &Finding{Kind: "deadlock", Test: "example.com/big.TestBig", Message: "all goroutines are asleep - deadlock!", Steps: n, Execution: 1, Replay: "v1:AAAA"}
	kinds := []struct{ kind, op, obj string }{
		{"lock", "sync.(*Mutex).Lock", "sync#%d"}, {"unlock", "sync.(*Mutex).Unlock", "sync#%d"},
		{"send", "send on ch (chan#%d (cap 4))", "chan#%d"}, {"receive", "receive from ch (chan#%d (cap 4))", "chan#%d"},
		{"wait", "sync.(*WaitGroup).Wait", "sync#%d"}, {"other", "Scenario returned", ""},
	}
	f.Trace = append(f.Trace, Step{Goroutine: 1, Op: "start TestBig", Kind: "start", File: "big.go", Line: 1})
	for g := 2; g <= goroutines; g++ {
		f.Trace = append(f.Trace, Step{Goroutine: 1, Op: fmt.Sprintf("go big.worker (goroutine %d)", g), Kind: "go", File: "big.go", Line: 2})
	}
	for i := len(f.Trace); i < n; i++ {
		k := kinds[rng.Intn(len(kinds))]
		obj := rng.Intn(16)
		s := Step{N: i, Goroutine: 1 + rng.Intn(goroutines), Op: k.op, Kind: k.kind, File: "big.go", Line: 10 + rng.Intn(90)}
		if k.obj != "" {
			s.Op = fmt.Sprintf(k.op, obj)
			if k.kind == "lock" || k.kind == "unlock" || k.kind == "wait" {
				s.Op = k.op
			}
			s.Object = fmt.Sprintf(k.obj, obj)
		}
		f.Trace = append(f.Trace, s)
	}
	for g := 1; g <= goroutines; g++ {
		f.Lanes = append(f.Lanes, Lane{Goroutine: g, Name: "big.worker", State: "sync.(*Mutex).Lock", Blocked: true,
			Stack: []Frame{{Func: "example.com/big.worker", File: "big.go", Line: 40}}})
	}
	f.Arrows = arrows(f.Trace)
	p := &Page{Title: "big", Findings: []*Finding{f}, Sources: map[string]map[int]string{"big.go": {}}}
	for l := 1; l < 100; l++ {
		p.Sources["big.go"][l] = fmt.Sprintf("\tline(%d) // of the program", l)
	}
	tr := monitor.NewTrace()
	atoms := []string{"req", "ack", "lock", "unlock", "write", "read", "err", "idle"}
	for i := 0; i < n; i++ {
		var on []string
		for _, a := range atoms {
			if rng.Intn(4) == 0 {
				on = append(on, a)
			}
		}
		tr.Append(on...)
	}
	form := ltl.MustParse("G(req -> F ack) && G(write -> (!unlock S lock)) && G(err -> X idle)")
	res, err := automaton.Check(context.Background(), form, tr, monitor.Options{})
	if err != nil {
		panic(err)
	}
	p.Verdicts = []*Verdict{FromCheck(context.Background(), form, tr, res, ltl.LTLf)}
	return p
}

// BenchmarkLoad measures how long headless Chromium takes to load and draw
// a report (ms/load: from the navigation command until the test sees the
// page drawn, round trips of the DevTools protocol included; ms/drawn:
// from the start of the navigation until the page's script has drawn
// every timeline, measured by the page), to redraw a timeline while scrolling it end to end
// (ms/render, 50 scroll positions), and the page's size (bytes/event).
// The empty page is the baseline: the cost of a tab and a navigation on
// the machine at the time of the run. cpu-ms/load is the CPU time of the
// browser's processes during a load (Linux): the work itself, which the
// other processes of a shared machine do not inflate.
func BenchmarkLoad(b *testing.B) {
	br := browser.Get(b)
	bctx := br.Context()
	for _, n := range []int{0, 1000, 10000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			p := &Page{Title: "empty"}
			if n > 0 {
				p = bigPage(n)
			}
			path := filepath.Join(b.TempDir(), "big.html")
			if err := WriteFile(path, p); err != nil {
				b.Fatal(err)
			}
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := chromedp.NewContext(bctx)
			defer cancel()
			var load, render, draw, cpu time.Duration
			pid := br.Pid()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				cpu0, _ := treeCPU(pid)
				if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path)); err != nil {
					b.Fatal(err)
				}
				if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.getAttribute("data-ready") === "1"`)); err != nil {
					b.Fatal(err)
				}
				load += time.Since(start)
				cpu1, _ := treeCPU(pid)
				cpu += cpu1 - cpu0
				drawn, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.reportDrawnAt`))
				if err != nil {
					b.Fatal(err)
				}
				draw += time.Duration(drawn * float64(time.Millisecond))
				ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(function () {
					var total = 0;
					document.querySelectorAll("section.finding, div.verdict").forEach(function (s) {
						var tl = s.timeline, sc = tl.scroll, t0 = performance.now();
						for (var k = 0; k < 50; k++) { sc.scrollLeft = k * (sc.scrollWidth - sc.clientWidth) / 49; tl.render(); }
						total += (performance.now() - t0) / 50;
					});
					return total / Math.max(document.querySelectorAll("section.finding, div.verdict").length, 1);
				})()`))
				if err != nil {
					b.Fatal(err)
				}
				render += time.Duration(ms * float64(time.Millisecond))
			}
			b.ReportMetric(float64(load.Milliseconds())/float64(b.N), "ms/load")
			b.ReportMetric(float64(draw.Microseconds())/1000/float64(b.N), "ms/drawn")
			if _, ok := treeCPU(pid); ok {
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/load")
			}
			b.ReportMetric(float64(render.Microseconds())/1000/float64(b.N), "ms/render")
			if n > 0 {
				b.ReportMetric(float64(st.Size())/float64(n), "bytes/event")
			}
		})
	}
}
