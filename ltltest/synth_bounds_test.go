package ltltest_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/synth"
)

// TestSynthesizeBounds: a memory bound reached in any phase of Synthesize
// or SynthesizeExplicit, or a timeout, fails the test as unknown, naming
// the bound and the phase. The bounds are sized for lift3's BDDs (with a
// fixed variable order): each stops a later phase than the one before.
func TestSynthesizeBounds(t *testing.T) {
	spec, err := synth.ParseFile(filepath.Join("testdata", "synth", "lift3.slugsin"))
	require.NoError(t, err)
	fixed := ltltest.WithSynthOptions(synth.WithReordering(false))
	for _, c := range []struct {
		name     string
		explicit bool
		bound    ltltest.Option
		want     []string
	}{
		{"memory/realizability", false, ltltest.WithMaxMemory(16 << 10),
			[]string{"ltltest: unknown: memory bound reached (WithMaxMemory 16384 bytes)", "phase: realizability", "raise the bound of ltltest.WithMaxMemory"}},
		{"memory/determinization", false, ltltest.WithMaxMemory(28 << 10),
			[]string{"ltltest: unknown: memory bound reached (WithMaxMemory 28672 bytes)", "phase: determinization"}},
		{"memory/check", false, ltltest.WithMaxMemory(44 << 10),
			[]string{"ltltest: unknown: memory bound reached (WithMaxMemory 45056 bytes)", "phase: check of the circuit"}},
		{"memory/enumeration", true, ltltest.WithMaxMemory(58 << 10),
			[]string{"ltltest: unknown: memory bound reached (WithMaxMemory 59392 bytes)", "phase: enumeration of the explicit machine"}},
		{"memory/explicit-realizability", true, ltltest.WithSynthOptions(synth.WithMemoryLimit(16 << 10)),
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
	assert.False(t, ltltest.Unrealizable(ft, spec, ltltest.WithMaxMemory(16<<10)))
	assert.Contains(t, ft.output(), "ltltest: unknown: memory bound reached")
}
