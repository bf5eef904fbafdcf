package synth

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ambaCircuit reads the stored controller circuit for AMBA n
// (testdata/circuit/ambaN.aig, written by Circuit.AIG and WriteAIG from a
// determinized strategy): a fixed circuit, so that the check's cost can be
// compared across runs without the determinization's variance.
func ambaCircuit(t testing.TB, n int) *AIG {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "circuit", fmt.Sprintf("amba%d.aig", n)))
	require.NoError(t, err)
	defer f.Close()
	a, err := ParseAIGER(f.Name(), f)
	require.NoError(t, err)
	return a
}

// TestCheckAIGAMBAStored checks the stored AMBA n = 2 controller, and
// refutes it with one output forced to a constant: a grant that never
// comes (SYS_LIVENESS) and one that always comes (SYS_TRANS: at most one
// grant, or the initial state).
func TestCheckAIGAMBAStored(t *testing.T) {
	ctx := context.Background()
	spec := ambaForTest(t, 2)
	a := ambaCircuit(t, 2)
	require.NoError(t, CheckAIG(ctx, spec, a))
	for o, name := range a.OutputNames {
		if name != "hgrant1" {
			continue
		}
		for _, lit := range []uint32{0, 1} {
			bad := *a
			bad.Outputs = append([]uint32(nil), a.Outputs...)
			bad.Outputs[o] = lit
			err := CheckAIG(ctx, spec, &bad)
			assert.ErrorIs(t, err, ErrRefuted, "%s forced to %d", name, lit)
		}
		return
	}
	t.Fatal("the stored circuit has no output hgrant1")
}

// BenchmarkCheckAIG model-checks the stored AMBA controllers (n = 2…5),
// each without dynamic reordering (CheckAIG's default) and, as the
// baseline in the same run, with it (sifting). check-cpu-s is the
// process's CPU time for the check: the machine is shared, so it is the
// figure to compare; ands is the circuit's size.
//
//	go test -run '^$' -bench CheckAIG -benchtime 1x ./synth
func BenchmarkCheckAIG(b *testing.B) {
	ctx := context.Background()
	for n := 2; n <= 5; n++ {
		spec := ambaSpec(b, n)
		a := ambaCircuit(b, n)
		for _, v := range []struct {
			name string
			opts []Option
		}{
			{"static", nil},
			{"sifting", []Option{WithReordering(true)}},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, v.name), func(b *testing.B) {
				var cpu time.Duration
				for b.Loop() {
					c0 := cpuTime()
					if err := CheckAIG(ctx, spec, a, v.opts...); err != nil {
						b.Fatal(err)
					}
					cpu += cpuTime() - c0
				}
				b.ReportMetric(cpu.Seconds()/float64(b.N), "check-cpu-s")
				b.ReportMetric(float64(a.NumAnds()), "ands")
			})
		}
	}
}
