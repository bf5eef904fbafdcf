package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

const monitorUsage = `Usage: ltl monitor -f FORMULA [-html FILE] [TRACE]

Runs an online monitor of FORMULA (LTLf) over TRACE, one event at a time, and
prints one line per event, as soon as the event is read, with the running
verdict (so it works on a pipe: tail -f events.jsonl | ltl monitor -f ...):

  violated         no continuation of the events so far can satisfy FORMULA
  satisfied        every continuation satisfies it
  currently true   undecided; it would hold if the trace ended here
  currently false  undecided; it would not hold if the trace ended here

The last line is the final verdict, "holds" or "violated". TRACE is as for
'ltl check'; standard input when absent or "-". -html FILE writes, when
the trace ends, the page 'ltl check -html' writes.

Exit status: 0 holds, 1 violated, 2 usage or input error.
`

func init() {
	register(&command{name: "monitor", summary: "online verdict after every event", usage: monitorUsage, run: runMonitor})
}

func runMonitor(e *env, args []string) (int, error) {
	fs := newFlags("monitor")
	src := fs.String("f", "", "the `formula`")
	html := fs.String("html", "", "when the trace ends, write the verdict as an HTML page to `file`")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2, err
	}
	f, err := parseFormula("f", *src)
	if err != nil {
		return 2, err
	}
	d, err := automaton.FromFormula(context.Background(), f, automaton.Options{})
	if err != nil {
		return 2, err
	}
	m := d.Monitor()
	in, name, closeIn, err := openTrace(e, pos)
	if err != nil {
		return 2, err
	}
	defer closeIn()
	verdict := m.Verdict()
	tr, err := monitor.StreamTrace(in, name, monitor.FormatAuto, func(tr *monitor.Trace) error {
		i := tr.Len() - 1
		atoms := tr.At(i)
		verdict = m.StepAtoms(atoms...)
		_, err := fmt.Fprintf(e.stdout, "%d: {%s} %s\n", i, strings.Join(atoms, ", "), verdict)
		return err
	})
	if err != nil {
		return 2, err
	}
	if *html != "" {
		res := monitor.Result{Holds: verdict.Holds(), Engine: monitor.EngineAutomaton, Violation: -1}
		if err := writeVerdictHTML(*html, f, tr, res, ltl.LTLf, "ltl monitor: "+f.String()); err != nil {
			return 2, err
		}
	}
	if verdict.Holds() {
		fmt.Fprintln(e.stdout, "holds")
		return 0, nil
	}
	fmt.Fprintln(e.stdout, "violated")
	return 1, nil
}
