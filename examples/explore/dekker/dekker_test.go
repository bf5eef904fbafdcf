package dekker_test

import (
	"testing"

	"github.com/henceforth-go/henceforth/examples/explore/dekker"
	"github.com/henceforth-go/henceforth/ltltest"
)

// Scenario search over every interleaving of Dekker's two processes:
// at(P, l) holds when goroutine P last passed the statement labelled
// //ltl:event l.
func TestDekkerScenarios(t *testing.T) {
	// Show me an interleaving where P0 has made its attempt and P1 is at
	// n2: Find returns the shortest one (its trace and a replay token).
	w := ltltest.Find(t, dekker.Run, "F(at(P0, m2) && at(P1, n2))")
	if w == nil {
		t.FailNow()
	}
	t.Log(w)

	// Mutual exclusion: no interleaving has both in the critical section.
	ltltest.Never(t, dekker.Run, "F(at(P0, m8) && at(P1, n8))")
}
