package ltltest_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/monitor"
)

// traceArtifactT is a fakeT with an artifact directory and a log, as *testing.T
// has.
type traceArtifactT struct {
	*fakeT
	dir  string
	logs []string
}

func (a *traceArtifactT) ArtifactDir() string { return a.dir }
func (a *traceArtifactT) Logf(format string, args ...any) {
	a.logs = append(a.logs, fmt.Sprintf(format, args...))
}

func TestMonitorAtomFastPath(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "G(write -> locked)")
	locked, write := m.State("locked"), m.Atom("write")
	locked.Set(true)
	write.Step()
	locked.Set(false)
	m.Commit()
	assert.False(t, ft.failed, ft.output())
	write.Step()
	require.True(t, ft.failed)
	assert.Contains(t, ft.output(), "violated at event 2")
	assert.Contains(t, ft.output(), "> 2: {write}")
	require.NotNil(t, m.Violation())
	assert.Equal(t, 2, m.Violation().At)
	ft.end()
	assert.Len(t, ft.errors, 1)
}

func TestMonitorBoundedReportAfterTheWindow(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "G(req -> X(!req U ack))", ltltest.WithWindow(16))
	req, ack, idle := m.Atom("req"), m.Atom("ack"), m.Atom("idle")
	for i := 0; i < 1000; i++ {
		req.Step()
		ack.Step()
	}
	req.Step()
	for i := 0; i < 100; i++ {
		idle.Step()
	}
	req.Step() // event 2101: a second request before the first is answered
	require.True(t, ft.failed)
	for _, want := range []string{
		"ltltest: property violated at event 2101",
		"verdict: violated at event 2101 (trace of 2102 events)",
		"why (from the kept events 2086–2101 after ~0",
		"req is true at ~",
		"  > 2101: {req}",
	} {
		assert.Contains(t, ft.output(), want)
	}
	assert.False(t, m.Complete())
	assert.Equal(t, 16, m.Trace().Len())

	// The kept events are not the trace: checking them as one would lie.
	ft2 := &fakeT{}
	assert.False(t, ltltest.Holds(ft2, "F ack", m))
	assert.Contains(t, ft2.output(), "the recorder no longer has the whole trace")
}

func TestMonitorFullTraceSavedOnFailure(t *testing.T) {
	at := &traceArtifactT{fakeT: &fakeT{}, dir: t.TempDir()}
	m := ltltest.NewMonitor(at, "G(req -> F ack)", ltltest.WithFullTrace(), ltltest.WithWindow(8))
	req, ack := m.Atom("req"), m.Atom("ack")
	for i := 0; i < 50; i++ {
		req.Step()
		ack.Step()
	}
	req.Step()
	at.end()
	require.True(t, at.failed)
	assert.Contains(t, at.output(), "violated by the end of the test")
	require.Len(t, at.logs, 1)
	path := filepath.Join(at.dir, "ltltest-trace.jsonl")
	assert.Contains(t, at.logs[0], "the whole trace (101 events) is in "+path)
	assert.Contains(t, at.logs[0], `ltl check -f "G(req -> F ack)"`)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	tr, err := monitor.ReadTrace(f, path)
	require.NoError(t, err)
	assert.Equal(t, 101, tr.Len())
	ft := &fakeT{}
	assert.True(t, ltltest.Violated(ft, "G(req -> F ack)", tr), "the saved trace replays to the same verdict")
	assert.True(t, m.Complete())
}

func TestMonitorPassingTestSavesNothing(t *testing.T) {
	at := &traceArtifactT{fakeT: &fakeT{}, dir: t.TempDir()}
	m := ltltest.NewMonitor(at, "G(req -> F ack)", ltltest.WithFullTrace())
	m.Step("req")
	m.Step("ack")
	at.end()
	assert.False(t, at.failed, at.output())
	entries, err := os.ReadDir(at.dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestMonitorAgreesWithHolds: on random formulas and traces, a Recorder
// with a small window fails exactly when Holds does on the whole trace.
func TestMonitorAgreesWithHolds(t *testing.T) {
	seed := uint64(1127)
	rng := rand.New(rand.NewPCG(seed, 0))
	atoms := []string{"p", "q", "r"}
	for k := 0; k < 60; k++ {
		f := ltl.Random(rng, ltl.RandomConfig{Atoms: atoms, Ops: ltl.OpsOf(ltl.Mixed), MaxDepth: 4})
		trace := ltl.RandomTrace(rng, atoms, 30)
		ft := &fakeT{}
		m := ltltest.NewMonitor(ft, f.String(), ltltest.WithWindow(8))
		for _, e := range trace {
			m.Step(e...)
		}
		ft.end()
		want := ltltest.Holds(&fakeT{}, f.String(), trace)
		assert.Equal(t, want, !ft.failed, "seed %d, case %d: %s on %v\n%s", seed, k, f, trace, ft.output())
	}
}

func TestMonitorGeneratedEngine(t *testing.T) {
	ft := &fakeT{}
	m := ltltest.NewMonitor(ft, "G(unlock -> Y(!unlock S lock))", ltltest.WithGenerated(&lockPairs{}))
	m.Step("lock")
	m.Step("unlock")
	assert.False(t, ft.failed, ft.output())
	m.Step("unlock")
	require.True(t, ft.failed)
	assert.Contains(t, ft.output(), "violated at event 2")
	assert.Contains(t, ft.output(), "why:")

	ft = &fakeT{}
	ltltest.NewMonitor(ft, "F done", ltltest.WithGenerated(&lockPairs{}))
	assert.Contains(t, ft.output(), "ltltest: cannot monitor formula")
}

// lockPairs is what ltl gen writes for G(unlock -> Y(!unlock S lock))
// (monitor/internal/gen/lock_pairs.go, which this package cannot import).
type lockPairs struct{ pre2 uint8 }

func (m *lockPairs) StepLetter(l uint64) bool {
	lock, unlock := uint8(l)&1, uint8(l>>1)&1
	now2 := lock | (unlock^1)&m.pre2
	now0 := (unlock ^ 1) | m.pre2
	m.pre2 = now2
	return now0 == 1
}
