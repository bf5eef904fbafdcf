package split_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/split"
	"github.com/henceforth-go/henceforth/split/gosplit"
	"github.com/henceforth-go/henceforth/split/smv"
)

// The tests of this file check the front ends against the core's Go-API
// models (models_test.go, exported by export_test.go).

// The text and Go API versions of a model have the same split invariant.
func TestParseMatchesGoAPI(t *testing.T) {
	for _, tc := range []struct {
		file string
		api  func(n int) *split.Program
	}{
		{"smv/testdata/muxsem.smv", func(n int) *split.Program { return split.MuxSem(n, false, false) }},
		{"smv/testdata/muxsem-last.smv", func(n int) *split.Program { return split.MuxSem(n, true, false) }},
	} {
		sizes := []int{2, 4}
		if testing.Short() {
			sizes = sizes[:1] // N = 4: TestThesisVerdicts compares the encodings too
		}
		for _, n := range sizes {
			t.Run(fmt.Sprintf("%s/%d", tc.file, n), func(t *testing.T) {
				text, err := smv.ParseFile(tc.file, n)
				require.NoError(t, err)
				api := tc.api(n)
				a, err := split.ComputeInvariant(context.Background(), text, split.InvariantOptions{})
				require.NoError(t, err)
				b, err := split.ComputeInvariant(context.Background(), api, split.InvariantOptions{})
				require.NoError(t, err)
				for k := range n {
					assert.Equal(t, b.States(k, 1<<20), a.States(k, 1<<20), "θ_%d", k)
				}
			})
		}
	}
}

// thesisCase is a model of Tables 4.9–4.12 of the JTLV thesis with its
// expected verdict, in the text format and built with the Go API.
type thesisCase struct {
	name     string
	file     string // smv/testdata/<file>.smv
	property string // its NAME in the file
	n        int
	api      func(n int) (*split.Program, *split.Property)
	want     split.Verdict
	long     bool // skipped with -short
}

func thesisCases() []thesisCase {
	return []thesisCase{
		{"MUX-SEM mutex (refined)", "muxsem", "mutex", 4, func(n int) (*split.Program, *split.Property) {
			p := split.MuxSem(n, false, false)
			return p, split.Mutex(p, 2)
		}, split.Proved, false},
		{"MUX-SEM+last mutex", "muxsem-last", "mutex", 4, func(n int) (*split.Program, *split.Property) {
			p := split.MuxSem(n, true, false)
			return p, split.Mutex(p, 2)
		}, split.Proved, false},
		{"SEMAPHORE starvation (Table 4.9)", "muxsem", "starvation", 3, func(n int) (*split.Program, *split.Property) {
			p := split.MuxSem(n, false, false)
			return p, split.Starvation(p, 0, 1, 2)
		}, split.Violated, false},
		{"MUX-SEM strong fairness on P[1] (Table 4.10)", "muxsem-fair", "nostarvation", 3, func(n int) (*split.Program, *split.Property) {
			p := split.MuxSem(n, false, true)
			return p, split.Starvation(p, 0, 1, 2)
		}, split.Proved, false},
		{"DINING-PHIL access (Table 4.11)", "dining", "access", 3, split.Dining, split.Proved, false},
		{"COND-TERM termination (Table 4.11)", "condterm", "termination", 2, func(n int) (*split.Program, *split.Property) { return split.CondTerm(n, 15) }, split.Proved, false},
		{"MUX-SEM-NON-DET (Table 4.11)", "muxsem-nondet", "nostarvation", 3, split.MuxSemNonDet, split.Proved, false},
		{"PETERSON mutex (Table 4.12)", "peterson", "mutex", 3, split.Peterson, split.Proved, false},
		{"BAKERY mutex (Table 4.12)", "bakery", "mutex", 3, func(n int) (*split.Program, *split.Property) { p, m, _ := split.Bakery(n); return p, m }, split.Proved, false},
		{"BAKERY starvation (Tables 4.9, 4.12)", "bakery", "nostarvation", 2, func(n int) (*split.Program, *split.Property) { p, _, s := split.Bakery(n); return p, s }, split.Proved, false},
		{"SZYMANSKI mutex (Table 4.12)", "szymanski", "mutex", 3, split.Szymanski, split.Proved, false},
		{"GERMAN coherence (Table 4.5)", "german", "coherence", 3, split.German, split.Proved, false},
		{"BAKERY starvation N=3", "bakery", "nostarvation", 3, func(n int) (*split.Program, *split.Property) { p, _, s := split.Bakery(n); return p, s }, split.Proved, true},
		{"PETERSON mutex N=4", "peterson", "mutex", 4, split.Peterson, split.Proved, true},
		// SEMAPHORE mutual exclusion for N = 64 (the thesis's Table 4.12
		// row where monolithic checking gives up at 24).
		{"SEMAPHORE mutex N=64 (Table 4.12)", "muxsem", "mutex", 64, func(n int) (*split.Program, *split.Property) {
			p := split.MuxSem(n, false, false)
			return p, split.Mutex(p, 2)
		}, split.Proved, true},
	}
}

func propertyNamed(t *testing.T, p *split.Program, name string) *split.Property {
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
			text, err := smv.ParseFile("smv/testdata/"+tc.file+".smv", tc.n)
			require.NoError(t, err)
			api, apiProp := tc.api(tc.n)
			textProp := propertyNamed(t, text, tc.property)
			require.Equal(t, textProp.Kind, apiProp.Kind)
			variants := []split.Variant{split.VariantB}
			if textProp.Kind == split.KindLTL && !testing.Short() {
				variants = append(variants, split.VariantA)
			}
			for _, v := range variants {
				for _, in := range []struct {
					p    *split.Program
					prop *split.Property
					enc  string
				}{{text, textProp, "text"}, {api, apiProp, "api"}} {
					res, err := split.Check(context.Background(), in.p, in.prop, split.Options{Variant: v})
					require.NoError(t, err)
					t.Logf("%s FLL(%s): %s after %d refinements, %v", in.enc, v, res.Verdict, res.Refinements, res.Duration)
					assert.Equal(t, tc.want, res.Verdict, "%s (%s): %s", in.enc, v, res.Reason)
					if res.Counterexample != nil {
						require.NoError(t, in.p.Replay(res.Counterexample))
					}
				}
			}
			a, err := split.ComputeInvariant(context.Background(), text, split.InvariantOptions{})
			require.NoError(t, err)
			b, err := split.ComputeInvariant(context.Background(), api, split.InvariantOptions{})
			require.NoError(t, err)
			for k := range text.Processes() {
				assert.Equal(t, b.CountStates(k), a.CountStates(k), "θ_%d", k)
			}
		})
	}
}

// BenchmarkGoMutex times the Go split.Mutex example (mutexSrc, the same code as
// examples/split/split.Mutex) for N goroutines: gosplit.Program.Check of "mutex"
// (extraction excluded; the 2-goroutine falsification included) and
// monolithic BDD checking of the extracted program, against the thesis's
// MUX-SEM (smv/testdata/muxsem.smv, mutual exclusion as N² pairs) checked the
// same two ways, in the same run.
//
//	go test -run '^$' -bench GoMutex -benchtime 1x -timeout 0 ./split/
func BenchmarkGoMutex(b *testing.B) {
	for _, n := range []int{8, 16, 32, 64, 128} {
		g, err := gosplit.Load(context.Background(), gosplit.Config{Dir: "../examples/split/mutex"}, ".", "worker", n)
		if err != nil {
			b.Fatal(err)
		}
		gprop, err := g.Property("mutex")
		if err != nil {
			b.Fatal(err)
		}
		sm, err := smv.ParseFile("smv/testdata/muxsem.smv", n)
		if err != nil {
			b.Fatal(err)
		}
		sprop := sm.Properties()[0]
		l := split.Limiter{}
		b.Run(fmt.Sprintf("N=%d/go-split", n), func(b *testing.B) {
			l.Run(b, "go-split", func(ctx context.Context) (bool, error) {
				res, err := g.Check(ctx, "mutex", split.Options{MaxNodes: split.BenchMaxNodes})
				if err != nil {
					return false, err
				}
				if res.Verdict != split.Proved {
					b.Fatalf("go-split: %s: %s", res.Verdict, res.Reason)
				}
				b.ReportMetric(float64(res.Refinements), "refinements")
				b.ReportMetric(float64(res.Invariant.PeakNodes), "peak-nodes")
				return true, nil
			})
		})
		b.Run(fmt.Sprintf("N=%d/go-mono", n), func(b *testing.B) { split.BenchMonolithic(b, l, "go-mono", g.Program, gprop, split.Proved) })
		b.Run(fmt.Sprintf("N=%d/smv-split", n), func(b *testing.B) { split.BenchCheck(b, l, "smv-split", sm, sprop, split.Options{}, split.Proved) })
		b.Run(fmt.Sprintf("N=%d/smv-mono", n), func(b *testing.B) { split.BenchMonolithic(b, l, "smv-mono", sm, sprop, split.Proved) })
	}
}

// BenchmarkGoRacy times the racy example (examples/split/racy)
// for N goroutines: gosplit.Program.Check, which finds the violation with 2
// goroutines and lifts it, against Check on the N-goroutine program
// directly (refinement until the abstract counterexample is concrete).
//
//	go test -run '^$' -bench GoRacy -benchtime 1x -timeout 0 ./split/
func BenchmarkGoRacy(b *testing.B) {
	for _, n := range []int{3, 4, 16, 64} {
		g, err := gosplit.Load(context.Background(), gosplit.Config{Dir: "../examples/split/racy"}, ".", "worker", n)
		if err != nil {
			b.Fatal(err)
		}
		prop, err := g.Property("mutex")
		if err != nil {
			b.Fatal(err)
		}
		l := split.Limiter{}
		b.Run(fmt.Sprintf("N=%d/go-check", n), func(b *testing.B) {
			l.Run(b, "go-check", func(ctx context.Context) (bool, error) {
				res, err := g.Check(ctx, "mutex", split.Options{MaxNodes: split.BenchMaxNodes})
				if err != nil {
					return false, err
				}
				if res.Verdict != split.Violated {
					b.Fatalf("go-check: %s: %s", res.Verdict, res.Reason)
				}
				return true, nil
			})
		})
		if n <= 4 {
			b.Run(fmt.Sprintf("N=%d/split-N", n), func(b *testing.B) {
				split.BenchCheck(b, l, "split-N", g.Program, prop, split.Options{}, split.Violated)
			})
		}
	}
}
