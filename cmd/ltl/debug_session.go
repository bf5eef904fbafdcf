package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltl"
)

// debugger runs the commands of one ltl debug session over an
// explore.Session and prints their outcome. It owns the session, the
// default step options, the watched expressions and the last search
// result (which expect checks).
type debugger struct {
	s     *explore.Session
	entry *explore.Entry
	out   io.Writer
	// defaults are the step options of push (the set command).
	defaults explore.StepOptions
	watches  []string
	// last is the result of the last search request (push, backtrack,
	// step); nil before the first.
	last *explore.StepResult
	// failed counts the expectations that did not hold.
	failed int
	// cwd shortens the positions shown.
	cwd string
	// history returns the command lines read so far.
	history func() []string
}

func newDebugger(s *explore.Session, e *explore.Entry, out io.Writer) *debugger {
	cwd, _ := os.Getwd()
	return &debugger{s: s, entry: e, out: out, cwd: cwd}
}

// errQuit ends a session.
var errQuit = errors.New("quit")

// inputError is an error of the user's input to a command (a bad
// formula, goroutine or expression, a pop on an empty stack): the
// command did nothing. A script stops at one (exit status 2); an
// interactive session prints it and goes on.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// exec runs one parsed command. Errors are *inputError values, or
// errQuit.
func (d *debugger) exec(c *debugCommand) error {
	if c.verb == nil {
		return nil
	}
	// a search runs until it ends or the user interrupts it (Ctrl-C)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	switch c.verb.name {
	case "push":
		err = formulaError(d.search(d.s.Push(ctx, c.rest, c.flags.apply(d.defaults))), c.restOff)
	case "backtrack":
		err = d.search(d.s.Backtrack(ctx))
	case "step":
		err = d.search(d.s.Single(ctx, c.args[0]))
	case "pop":
		if err = d.s.Pop(); err == nil {
			d.printf("popped: %s\n", d.depthLine())
			d.showState()
		}
	case "clear":
		d.s.Clear()
		d.printf("cleared: at the initial state\n")
		d.showState()
	case "path":
		d.showPath()
	case "stack":
		d.showStack()
	case "state":
		d.showState()
	case "watch":
		err = d.watch(c.rest)
	case "unwatch":
		err = d.unwatch(c.rest)
	case "set":
		d.defaults = c.flags.apply(d.defaults)
		d.printf("defaults: %s\n", formatStepOptions(d.defaults))
	case "replay":
		if cur := d.s.Current(); cur.Err != nil {
			err = cur.Err
		} else {
			d.printf("replay: %s\n", d.s.Replay())
		}
	case "history":
		d.showHistory()
	case "expect":
		d.check(&c.expect)
	case "help":
		err = d.help(c.rest)
	case "quit":
		return errQuit
	}
	var se *debugSyntaxError
	if err != nil && !errors.As(err, &se) {
		return &inputError{err}
	}
	return err
}

// formulaError turns a syntax error in a formula that starts at offset
// off of the command line into a *debugSyntaxError at its column.
func formulaError(err error, off int) error {
	var se *ltl.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	found := "end of input"
	if se.Found != "" {
		found = strconv.Quote(se.Found)
	}
	return &debugSyntaxError{Off: off + se.Offset, Msg: fmt.Sprintf("formula: expected %s, found %s", se.Expected, found)}
}

// search prints the outcome of a search request and the state it leads
// to.
func (d *debugger) search(r *explore.StepResult, err error) error {
	if err != nil {
		return err
	}
	d.last = r
	stats := fmt.Sprintf("%s, %s", plural(r.Nodes, "execution"), plural(r.States, "state"))
	switch r.Verdict {
	case explore.Found:
		st := r.Step
		d.printf("found: step %d, alternative %d: %s (%s)\n", len(d.s.Steps()), st.Alternative, plural(st.Steps, "move"), stats)
		if moves := d.moves(st); len(moves) > 0 {
			d.printf("  moves: %s\n", strings.Join(moves, " "))
		}
		if r.InfiniteChain {
			d.printf("  infinite chain: the states from %d on repeat (a cycle of accepting states): ever-longer steps exist without end\n", st.LoopFrom)
		}
	case explore.None:
		d.printf("none: no step (complete search: %s)\n", stats)
	default:
		d.printf("unknown: the search was cut by the %s bound before it found a step; nothing is proved (%s)\n", r.Bound, stats)
	}
	if r.Popped {
		d.printf("popped: no alternative left; %s\n", d.depthLine())
	}
	if r.Verdict == explore.Found || r.Popped {
		d.showState()
	}
	return nil
}

// depthLine names the current state by the stack's depth.
func (d *debugger) depthLine() string {
	if n := len(d.s.Steps()); n > 0 {
		return fmt.Sprintf("at the end of step %d", n)
	}
	return "at the initial state"
}

// moves lists the moves of a step: each state's goroutine and the label
// it is at after the move ("-" for none).
func (d *debugger) moves(st *explore.TemporalStep) []string {
	if st.Witness == nil || len(st.States) < 2 {
		return nil
	}
	var out []string
	for _, s := range st.States[1:] {
		l := s.At[s.Goroutine]
		if l == "" {
			l = "-"
		}
		out = append(out, shortName(st.Goroutines[s.Goroutine], s.Goroutine)+":"+l)
	}
	return out
}

// shortName is a goroutine's function name without its package path
// ("P0" for example.com/dekker.P0), or its number.
func shortName(name string, id int) string {
	if name == "" {
		return strconv.Itoa(id)
	}
	name = name[strings.LastIndexByte(name, '/')+1:]
	if i := strings.IndexByte(name, '.'); i >= 0 && i+1 < len(name) {
		name = name[i+1:]
	}
	return name
}

// showState prints the current state: a row per goroutine, then the
// watched expressions.
func (d *debugger) showState() {
	cur := d.s.Current()
	if cur.Err != nil {
		d.printf("state: %v\n", cur.Err)
		return
	}
	head := fmt.Sprintf("state after %s", plural(cur.Step, "scheduling step"))
	switch {
	case cur.Deadlock:
		head += " (deadlock: no goroutine can move, some are blocked)"
	case cur.Terminal:
		head += " (terminated)"
	}
	d.printf("%s:\n", head)
	tw := d.table()
	fmt.Fprintf(tw, "  G\tgoroutine\tlabel\tlabel at\tstands at\n")
	for _, g := range cur.Goroutines {
		label := g.Label
		if label == "" {
			label = "-"
		}
		pos := d.shortPos(g.Pos)
		switch {
		case g.Exited:
			pos = "exited"
		case !g.CanMove:
			pos += " (blocked)"
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\n", g.ID, shortName(g.Name, g.ID), label, d.shortPos(g.LabelPos), pos)
	}
	tw.flush()
	for _, w := range d.watches {
		v, err := d.s.Eval(w)
		if err != nil {
			v = "error: " + err.Error()
		}
		d.printf("  %s = %s\n", w, v)
	}
}

// shortPos makes a file:line:col position relative to the working
// directory when it is below it.
func (d *debugger) shortPos(pos string) string {
	if pos == "" {
		return "-"
	}
	if d.cwd != "" {
		if rel, err := filepath.Rel(d.cwd, pos); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return pos
}

// showPath prints every state of the stack's path.
func (d *debugger) showPath() {
	steps := d.s.Steps()
	names := map[int]string{}
	for _, st := range steps {
		for id, n := range st.Goroutines {
			names[id] = n
		}
	}
	path := d.s.Path()
	if path == nil {
		d.printf("path: %v\n", d.s.Current().Err)
		return
	}
	// the temporal step each state ends: a state belongs to the step
	// whose moves reach it
	ends := map[int]int{}
	n := 0
	for i, st := range steps {
		n += st.Steps
		ends[n] = i + 1
	}
	tw := d.table()
	fmt.Fprintf(tw, "  #\tstep\tmove\tlabels\tatoms\n")
	for i, s := range path {
		move := "start"
		if s.Goroutine > 0 {
			move = shortName(names[s.Goroutine], s.Goroutine)
		}
		ids := make([]int, 0, len(s.At))
		for g := range s.At {
			ids = append(ids, g)
		}
		slices.Sort(ids)
		var at []string
		for _, g := range ids {
			at = append(at, shortName(names[g], g)+"@"+s.At[g])
		}
		mark := ""
		if k, ok := ends[i]; ok && i > 0 {
			mark = fmt.Sprintf("  ← end of step %d", k)
		}
		fmt.Fprintf(tw, "  %d\t%d\t%s\t%s\t%s%s\n", i, s.Step, move, strings.Join(at, " "), strings.Join(s.Atoms, ", "), mark)
	}
	tw.flush()
}

// showStack prints the temporal steps, oldest first.
func (d *debugger) showStack() {
	steps := d.s.Steps()
	if len(steps) == 0 {
		d.printf("stack: empty (at the initial state)\n")
		return
	}
	tw := d.table()
	fmt.Fprintf(tw, "  #\tformula\toptions\talternative\tmoves\n")
	for i, st := range steps {
		opts := formatStepOptions(st.Options)
		if strings.HasPrefix(st.Formula, "single ") {
			opts = "-"
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%d\t%d\n", i+1, st.Formula, opts, st.Alternative, st.Steps)
	}
	tw.flush()
}

// watch adds an expression shown with every state; it must evaluate in
// the current state.
func (d *debugger) watch(expr string) error {
	v, err := d.s.Eval(expr)
	if err != nil {
		return err
	}
	if !slices.Contains(d.watches, expr) {
		d.watches = append(d.watches, expr)
	}
	d.printf("watch %d: %s = %s\n", slices.Index(d.watches, expr)+1, expr, v)
	return nil
}

// unwatch removes a watched expression: by text, by number (from 1), or
// all of them ("all" or nothing).
func (d *debugger) unwatch(arg string) error {
	if arg == "" || arg == "all" {
		d.watches = nil
		d.printf("no watched expressions\n")
		return nil
	}
	i := slices.Index(d.watches, arg)
	if n, err := strconv.Atoi(arg); err == nil && i < 0 {
		if n < 1 || n > len(d.watches) {
			return fmt.Errorf("unwatch: no watched expression %d (%s watched)", n, plural(len(d.watches), "expression"))
		}
		i = n - 1
	}
	if i < 0 {
		return fmt.Errorf("unwatch: %q is not watched", arg)
	}
	d.printf("unwatched: %s\n", d.watches[i])
	d.watches = slices.Delete(d.watches, i, i+1)
	return nil
}

func (d *debugger) showHistory() {
	if d.history == nil {
		return
	}
	n := 0
	for _, l := range d.history() {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n++
		d.printf("  %d  %s\n", n, l)
	}
}

// commandsHelp lists the commands, the flags of push and set, and the
// forms of expect.
func commandsHelp() string {
	var b strings.Builder
	b.WriteString("Commands:\n")
	tw := newTable(&b)
	for _, v := range debugVerbs {
		name := v.synopsis
		if len(v.aliases) > 0 {
			name += " (" + strings.Join(v.aliases, ", ") + ")"
		}
		first, _, _ := strings.Cut(v.help, ". ")
		first, _, _ = strings.Cut(first, ":")
		fmt.Fprintf(tw, "  %s\t%s\n", name, strings.TrimSuffix(first, "."))
	}
	tw.flush()
	b.WriteString(stepFlagsHelp)
	b.WriteString("\nexpect WHAT:\n")
	b.WriteString(expectHelp)
	b.WriteString("\n")
	return b.String()
}

// help prints the command list, or one command's help.
func (d *debugger) help(arg string) error {
	if arg == "" {
		d.printf("%s", commandsHelp())
		return nil
	}
	v := lookupVerb(arg)
	if v == nil {
		return fmt.Errorf("help: unknown command %q", arg)
	}
	d.printf("%s\n  %s\n", v.synopsis, v.help)
	if v.kind == argsFormula || v.kind == argsFlags {
		d.printf("%s\n", stepFlagsHelp)
	}
	return nil
}

// table is a table of tab-separated cells written to w on flush, in
// aligned columns without trailing blanks.
type table struct {
	w   io.Writer
	buf strings.Builder
	tw  *tabwriter.Writer
}

func newTable(w io.Writer) *table {
	t := &table{w: w}
	t.tw = tabwriter.NewWriter(&t.buf, 0, 0, 2, ' ', 0)
	return t
}

func (d *debugger) table() *table { return newTable(d.out) }

func (t *table) Write(p []byte) (int, error) { return t.tw.Write(p) }

func (t *table) flush() {
	t.tw.Flush()
	for _, l := range strings.Split(strings.TrimSuffix(t.buf.String(), "\n"), "\n") {
		fmt.Fprintln(t.w, strings.TrimRight(l, " "))
	}
}

func (d *debugger) printf(format string, args ...any) {
	fmt.Fprintf(d.out, format, args...)
}

// runScript runs a parsed script, echoing each line with its output. It
// stops at an input error (status 2) or quit; the status is 1 when an
// expectation failed.
func (d *debugger) runScript(name string, lines []scriptLine) (int, error) {
	var ran []string
	d.history = func() []string { return ran }
	for _, l := range lines {
		if l.cmd.verb == nil {
			if strings.TrimSpace(l.text) != "" {
				d.printf("%s\n", l.text)
			}
			continue
		}
		ran = append(ran, l.text)
		d.printf("(ltl) %s\n", l.text)
		err := d.exec(l.cmd)
		if errors.Is(err, errQuit) {
			break
		}
		var se *debugSyntaxError
		switch {
		case errors.As(err, &se):
			return 2, fmt.Errorf("%s:%d:%d: %s", name, l.n, se.Off+1, se.Msg)
		case err != nil:
			return 2, fmt.Errorf("%s:%d: %w", name, l.n, err)
		}
	}
	return d.status(), nil
}

// interact reads commands from src until quit or the end of input.
func (d *debugger) interact(src lineSource, stderr io.Writer) (int, error) {
	d.history = src.lines
	d.printf("ltl debug: %s (help lists the commands)\n", d.entry.Name)
	d.showState()
	for {
		line, err := src.readLine("(ltl) ")
		switch {
		case errors.Is(err, errInterrupted):
			continue
		case err == io.EOF:
			return d.status(), nil
		case err != nil:
			return 2, err
		}
		c, err := parseDebugCommand(line)
		if err == nil {
			err = d.exec(c)
		}
		if errors.Is(err, errQuit) {
			return d.status(), nil
		}
		if err != nil {
			var se *debugSyntaxError
			if _, term := src.(*rawTerminal); term && errors.As(err, &se) {
				// point at the column under the line typed
				fmt.Fprintf(stderr, "%s^ %s\n", strings.Repeat(" ", len("(ltl) ")+len([]rune(line[:min(se.Off, len(line))]))), se.Msg)
				continue
			}
			fmt.Fprintf(stderr, "error: %s\n", oneLine(err.Error()))
		}
	}
}

// status is the exit status of a session: 1 when an expectation failed.
func (d *debugger) status() int {
	if d.failed > 0 {
		return 1
	}
	return 0
}
