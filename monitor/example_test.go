package monitor_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// A past-time monitor computes, one event at a time and in constant
// memory, whether a past formula holds at the current position: here, that
// a grant comes right after a request.
func ExampleNewPast() {
	m, err := monitor.NewPast(ltl.LTLf, ltl.MustParse("grant -> Y request"))
	if err != nil {
		panic(err)
	}
	tr := monitor.NewTrace()
	for _, event := range [][]string{{"request"}, {"grant"}, {}, {"grant"}} {
		tr.Append(event...)
	}
	letters, err := tr.Letters(m.Atoms()) // bit i: does m.Atoms()[i] hold?
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Atoms())
	for i, l := range letters {
		fmt.Println(tr.At(i), m.Step(l).Has(0))
	}
	// Output:
	// [grant request]
	// [request] true
	// [grant] true
	// [] true
	// [grant] false
}

// ReadTrace reads a recorded trace, here in JSON Lines (one event per line,
// the atoms that hold); Explain says why a formula has its value on it.
func ExampleExplain() {
	tr, err := monitor.ReadTrace(strings.NewReader(`["req"]
[]
["req"]
["ack"]
["req"]
`), "server.jsonl")
	if err != nil {
		panic(err)
	}
	reasons, err := monitor.Explain(ltl.MustParse("G(req -> X ack)"), tr, 0, ltl.LTLf)
	if err != nil {
		panic(err)
	}
	for _, r := range reasons {
		fmt.Println(r)
	}
	// Output:
	// G(req -> X ack) is false at 0: req -> X ack is false at 0
	// req -> X ack is false at 0: req is true and X ack is false at 0
	// req is true at 0
	// X ack is false at 0: ack is false at 1
	// ack is false at 1
}

// Generate writes the Go source of a monitor with the formula compiled in,
// to be checked in next to the code it watches.
func ExampleGenerate() {
	f := ltl.MustParse("G(write -> !release S acquire)")
	err := monitor.Generate(os.Stdout, f, monitor.GenerateOptions{Package: "lock", Name: "lockMonitor"})
	if err != nil {
		panic(err)
	}
}
