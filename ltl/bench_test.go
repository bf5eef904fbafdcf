package ltl_test

import (
	"go/parser"
	"testing"

	"github.com/henceforth-go/henceforth/ltl"
)

// midFormula is a mid-size specification: 157 bytes, 60 tokens, 40
// distinct subformulas, every kind of operator.
const midFormula = `G((req && !busy) -> F(ack || "err != nil")) && G(start(lock) -> [acquire, end(unlock | timeout))) && (p U q W r R s) && H !crash && X[!] ready <-> O init`

// midGoExpr is a Go expression of the same shape and size (operators as
// calls), for go/parser.ParseExpr as the baseline.
const midGoExpr = `G(I(req && !busy, F(ack || errNil))) && G(I(start(lock), iv(acquire, end(unlock || timeout)))) && U(p, W(q, R(r, s))) && H(!crash) && X(ready) == O(init)`

// BenchmarkParse measures Parse on a mid-size formula (formulas/s), with
// go/parser.ParseExpr on a Go expression of the same size as the baseline.
func BenchmarkParse(b *testing.B) {
	b.Run("ltl", func(b *testing.B) {
		b.SetBytes(int64(len(midFormula)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ltl.Parse(midFormula); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "formulas/s")
	})
	b.Run("go-parser-baseline", func(b *testing.B) {
		b.SetBytes(int64(len(midGoExpr)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parser.ParseExpr(midGoExpr); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "formulas/s")
	})
}

// BenchmarkString measures printing the same formula.
func BenchmarkString(b *testing.B) {
	f := ltl.MustParse(midFormula)
	b.ReportAllocs()
	for b.Loop() {
		_ = f.String()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "formulas/s")
}
