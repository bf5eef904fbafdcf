package explore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// firstTwoExecutions runs two executions of pkg.test on a new machine and
// returns it with their CPU times (the first runs the package
// initializers, the second restores their snapshot if one was taken).
func firstTwoExecutions(t testing.TB, pkg, test string) (*machine, *Entry, [2]time.Duration) {
	p := loadPatterns(t, "./testdata/"+pkg)
	e, err := p.Func(testdataPath + "/" + pkg + "." + test)
	require.NoError(t, err)
	o := Options{Strategy: DFS}
	m := newMachine(p, &o)
	var d [2]time.Duration
	for i := range d {
		t0 := processCPU()
		x := newExecution(m, e, &o, &dfsChooser{bound: -1}, i+1, 0)
		x.run()
		d[i] = processCPU() - t0
		require.Empty(t, x.findings)
		x.release()
	}
	return m, e, d
}

// TestInitSnapshotBlockers: the machine records what prevented a
// snapshot of an entry package's initialization.
func TestInitSnapshotBlockers(t *testing.T) {
	m, e, _ := firstTwoExecutions(t, "heavyinit", "Test01")
	assert.NotNil(t, m.snaps[e.Fn.Pkg])
	assert.Empty(t, m.snapWhy)

	m, e, _ = firstTwoExecutions(t, "initleak", "TestUsesWorker")
	assert.Nil(t, m.snaps[e.Fn.Pkg])
	assert.Equal(t, "goroutines started by initialization", m.snapWhy[e.Fn.Pkg])
}

// BenchmarkInitSnapshot measures package initialization against the
// explorations of a package with a costly one (testdata/heavyinit: 10
// tests, explored twice each per iteration). Metrics: wall ms per
// exploration (DPOR, complete), and the CPU ms of one machine's first
// execution (initializers, then the snapshot taken) and second (the
// snapshot restored): every exploration pays the first once per worker.
func BenchmarkInitSnapshot(b *testing.B) {
	p := loadPatterns(b, "./testdata/heavyinit")
	var entries []*Entry
	for i := 1; i <= 10; i++ {
		e, err := p.Func(fmt.Sprintf("%s/heavyinit.Test%02d", testdataPath, i))
		if err != nil {
			b.Fatal(err)
		}
		entries = append(entries, e, e)
	}
	var first, second, total time.Duration
	explorations := 0
	for b.Loop() {
		_, _, d := firstTwoExecutions(b, "heavyinit", "Test01")
		first += d[0]
		second += d[1]
		t0 := time.Now()
		for _, e := range entries {
			r, err := p.Explore(context.Background(), e, Options{Strategy: DPOR})
			if err != nil || r.Verdict() != "pass" {
				b.Fatalf("%s: %v %s %v", e.Name, err, r.Verdict(), r.Findings)
			}
			explorations++
		}
		total += time.Since(t0)
	}
	b.ReportMetric(float64(total)/1e6/float64(explorations), "ms/exploration")
	b.ReportMetric(float64(first)/1e6/float64(b.N), "first-exec-cpu-ms")
	b.ReportMetric(float64(second)/1e6/float64(b.N), "second-exec-cpu-ms")
}
