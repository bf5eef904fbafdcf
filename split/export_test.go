package split

import (
	"context"
	"testing"
)

// Exports for the external tests of frontends_test.go, which compare the
// front ends' programs with the Go-API models of models_test.go and time
// them with the harness of bench_test.go.
var (
	MuxSem       = muxSem
	MuxSemNonDet = muxSemNonDet
	Mutex        = mutex
	Starvation   = starvation
	Dining       = dining
	CondTerm     = condTerm
	Peterson     = peterson
	Bakery       = bakery
	Szymanski    = szymanski
	German       = german

	BenchCheck      = benchCheck
	BenchMonolithic = benchMonolithic
)

const BenchMaxNodes = benchMaxNodes

type Limiter = limiter

func (l limiter) Run(b *testing.B, config string, f func(ctx context.Context) (bool, error)) {
	l.run(b, config, f)
}

func (inv *Invariant) CountStates(k int) float64 { return inv.countStates(k) }
