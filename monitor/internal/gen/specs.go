// Package gen holds monitors written by monitor.Generate and committed to
// the repository, so that tests compile them, run them against the
// interpreted monitors, and benchmark them. Every other .go file in this
// directory is generated: Specs lists how, and
//
//	go test ./monitor -run TestGenerateGolden -update
//
// rewrites them (the test fails when a file differs from what Generate
// writes now).
//
// # Limits
//
// The package exists for tests and benchmarks only (it is internal): its
// monitors cover the formulas of Specs, not every shape Generate accepts.
package gen

// A Spec says how one generated file of this package was made, and gives
// uniform access to the monitor in it.
type Spec struct {
	File      string // the file's name in this directory
	Name      string // monitor.GenerateOptions.Name
	Formula   string // the formula, in the syntax of docs/semantics.md
	Semantics string // "ltlf" or "rosu-havelund"

	// NewPast returns a fresh online monitor (for past-time formulas and G
	// of them); nil for future-time ones.
	NewPast func() PastMonitor
	// Eval runs a future-time monitor on a trace of letters (bit i of a
	// letter is the formula's i-th atom in sorted order); nil for
	// past-time ones. It converts the letters to events, so it allocates.
	Eval func(trace []uint64) bool
}

// PastMonitor is what every generated past-time monitor implements.
type PastMonitor interface {
	StepLetter(l uint64) bool
	Reset()
}

// Specs returns the specifications of the generated files.
func Specs() []Spec {
	return []Spec{
		{File: "paper.go", Name: "Paper", Semantics: "ltlf",
			Formula: "G(start(p) -> [q, end(r | s)))",
			NewPast: func() PastMonitor { return new(Paper) }},
		{File: "paper_rh.go", Name: "PaperRosuHavelund", Semantics: "rosu-havelund",
			Formula: "G(start(p) -> [q, end(r | s)))",
			NewPast: func() PastMonitor { return new(PaperRosuHavelund) }},
		{File: "lock_pairs.go", Name: "LockPairs", Semantics: "ltlf",
			Formula: "G(unlock -> Y(!unlock S lock))",
			NewPast: func() PastMonitor { return new(LockPairs) }},
		{File: "all_past.go", Name: "AllPast", Semantics: "ltlf",
			Formula: `(req B ack) && H("x >= 0" -> Z O a.b) ^ [start(go), end(busy))w || Y m -> (req <-> a_b)`,
			NewPast: func() PastMonitor { return new(AllPast) }},
		{File: "all_past_rh.go", Name: "AllPastRosuHavelund", Semantics: "rosu-havelund",
			Formula: `(req B ack) && H("x >= 0" -> Z O a.b) ^ [start(go), end(busy))w || Y m -> (req <-> a_b)`,
			NewPast: func() PastMonitor { return new(AllPastRosuHavelund) }},
		{File: "response.go", Name: "Response", Semantics: "ltlf",
			Formula: "G(p -> F q)",
			Eval:    func(t []uint64) bool { return Response(events(t, ResponseEventOf)) }},
		{File: "response_rh.go", Name: "ResponseRosuHavelund", Semantics: "rosu-havelund",
			Formula: "G(p -> F q)",
			Eval:    func(t []uint64) bool { return ResponseRosuHavelund(events(t, ResponseRosuHavelundEventOf)) }},
		{File: "all_future.go", Name: "AllFuture", Semantics: "ltlf",
			Formula: "p U (X q || N r) W (G s R (F q M !p)) && X X !s",
			Eval:    func(t []uint64) bool { return AllFuture(events(t, AllFutureEventOf)) }},
		{File: "all_future_rh.go", Name: "AllFutureRosuHavelund", Semantics: "rosu-havelund",
			Formula: "p U (X q || N r) W (G s R (F q M !p)) && X X !s",
			Eval:    func(t []uint64) bool { return AllFutureRosuHavelund(events(t, AllFutureRosuHavelundEventOf)) }},
	}
}

// events converts letters to a generated monitor's events.
func events[E any](trace []uint64, of func(uint64) E) []E {
	out := make([]E, len(trace))
	for i, l := range trace {
		out[i] = of(l)
	}
	return out
}
