package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/henceforth-go/henceforth/automaton"
	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
	"github.com/henceforth-go/henceforth/report"
)

// The -html flags: ltl check -html FILE and ltl monitor -html FILE write
// the verdict as an HTML page (the waveform of the trace, the value of
// every subformula at every position, the online verdicts and the
// explanation); ltl explore -html DIR writes one page per test with
// findings (or per witness, with -find) into DIR.

// writeVerdictHTML writes the page of f's verdict on tr to path.
func writeVerdictHTML(path string, f ltl.Formula, tr *monitor.Trace, res monitor.Result, sem ltl.Semantics, title string) error {
	if len(res.Why) == 0 && !res.Holds {
		// The monitor command has no explanation of its own.
		if full, err := automaton.Check(context.Background(), f, tr, monitor.Options{Semantics: sem}); err == nil {
			res = full
		}
	}
	p := &report.Page{Title: title, Verdicts: []*report.Verdict{report.FromCheck(context.Background(), f, tr, res, sem)}}
	if err := report.WriteFile(path, p); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	return nil
}

// writeExploreHTML writes the page of an exploration with findings into
// dir and returns its path ("" when there is nothing to show).
// fn is the -func flag ("" when the entry is a test).
func writeExploreHTML(dir string, t *explore.Entry, r *explore.Report, fn string, flags, pkgs []string) (string, error) {
	if len(r.Findings) == 0 {
		return "", nil
	}
	p := report.FromExplore(r, func(f *explore.Finding) string { return replayCommand(t, f, fn, flags, pkgs) })
	path := filepath.Join(dir, report.FileName(entryFileName(t)))
	if err := report.WriteFile(path, p); err != nil {
		return "", fmt.Errorf("-html: %w", err)
	}
	return path, nil
}

// writeWitnessHTML writes the page of a scenario search's witness into
// dir and returns its path.
func writeWitnessHTML(dir string, t *explore.Entry, w *explore.Witness) (string, error) {
	path := filepath.Join(dir, report.FileName(entryFileName(t)+".witness"))
	if err := report.WriteFile(path, report.FromWitness(w)); err != nil {
		return "", fmt.Errorf("-html: %w", err)
	}
	return path, nil
}

// replayCommand is the ltl explore command that runs f's execution again:
// the entry, the flags the exploration was run with that change what an
// execution does, the token and the packages.
func replayCommand(t *explore.Entry, f *explore.Finding, fn string, flags, pkgs []string) string {
	sel := "-run '" + subtestRun(t) + "'"
	if fn != "" {
		sel = "-func " + fn
	}
	return fmt.Sprintf("ltl explore %s -replay %s %s", sel, f.Replay, strings.Join(slices.Concat(flags, pkgs), " "))
}

// replayFlagNames are the flags of ltl explore that change what an
// execution does (which steps are scheduling points, what is a finding,
// what the program sees), so a replay must repeat them.
var replayFlagNames = map[string]bool{
	"shared": true, "races": true, "ignore-leaks": true, "timer-leaks": true, "early-fire": true,
	"map-orders": true, "specs": true, "max-steps": true, "max-loop": true, "seed": true,
}

// replayFlags lists the flags set on fs that a replay must repeat, as
// -name=value arguments quoted for a POSIX shell.
func replayFlags(fs *flag.FlagSet) []string {
	var out []string
	fs.Visit(func(f *flag.Flag) {
		if replayFlagNames[f.Name] {
			out = append(out, shellQuote("-"+f.Name+"="+f.Value.String()))
		}
	})
	return out
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:,=+@%-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// entryFileName names an entry by its package's name and test name
// ("abba.Scenario", "p.TestX/case_1").
func entryFileName(t *explore.Entry) string {
	if t.Fn != nil && t.Fn.Pkg != nil {
		return t.Fn.Pkg.Pkg.Name() + "." + t.TestName()
	}
	return t.Name
}
