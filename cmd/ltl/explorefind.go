package main

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/explore"
)

// ltl explore -find FORMULA: scenario search (explore.Find) on each
// selected test, breadth-first (the witness is a shortest one). A test
// prints its witness (the states, the interleaving and a replay token) or
// why there is none:
//   found    TEST  witness of N steps (E executions, S states)
//   none     TEST  no interleaving satisfies FORMULA (complete search …)
//   unknown  TEST  no witness found before the BOUND bound; nothing is proved
// With -json, one object per test: kind "witness" (with replay and
// steps), "none" or "unknown". The exit status is 0 when every test has a
// witness, 1 otherwise.

// find searches test t and reports whether a witness was found.
func (o *exploreOutput) find(ctx context.Context, p *explore.Program, t *explore.Entry, formula string, opts explore.Options) (bool, error) {
	r, err := p.Find(ctx, t, formula, explore.FindOptions{Options: opts})
	if err != nil {
		return false, err
	}
	stats := fmt.Sprintf("%s, %s", plural(r.Nodes, "execution"), plural(r.States, "distinct state"))
	var jf jsonFinding
	switch r.Verdict() {
	case "found":
		w := r.Witness
		jf = jsonFinding{Test: t.Name, Kind: "witness", Message: fmt.Sprintf("witness of %s", formula), Replay: w.Replay, Steps: w.Steps}
		if o.html != "" {
			path, err := writeWitnessHTML(o.html, t, w)
			if err != nil {
				return false, err
			}
			o.printf(o.stderr, "ltl explore: report: %s\n", path)
		}
		if !o.json {
			o.printf(o.stdout, "--- %s: witness\n%s\n", t.Name, w)
			o.printf(o.stdout, "found    %s  witness of %s (%s)\n", t.Name, plural(w.Steps, "step"), stats)
		}
	case "none":
		jf = jsonFinding{Test: t.Name, Kind: "none", Message: fmt.Sprintf("no interleaving satisfies %s", formula)}
		if !o.json {
			o.printf(o.stdout, "none     %s  no interleaving satisfies %s (complete search: %s)\n", t.Name, formula, stats)
		}
	default:
		jf = jsonFinding{Test: t.Name, Kind: "unknown", Message: fmt.Sprintf("no witness of %s found before the %s bound; nothing is proved", formula, r.Bound)}
		if !o.json {
			o.printf(o.stdout, "unknown  %s  %s (%s)\n", t.Name, jf.Message, stats)
		}
	}
	if o.json {
		o.writeJSON(jf)
	}
	return r.Witness != nil, nil
}
