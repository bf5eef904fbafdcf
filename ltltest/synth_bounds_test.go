package ltltest_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/internal/testproc"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/synth"
)

// TestSynthesizeBounds: a memory bound reached in any phase of Synthesize
// or SynthesizeExplicit, or a timeout, fails the test as unknown, naming
// the bound and the phase. Which phase a given bound stops depends on when
// the Go runtime releases BDD handles (it differs under -race), so the
// memory bounds form a ladder from too small for realizability to large
// enough for everything, and every phase must be stopped by some rung.
func TestSynthesizeBounds(t *testing.T) {
	// Alone: every bound makes the BDD kernel collect, and each collection
	// runs the Go collector over the heap the package's other tests left.
	if testproc.Alone(t) {
		return
	}
	spec, err := synth.ParseFile(filepath.Join("testdata", "synth", "lift3.slugsin"))
	require.NoError(t, err)
	fixed := ltltest.WithSynthOptions(synth.WithReordering(false))
	phaseRE := regexp.MustCompile(`\n\tphase: ([a-z ]+)\n`)
	for _, c := range []struct {
		explicit bool
		phases   []string
	}{
		{false, []string{"realizability", "determinization", "check of the circuit"}},
		{true, []string{"realizability", "enumeration of the explicit machine"}},
	} {
		stopped := map[string][]int{} // phase → the bounds (KB) that stopped it
		for kb := 6; kb <= 1024; kb += max(3, kb/8) {
			ft := &fakeT{}
			bound := ltltest.WithMaxMemory(int64(kb) << 10)
			if c.explicit {
				ltltest.SynthesizeExplicit(ft, spec, fixed, bound)
			} else {
				ltltest.Synthesize(ft, spec, fixed, bound)
			}
			if !ft.failed {
				stopped["none"] = append(stopped["none"], kb)
				break // larger bounds stop nothing either
			}
			out := ft.output()
			require.Contains(t, out, fmt.Sprintf("ltltest: unknown: memory bound reached (WithMaxMemory %d bytes)", kb<<10))
			phase := phaseRE.FindStringSubmatch(out)
			require.NotNil(t, phase, out)
			stopped[phase[1]] = append(stopped[phase[1]], kb)
		}
		assert.ElementsMatch(t, append(c.phases, "none"), slices.Collect(maps.Keys(stopped)), "phases stopped by each bound (KB): %v", stopped)
	}

	for _, c := range []struct {
		name     string
		explicit bool
		bound    ltltest.Option
		want     []string
	}{
		{"memory", false, ltltest.WithMaxMemory(6 << 10),
			[]string{"ltltest: unknown: memory bound reached (WithMaxMemory 6144 bytes)", "phase: realizability", "raise the bound of ltltest.WithMaxMemory"}},
		{"memory/synth-option", true, ltltest.WithSynthOptions(synth.WithMemoryLimit(6 << 10)),
			[]string{"ltltest: unknown: memory bound reached", "phase: realizability", "synth.WithMemoryLimit"}},
		{"timeout", false, ltltest.WithTimeout(time.Nanosecond),
			[]string{"ltltest: unknown: no answer within WithTimeout 1ns", "phase: realizability", "raise ltltest.WithTimeout"}},
		{"timeout/explicit", true, ltltest.WithTimeout(time.Nanosecond),
			[]string{"ltltest: unknown: no answer within WithTimeout 1ns", "phase: realizability"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ft := &fakeT{}
			if c.explicit {
				assert.Nil(t, ltltest.SynthesizeExplicit(ft, spec, fixed, c.bound))
			} else {
				assert.Nil(t, ltltest.Synthesize(ft, spec, fixed, c.bound))
			}
			for _, w := range c.want {
				assert.Contains(t, ft.output(), w)
			}
		})
	}
	// With room enough, both forms are synthesized and checked.
	ft := &fakeT{}
	assert.NotNil(t, ltltest.Synthesize(ft, spec, fixed, ltltest.WithMaxMemory(1<<20), ltltest.WithTimeout(time.Minute)), ft.output())
	assert.NotNil(t, ltltest.SynthesizeExplicit(ft, spec, fixed, ltltest.WithMaxMemory(1<<20)), ft.output())

	// Realizable and Unrealizable stop at the same bounds.
	ft = &fakeT{}
	assert.False(t, ltltest.Realizable(ft, spec, ltltest.WithTimeout(time.Nanosecond)))
	assert.Contains(t, ft.output(), "ltltest: unknown: no answer within WithTimeout 1ns")
	ft = &fakeT{}
	assert.False(t, ltltest.Unrealizable(ft, spec, ltltest.WithMaxMemory(6<<10)))
	assert.Contains(t, ft.output(), "ltltest: unknown: memory bound reached")
}
