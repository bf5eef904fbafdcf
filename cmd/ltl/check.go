package main

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

const checkUsage = `Usage: ltl check -f FORMULA [-engine auto|dp|automaton|naive] [-semantics ltlf|rosu-havelund] [TRACE]

Prints "holds" or "violated" on the first line, then the details: where the
verdict was decided, why, and the trace around that position.

TRACE is a file of JSON Lines (one event per line: ["req","busy"] or
{"req":true,"busy":false}) or CSV (a header of atom names, 0/1 cells);
standard input when absent or "-".

Engines: dp is the dynamic-programming monitor (past-time online for G(past),
future-time backwards otherwise); automaton the minimal DFA; naive the
reference evaluator; auto picks per formula.

Exit status: 0 holds, 1 violated, 2 usage or input error.
`

func init() {
	register(&command{name: "check", summary: "verdict of a formula on a trace", usage: checkUsage, run: runCheck})
}

func runCheck(e *env, args []string) (int, error) {
	fs := newFlags("check")
	src := fs.String("f", "", "the `formula`")
	engineName := fs.String("engine", "auto", "`engine`: auto, dp, automaton or naive")
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
	res, err := check(f, tr, *engineName, sem)
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
	if !res.Holds {
		return 1, nil
	}
	return 0, nil
}

// check runs the named engine on the trace.
func check(f ltl.Formula, tr *monitor.Trace, engineName string, sem ltl.Semantics) (monitor.Result, error) {
	engine, ok := monitor.ParseEngine(engineName)
	if !ok {
		return monitor.Result{}, fmt.Errorf("-engine: unknown engine %q (want auto, dp, automaton or naive)", engineName)
	}
	return monitor.Check(f, tr, monitor.Options{Engine: engine, Semantics: sem})
}
