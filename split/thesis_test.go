package split

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// thesisCase is a model of Tables 4.9–4.12 of the JTLV thesis with its
// expected verdict, in the text format and built with the Go API.
type thesisCase struct {
	name     string
	file     string // testdata/<file>.smv
	property string // its NAME in the file
	n        int
	api      func(n int) (*Program, *Property)
	want     Verdict
	long     bool // skipped with -short
}

func thesisCases() []thesisCase {
	return []thesisCase{
		{"MUX-SEM mutex (refined)", "muxsem", "mutex", 4, func(n int) (*Program, *Property) { p := muxSem(n, false, false); return p, mutex(p, 2) }, Proved, false},
		{"MUX-SEM+last mutex", "muxsem-last", "mutex", 4, func(n int) (*Program, *Property) { p := muxSem(n, true, false); return p, mutex(p, 2) }, Proved, false},
		{"SEMAPHORE starvation (Table 4.9)", "muxsem", "starvation", 3, func(n int) (*Program, *Property) {
			p := muxSem(n, false, false)
			return p, starvation(p, 0, 1, 2)
		}, Violated, false},
		{"MUX-SEM strong fairness on P[1] (Table 4.10)", "muxsem-fair", "nostarvation", 3, func(n int) (*Program, *Property) {
			p := muxSem(n, false, true)
			return p, starvation(p, 0, 1, 2)
		}, Proved, false},
		{"DINING-PHIL access (Table 4.11)", "dining", "access", 3, dining, Proved, false},
		{"COND-TERM termination (Table 4.11)", "condterm", "termination", 2, func(n int) (*Program, *Property) { return condTerm(n, 15) }, Proved, false},
		{"MUX-SEM-NON-DET (Table 4.11)", "muxsem-nondet", "nostarvation", 3, muxSemNonDet, Proved, false},
		{"PETERSON mutex (Table 4.12)", "peterson", "mutex", 3, peterson, Proved, false},
		{"BAKERY mutex (Table 4.12)", "bakery", "mutex", 3, func(n int) (*Program, *Property) { p, m, _ := bakery(n); return p, m }, Proved, false},
		{"BAKERY starvation (Tables 4.9, 4.12)", "bakery", "nostarvation", 2, func(n int) (*Program, *Property) { p, _, s := bakery(n); return p, s }, Proved, false},
		{"SZYMANSKI mutex (Table 4.12)", "szymanski", "mutex", 3, szymanski, Proved, false},
		{"GERMAN coherence (Table 4.5)", "german", "coherence", 3, german, Proved, false},
		{"BAKERY starvation N=3", "bakery", "nostarvation", 3, func(n int) (*Program, *Property) { p, _, s := bakery(n); return p, s }, Proved, true},
		{"PETERSON mutex N=4", "peterson", "mutex", 4, peterson, Proved, true},
		// The goal: SEMAPHORE mutual exclusion for N = 64 (the
		// thesis's Table 4.12 row where monolithic checking gives up at 24).
		{"SEMAPHORE mutex N=64 (Table 4.12)", "muxsem", "mutex", 64, func(n int) (*Program, *Property) { p := muxSem(n, false, false); return p, mutex(p, 2) }, Proved, true},
	}
}

func propertyNamed(t *testing.T, p *Program, name string) *Property {
	for _, prop := range p.Properties() {
		if prop.Name == name {
			return prop
		}
	}
	t.Fatalf("%s has no property %s", p.Name(), name)
	return nil
}

// Every model gets its thesis verdict through the text format and the Go
// API, with both FLL variants for LTL properties; the two encodings have
// the same split invariant; counterexamples replay.
func TestThesisVerdicts(t *testing.T) {
	for _, tc := range thesisCases() {
		t.Run(fmt.Sprintf("%s/N=%d", tc.name, tc.n), func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("long")
			}
			// Programs are only read by Check: the cases run in parallel
			// (which also checks that concurrent Checks do not interfere).
			t.Parallel()
			text, err := ParseFile("testdata/"+tc.file+".smv", tc.n)
			require.NoError(t, err)
			api, apiProp := tc.api(tc.n)
			textProp := propertyNamed(t, text, tc.property)
			require.Equal(t, textProp.Kind, apiProp.Kind)
			variants := []Variant{VariantB}
			if textProp.Kind == KindLTL && !testing.Short() {
				variants = append(variants, VariantA)
			}
			for _, v := range variants {
				for _, in := range []struct {
					p    *Program
					prop *Property
					enc  string
				}{{text, textProp, "text"}, {api, apiProp, "api"}} {
					res, err := Check(context.Background(), in.p, in.prop, Options{Variant: v})
					require.NoError(t, err)
					t.Logf("%s FLL(%s): %s after %d refinements, %v", in.enc, v, res.Verdict, res.Refinements, res.Duration)
					assert.Equal(t, tc.want, res.Verdict, "%s (%s): %s", in.enc, v, res.Reason)
					if res.Counterexample != nil {
						require.NoError(t, in.p.Replay(res.Counterexample))
					}
				}
			}
			a, err := ComputeInvariant(context.Background(), text, InvariantOptions{})
			require.NoError(t, err)
			b, err := ComputeInvariant(context.Background(), api, InvariantOptions{})
			require.NoError(t, err)
			for k := range text.Processes() {
				assert.Equal(t, b.countStates(k), a.countStates(k), "θ_%d", k)
			}
		})
	}
}
