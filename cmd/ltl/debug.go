package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/henceforth-go/henceforth/explore"
)

var debugUsage = `Usage: ltl debug [-func NAME | -run REGEX] [-script FILE] [-shared] [-seed N]
                 [-max-steps N] [-max-loop N] [-timeout D] [PACKAGES]

The temporal debugger (after Gunter and Peled): a session over the
goroutine schedules of one function or test of PACKAGES (go/packages
patterns, "." by default), run in the explorer's interpreter. The session
stands at a state of the program, at first its initial state (package
initialization done, every goroutine at its first scheduling point).
"push FORMULA" searches a temporal step from there: a path whose states
satisfy the LTLf formula (the atoms of ltl explore -find: at(G, L) when
goroutine G last passed //ltl:event L, event and prop names, quoted Go
expressions over package-level variables, deadlock, terminated); the
session moves to its last state, and the next question starts there.
"backtrack" replaces the latest step by its search's next alternative,
"pop" discards it, "step G" moves goroutine G once, "clear" returns to the
initial state. After each command the session shows the state: each
goroutine's last label and position, and the watched expressions.

-func NAME debugs that function (without parameters); otherwise -run
selects exactly one Test function or subtest (go test's syntax).
-shared, -seed, -max-steps and -max-loop are ltl explore's; -timeout
bounds each search request.

Commands are read from the terminal, with line editing and history
(arrows, Ctrl-A/E/K/U/W/Y, Ctrl-R searches the history), or one a line
from standard input when it is not a terminal. -script FILE runs the
commands of FILE, each echoed with its output ('#' starts a comment
line); a command that does not parse, a bad formula or goroutine, or a
pop on an empty stack stops the script with exit status 2; expect
commands make the script a test:

` + commandsHelp() + `
Exit status: 0 the session ended and every expect held, 1 an expect
failed, 2 a usage, load, script or input error (positioned: FILE:LINE:COL).
`

func init() {
	x := &explorer{load: explore.Load}
	register(&command{name: "debug", summary: "the temporal debugger: step through goroutine schedules by temporal formulas", usage: debugUsage, run: x.debug})
}

// debugFlags are the flags of ltl debug.
type debugFlags struct {
	fn, run, script   string
	shared            bool
	seed              int64
	maxSteps, maxLoop int
	timeout           time.Duration
}

// debug is the debug command; it loads programs as the explore command
// does.
func (x *explorer) debug(e *env, args []string) (int, error) {
	var f debugFlags
	fs := newFlags("debug")
	fs.StringVar(&f.fn, "func", "", "debug the function `name` (without parameters)")
	fs.StringVar(&f.run, "run", "", "debug the one test or subtest matching `regex` (go test's syntax)")
	fs.StringVar(&f.script, "script", "", "run the commands of `file` instead of reading them from the terminal")
	fs.BoolVar(&f.shared, "shared", false, "also schedule at loads and stores of memory other goroutines can reach")
	fs.Int64Var(&f.seed, "seed", 0, "`seed` of math/rand in the program")
	fs.IntVar(&f.maxSteps, "max-steps", 0, "bound on scheduling steps per execution (0: the default)")
	fs.IntVar(&f.maxLoop, "max-loop", 0, "bound on loop iterations per execution (0: the default)")
	fs.DurationVar(&f.timeout, "timeout", 0, "bound on the time of each search request (0: none)")
	pkgs, err := parseInterspersed(fs, args)
	if err != nil {
		return 2, err
	}
	switch {
	case f.maxSteps < 0:
		return 2, fmt.Errorf("-max-steps: must not be negative, got %d", f.maxSteps)
	case f.maxLoop < 0:
		return 2, fmt.Errorf("-max-loop: must not be negative, got %d", f.maxLoop)
	case f.timeout < 0:
		return 2, fmt.Errorf("-timeout: must not be negative, got %s", f.timeout)
	case f.fn != "" && f.run != "":
		return 2, fmt.Errorf("-func and -run are exclusive")
	}
	// a script is parsed whole before the program is loaded: a command
	// that does not parse costs no load
	var script []scriptLine
	if f.script != "" {
		if script, err = readScript(f.script); err != nil {
			return 2, err
		}
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	// a function is looked for without the _test.go files first (a
	// fraction of the load), then with them
	load := x.loader(e)
	p, err := load(ctx, explore.LoadConfig{Patterns: pkgs, NoTests: f.fn != ""})
	var entry *explore.Entry
	if err == nil {
		entry, err = debugEntry(ctx, p, f, pkgs)
		if err != nil && f.fn != "" {
			if p, err = load(ctx, explore.LoadConfig{Patterns: pkgs}); err == nil {
				entry, err = debugEntry(ctx, p, f, pkgs)
			}
		}
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	stop()
	if err != nil {
		return 2, err
	}
	opts := explore.Options{Shared: f.shared, Seed: f.seed, MaxSteps: f.maxSteps, MaxLoop: f.maxLoop, Timeout: f.timeout}
	s := p.NewSession(entry, opts)
	defer s.Clear() // release the steps' suspended searches
	dbg := newDebugger(s, entry, e.stdout)
	if f.script != "" {
		return dbg.runScript(f.script, script)
	}
	return dbg.interact(newLineSource(e.stdin, e.stdout), e.stderr)
}

// debugEntry selects the one function or test the session runs; ctx
// bounds the runs that discover subtests, as it bounds the load.
func debugEntry(ctx context.Context, p *explore.Program, f debugFlags, pkgs []string) (*explore.Entry, error) {
	if f.fn != "" {
		entry, err := p.Func(f.fn)
		if err != nil {
			return nil, fmt.Errorf("-func: %w", err)
		}
		if entry.TakesT || len(entry.Fn.Params) > 0 {
			return nil, fmt.Errorf("-func: %s takes parameters; ltl debug runs a function without parameters or a test (-run)", entry.Name)
		}
		return entry, nil
	}
	var run *explore.RunPattern
	if f.run != "" {
		var err error
		if run, err = explore.ParseRun(f.run); err != nil {
			return nil, fmt.Errorf("-run: %w", err)
		}
	}
	var tests []*explore.Entry
	for _, t := range p.Tests(nil) {
		if !run.Match(t.Fn.Name()) {
			continue
		}
		subs, err := p.Subtests(ctx, t, run, explore.Options{})
		if err != nil {
			return nil, err
		}
		tests = append(tests, subs...)
	}
	switch {
	case len(tests) == 1:
		return tests[0], nil
	case len(tests) == 0 && f.run != "":
		return nil, fmt.Errorf("no Test function of %s matches -run %q", strings.Join(pkgs, " "), f.run)
	case len(tests) == 0:
		return nil, fmt.Errorf("no Test function in %s; -func names a function", strings.Join(pkgs, " "))
	}
	return nil, fmt.Errorf("ltl debug runs one test, and %d match (%s): select one with -run (anchor each level, e.g. -run '^TestX$/^case$') or use -func", len(tests), testNames(tests))
}

// scriptLine is one parsed line of a script.
type scriptLine struct {
	n    int // line number, from 1
	text string
	cmd  *debugCommand
}

// readScript reads and parses a script; the error lists every line that
// does not parse, as FILE:LINE:COL.
func readScript(name string) ([]scriptLine, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("-script: %w", err)
	}
	var out []scriptLine
	var errs []error
	for i, text := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		text = strings.TrimRight(text, "\r")
		c, err := parseDebugCommand(text)
		if err != nil {
			var se *debugSyntaxError
			if errors.As(err, &se) {
				err = fmt.Errorf("%s:%d:%d: %s", name, i+1, se.Off+1, se.Msg)
			}
			errs = append(errs, err)
			continue
		}
		out = append(out, scriptLine{n: i + 1, text: text, cmd: c})
	}
	return out, errors.Join(errs...)
}
