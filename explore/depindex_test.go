package explore

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomEvents makes n events of g goroutines over a few objects, with
// every field depends reads: partners, joins, select also-sets, the
// refinement's labels (ind), barriers, pseudo-events, spawners.
func randomEvents(r *rand.Rand, n, g int) []event {
	kinds := []opKind{opSend, opRecv, opSelect, opClose, opLock, opUnlock, opRLock, opRUnlock, opWAnnounce, opWAcquire,
		opWUnlock, opWGAdd, opWGWait, opOnce, opSleep, opJoin, opShared, opAtomic, opEvent}
	obj := func() evKey {
		if r.IntN(8) == 0 {
			return evKey{}
		}
		return evKey{id: uint64(1 + r.IntN(4)), off: r.IntN(2)}
	}
	started := map[uint64]bool{}
	evs := make([]event, n)
	for j := range evs {
		e := event{g: uint64(1 + r.IntN(g)), obj: obj(), kind: kinds[r.IntN(len(kinds))], write: r.IntN(2) == 0, spawner: -1}
		if r.IntN(5) == 0 {
			if p := uint64(1 + r.IntN(g)); p != e.g {
				e.partner = p
			}
		}
		if r.IntN(10) == 0 {
			e.join = uint64(1 + r.IntN(g))
		}
		for range r.IntN(3) {
			e.also = append(e.also, obj())
		}
		if r.IntN(2) == 0 {
			// labels as independence.go gives them, and any
			switch e.kind {
			case opWGAdd:
				e.ind.kind = []indepKind{indWGDec, indWGInc, indWGZero, indWGWake}[r.IntN(4)]
			case opWGWait:
				e.ind.kind = indWGWait
			case opSend, opRecv:
				e.ind = indep{kind: indChan, slot: int32(r.IntN(3))}
			default:
				e.ind = indep{kind: indepKind(r.IntN(int(indWGWake) + 1)), slot: int32(r.IntN(3))}
			}
		}
		e.barrier = r.IntN(40) == 0
		e.pseudo = r.IntN(20) == 0
		if !started[e.g] {
			started[e.g] = true
			if j > 0 && r.IntN(2) == 0 {
				e.spawner = r.IntN(j)
			}
		}
		evs[j] = e
	}
	return evs
}

// racesQuadratic is the race loop analyze ran before races: every pair,
// with a cubic test of directness.
func racesQuadratic(h *hb, real int, race func(i, j int)) {
	evs := h.evs
	for j := 1; j < len(evs); j++ {
		ej := &evs[j]
		if ej.barrier {
			continue
		}
		for i := min(j, real) - 1; i >= 0; i-- {
			ei := &evs[i]
			if ei.barrier || sameThread(ei, ej) || !dependent(ei, ej) {
				continue
			}
			direct := true
			for k := i + 1; k < min(j, real); k++ {
				if (dependent(&evs[k], ej) || sameThread(&evs[k], ej)) && h.before(i, k) {
					direct = false
					break
				}
			}
			if direct {
				race(i, j)
			}
		}
	}
}

// TestDepIndexEquivalence checks that the indexed happens-before and race
// computations (depindex.go) give exactly the quadratic ones: the same
// vector clocks, the same races in the same order.
func TestDepIndexEquivalence(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	trials := 3000
	if testing.Short() {
		trials = 600
	}
	for trial := range trials {
		n, g := 1+r.IntN(60), 1+r.IntN(5)
		evs := randomEvents(r, n, g)
		want, got := newHBWith(evs, dependent), newHBIndexed(evs)
		require.Equal(t, want.gidx, got.gidx, "trial %d", trial)
		require.Equal(t, want.seq, got.seq, "trial %d", trial)
		require.Equal(t, want.vc, got.vc, "trial %d", trial)
		real := n - r.IntN(min(n, 4))
		var wantR, gotR []string
		racesQuadratic(want, real, func(i, j int) { wantR = append(wantR, fmt.Sprint(i, j)) })
		require.True(t, races(got, real, func(i, j int) { gotR = append(gotR, fmt.Sprint(i, j)) }, nil))
		require.Equal(t, wantR, gotR, "trial %d: %d events, %d real", trial, n, real)
	}
}

// TestBlockedCandidatesEquivalence checks the indexed searches of
// blockedRaces (lastCandidate, candidatesIn) against the scans they
// replace, on random events, operations and spans.
func TestBlockedCandidatesEquivalence(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	trials := 30000 // a chain search that stops too early shows after about 10000
	if testing.Short() {
		trials = 2000
	}
	for trial := range trials {
		n, g := 1+r.IntN(60), 1+r.IntN(5)
		evs := randomEvents(r, n+1, g)
		v := evs[n] // the blocked operation: an event that did not happen
		evs = evs[:n]
		real := n - r.IntN(min(n, 4))
		h := newHBIndexed(evs)
		l := newDepLists(h, real)
		q := uint64(1 + r.IntN(g))
		v.g, v.partner = q, 0
		start := r.IntN(real + 1)
		end := start + r.IntN(real-start+1)
		prev := -1 // q's last event before start, by a scan
		for k := start - 1; k >= 0; k-- {
			if evs[k].g == q || evs[k].partner == q {
				prev = k
				break
			}
		}
		if prev < 0 && v.spawner >= 0 && v.spawner < start {
			prev = v.spawner
		}
		require.Equal(t, prev, prevOf(h, l.comp, q, start, v.spawner), "trial %d", trial)
		gr := goRace{evs: evs, h: h, q: q, v: &v, prev: prev}
		want := -1
		for j := start - 1; j >= 0; j-- {
			if gr.candidate(j) {
				want = j
				break
			}
		}
		require.Equal(t, want, gr.lastCandidate(l, start), "trial %d", trial)
		var wantIn, gotIn []int
		for j := start; j < end; j++ {
			if gr.candidate(j) {
				wantIn = append(wantIn, j)
			}
		}
		gr.candidatesIn(l, start, end, func(j int) { gotIn = append(gotIn, j) })
		require.Equal(t, wantIn, gotIn, "trial %d", trial)
	}
}

// TestRacesStopsWhenDone: the race analysis of a long execution ends when
// the exploration's context does (analyze reports it incomplete).
func TestRacesStopsWhenDone(t *testing.T) {
	evs := randomEvents(rand.New(rand.NewPCG(5, 6)), 3000, 3)
	done := make(chan struct{})
	close(done)
	assert.False(t, races(newHBIndexed(evs), len(evs), func(i, j int) {}, done))
	assert.True(t, races(newHBIndexed(evs[:1000]), 1000, func(i, j int) {}, done), "checked every 1024 events")
}
