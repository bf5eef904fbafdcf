package main

import (
	"context"
	"fmt"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

const checkUsage = `Usage: ltl check -f FORMULA [-engine auto|dp|automaton|naive] [-semantics ltlf|rosu-havelund] [-html FILE] [TRACE]

Prints "holds" or "violated" on the first line, then the details: where the
verdict was decided, why, and the trace around that position.

TRACE is a file of JSON Lines (one event per line: ["req","busy"] or
{"req":true,"busy":false}) or CSV (a header of atom names, 0/1 cells);
standard input when absent or "-".

Engines: dp is the dynamic-programming monitor (past-time online for G(past),
future-time backwards otherwise); automaton the minimal DFA, stepped once per
event (LTLf only); naive the reference evaluator. auto takes the past-time DP
for G(past), the automaton for other formulas on a trace streamed on
standard input, and the future-time DP for a trace file.

-html FILE also writes the verdict as a self-contained HTML page: the trace
as a waveform (one row per atom), the value of the formula and of each
subformula at every position, the online verdict after every event (LTLf)
and the explanation.

Exit status: 0 holds, 1 violated, 2 usage or input error.
`

func init() {
	register(&command{name: "check", summary: "verdict of a formula on a trace", usage: checkUsage, run: runCheck})
}

func runCheck(e *env, args []string) (int, error) {
	fs := newFlags("check")
	src := fs.String("f", "", "the `formula`")
	engineName := fs.String("engine", "auto", "`engine`: auto, dp, automaton or naive")
	html := fs.String("html", "", "also write the verdict as an HTML page to `file`")
	sem := ltl.LTLf
	semanticsFlag(fs, &sem)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2, err
	}
	f, err := parseFormula("f", *src)
	if err != nil {
		return 2, err
	}
	tr, err := readTrace(e, pos)
	if err != nil {
		return 2, err
	}
	res, err := check(f, tr, *engineName, sem, len(pos) == 0 || pos[0] == "-")
	if err != nil {
		return 2, err
	}
	if res.Holds {
		fmt.Fprintln(e.stdout, "holds")
	} else {
		fmt.Fprintln(e.stdout, "violated")
	}
	fmt.Fprintf(e.stdout, "engine: %s\n", res.Engine)
	monitor.WriteReport(e.stdout, f, res, tr)
	if *html != "" {
		if err := writeVerdictHTML(*html, f, tr, res, sem, "ltl check: "+f.String()); err != nil {
			return 2, err
		}
	}
	if !res.Holds {
		return 1, nil
	}
	return 0, nil
}

// check runs the named engine on the trace. With auto, a trace streamed on
// standard input is checked by the automaton, unless the formula is G(past),
// which the past-time DP monitors best; a stored trace by the DP engines.
func check(f ltl.Formula, tr *monitor.Trace, engineName string, sem ltl.Semantics, streamed bool) (monitor.Result, error) {
	engine, ok := monitor.ParseEngine(engineName)
	if !ok {
		return monitor.Result{}, fmt.Errorf("-engine: unknown engine %q (want auto, dp, automaton or naive)", engineName)
	}
	if engine == monitor.EngineAuto && streamed && sem == ltl.LTLf && !f.IsPastSafety() {
		engine = monitor.EngineAutomaton
	}
	return automaton.Check(context.Background(), f, tr, monitor.Options{Engine: engine, Semantics: sem})
}
