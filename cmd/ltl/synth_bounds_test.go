package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/testproc"
)

// TestSynthBoundsEveryPhase: ltl synth answers "unknown", with exit status
// 2, naming the bound and the phase it stopped, whichever phase reaches a
// memory bound. Which phase a given bound stops depends on when the Go
// runtime releases BDD handles, so the bounds form a ladder from too small
// for realizability to large enough for everything, and every phase must
// be stopped by some rung.
func TestSynthBoundsEveryPhase(t *testing.T) {
	// Alone: every bound makes the BDD kernel collect, and each collection
	// runs the Go collector over the heap the package's other tests left
	// (the programs cachedLoad keeps).
	if testproc.Alone(t) {
		return
	}
	lift := filepath.Join("testdata", "synth", "lift3.slugsin")
	phaseRE := regexp.MustCompile(`reached during ([a-z ]+)\n`)
	for _, c := range []struct {
		flags  []string
		phases []string
	}{
		{[]string{"-aiger", filepath.Join(t.TempDir(), "lift3.aag")}, []string{"realizability", "determinization", "check of the circuit"}},
		{[]string{"-explicit", "-strategy", filepath.Join(t.TempDir(), "lift3.json")}, []string{"realizability", "enumeration of the explicit machine"}},
	} {
		stopped := map[string][]int{} // phase → the bounds (KB) that stopped it
		for kb := 6; kb <= 1024; kb += max(3, kb/8) {
			bound := fmt.Sprintf("%dKB", kb)
			args := append(append([]string{"synth", "-max-memory", bound}, c.flags...), lift)
			status, _, errOut := runLTL(t, "", args...)
			if status == 0 {
				stopped["none"] = append(stopped["none"], kb)
				break // larger bounds stop nothing either
			}
			require.Equal(t, 2, status, errOut)
			require.Contains(t, errOut, "unknown: memory bound (-max-memory "+bound+") reached during ")
			phase := phaseRE.FindStringSubmatch(errOut)
			require.NotNil(t, phase, errOut)
			stopped[phase[1]] = append(stopped[phase[1]], kb)
		}
		assert.ElementsMatch(t, append(c.phases, "none"), slices.Collect(maps.Keys(stopped)), "phases stopped by each bound (KB): %v", stopped)
	}

	status, _, errOut := runLTL(t, "", "synth", "-timeout", "1ns", "-go", lift)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "unknown: no answer within -timeout 1ns during realizability")
}
