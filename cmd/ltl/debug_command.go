package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/henceforth-go/henceforth/explore"
)

// This file is the command language of ltl debug: one command a line,
//
//	push [FLAGS] FORMULA   (or find) a temporal step from the current state
//	backtrack              (or bt, next) the latest step's next alternative
//	pop                    discard the latest step
//	step G                 one move of goroutine G (a single step)
//	clear                  back to the initial state
//	path, stack, state     show the path, the temporal steps, the state
//	watch EXPR, unwatch [EXPR|N|all]
//	set [FLAGS]            the default step options (no flags: show them)
//	replay, history, help [COMMAND], quit
//	expect WHAT            check the session (a script is a test)
//
// parseDebugCommand reads one line into a debugCommand; its errors are
// *debugSyntaxError values with the byte offset of the problem, so that a
// script names file:line:col.

// debugCommand is one parsed command line.
type debugCommand struct {
	// verb is the command (nil for a blank or comment line).
	verb *debugVerb
	// args are the words after the verb (after the flags for push and
	// set).
	args []string
	// rest is the text after the verb (after the flags for push) with
	// surrounding blanks removed, and restOff its byte offset: the
	// formula of push, the expression of watch and expect holds.
	rest    string
	restOff int
	// flags are the step options push and set name.
	flags stepFlags
	// expect is the expectation of an expect command.
	expect expectation
}

// debugSyntaxError is a command line that does not parse. Off is the byte
// offset in the line of the word at fault.
type debugSyntaxError struct {
	Off int
	Msg string
}

func (e *debugSyntaxError) Error() string { return fmt.Sprintf("col %d: %s", e.Off+1, e.Msg) }

func syntaxErrorf(off int, format string, args ...any) error {
	return &debugSyntaxError{Off: off, Msg: fmt.Sprintf(format, args...)}
}

// argKind is the argument syntax of a verb.
type argKind uint8

const (
	argsNone    argKind = iota // no arguments
	argsFormula                // step flags, then the rest of the line (required)
	argsFlags                  // step flags only
	argsWord                   // exactly one word
	argsRest                   // the rest of the line (required)
	argsOptRest                // the rest of the line, optional
	argsExpect                 // an expectation
)

// debugVerb is one command of the language.
type debugVerb struct {
	name     string
	aliases  []string
	kind     argKind
	synopsis string
	help     string
}

// debugVerbs is the command table, in the order help lists it.
var debugVerbs = []*debugVerb{
	{name: "push", aliases: []string{"find"}, kind: argsFormula, synopsis: "push [FLAGS] FORMULA",
		help: "search a temporal step satisfying FORMULA from the current state and push it: its last state becomes the current state. FLAGS override the defaults of set for this step."},
	{name: "backtrack", aliases: []string{"bt", "next"}, kind: argsNone, synopsis: "backtrack",
		help: "resume the latest step's search for its next alternative, which replaces the step; when none is left, the step is popped."},
	{name: "pop", kind: argsNone, synopsis: "pop",
		help: "discard the latest step and its search: back to the previous step's last state."},
	{name: "step", aliases: []string{"single", "s"}, kind: argsWord, synopsis: "step G",
		help: "push a step of one move of goroutine G (its number, or the function it was started with); backtrack gives its other moves."},
	{name: "clear", kind: argsNone, synopsis: "clear",
		help: "pop every step: back to the initial state."},
	{name: "path", kind: argsNone, synopsis: "path",
		help: "show the states of the stack's path, from the initial state."},
	{name: "stack", kind: argsNone, synopsis: "stack",
		help: "show the temporal steps, oldest first."},
	{name: "state", aliases: []string{"where"}, kind: argsNone, synopsis: "state",
		help: "show the current state: each goroutine's last label and position, and the watched expressions."},
	{name: "watch", kind: argsRest, synopsis: "watch EXPR",
		help: "show the value of the Go expression EXPR (over package-level variables) with every state."},
	{name: "unwatch", kind: argsOptRest, synopsis: "unwatch [EXPR|N|all]",
		help: "stop watching EXPR, the N-th watched expression, or all (the default)."},
	{name: "set", kind: argsFlags, synopsis: "set [FLAGS]",
		help: "set the default options of push; without FLAGS, show them."},
	{name: "replay", kind: argsNone, synopsis: "replay",
		help: "print the replay token of the current state: its schedule from the program start, which explore.FindOptions.Replay replays."},
	{name: "history", kind: argsNone, synopsis: "history",
		help: "list the commands of the session."},
	{name: "expect", kind: argsExpect, synopsis: "expect WHAT",
		help: "check the session; a failed expectation makes ltl debug exit 1. WHAT is one of:\n" + expectHelp},
	{name: "help", aliases: []string{"?"}, kind: argsOptRest, synopsis: "help [COMMAND]",
		help: "list the commands, or explain one."},
	{name: "quit", aliases: []string{"exit", "q"}, kind: argsNone, synopsis: "quit",
		help: "end the session."},
}

// stepFlagsHelp documents the flags of push and set.
const stepFlagsHelp = `FLAGS (push and set):
  -bfs | -dfs | -iddfs     search order: breadth-first (shortest first), depth-first,
                           or iterative deepening (memoryless)
  -min | -max | -every     step size: minimal (stop at the first accepting state),
                           maximal (not extensible in the search tree; depth-first),
                           or every accepting end state, one per backtrack
  -max-length N            bound on the moves of a step
  -max-nodes N             bound on the executions of one search request
  -distinct-end[=false]    refuse an alternative ending where an earlier one ended
  -distinct-seq[=false]    refuse an alternative whose state sequence was reported
  -all-paths[=false]       search without the visited set (exponential)
  -default                 (set only) back to the built-in defaults
  --                       ends the flags (a formula that starts with '-')`

// expectHelp documents the forms of expect.
const expectHelp = `  found | none | unknown   the verdict of the last search (push, backtrack, step)
  popped                   the last backtrack found no alternative and popped the step
  chain                    the last search found an infinite chain of ever-longer steps
  at G L                   goroutine G's last label is L (- for none)
  holds EXPR               the Go expression EXPR is true in the current state
  value EXPR = V           the Go expression EXPR prints as V in the current state
  moves G:L ...            the latest step's moves, in order (each the goroutine and
                           the label it reached; G:- a move to no label)
  labels G L ...           the labels goroutine G reaches in the latest step, as a set
  steps N                  the latest step has N moves
  depth N                  the stack holds N temporal steps`

// lookupVerb returns the verb named name or one of its aliases.
func lookupVerb(name string) *debugVerb {
	for _, v := range debugVerbs {
		if v.name == name {
			return v
		}
		for _, a := range v.aliases {
			if a == name {
				return v
			}
		}
	}
	return nil
}

// word is a blank-separated word of a command line and its byte offset.
type word struct {
	text string
	off  int
}

// splitWords splits s (which starts at offset base of the line) at blanks.
func splitWords(s string, base int) []word {
	var out []word
	start := -1
	for i, r := range s {
		blank := r == ' ' || r == '\t'
		switch {
		case blank && start >= 0:
			out = append(out, word{s[start:i], base + start})
			start = -1
		case !blank && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, word{s[start:], base + start})
	}
	return out
}

// restAfter returns the text of line after word w, trimmed, and its offset.
func restAfter(line string, w word) (string, int) {
	end := w.off + len(w.text)
	rest := line[end:]
	trimmed := strings.TrimLeft(rest, " \t")
	return strings.TrimRight(trimmed, " \t"), end + len(rest) - len(trimmed)
}

// parseDebugCommand parses one command line. A blank line or a comment
// (# to the end of the line) gives a command with a nil verb.
func parseDebugCommand(line string) (*debugCommand, error) {
	line = strings.TrimRight(line, "\r\n")
	words := splitWords(line, 0)
	c := &debugCommand{}
	if len(words) == 0 || strings.HasPrefix(words[0].text, "#") {
		return c, nil
	}
	c.verb = lookupVerb(words[0].text)
	if c.verb == nil {
		return nil, syntaxErrorf(words[0].off, "unknown command %q (help lists the commands)", words[0].text)
	}
	c.rest, c.restOff = restAfter(line, words[0])
	args := words[1:]
	switch c.verb.kind {
	case argsNone:
		if len(args) > 0 {
			return nil, syntaxErrorf(args[0].off, "%s takes no arguments", c.verb.name)
		}
	case argsWord:
		if len(args) != 1 {
			off := words[0].off + len(words[0].text)
			if len(args) > 1 {
				off = args[1].off
			}
			return nil, syntaxErrorf(off, "%s takes one argument: %s", c.verb.name, c.verb.synopsis)
		}
	case argsRest:
		if c.rest == "" {
			return nil, syntaxErrorf(c.restOff, "%s needs an argument: %s", c.verb.name, c.verb.synopsis)
		}
	case argsFormula, argsFlags:
		n, err := c.flags.parse(args, c.verb.kind == argsFlags)
		if err != nil {
			return nil, err
		}
		if c.verb.kind == argsFlags {
			break
		}
		if n == len(args) {
			return nil, syntaxErrorf(len(line), "%s needs a formula: %s", c.verb.name, c.verb.synopsis)
		}
		c.rest, c.restOff = line[args[n].off:], args[n].off
		c.rest = strings.TrimRight(c.rest, " \t")
		args = args[n:]
	case argsExpect:
		if err := c.expect.parse(line, args); err != nil {
			return nil, err
		}
	}
	for _, a := range args {
		c.args = append(c.args, a.text)
	}
	return c, nil
}

// stepFlags are the step options a push or set line names, as edits of
// the options they apply to (the defaults of set), in the order given.
type stepFlags struct {
	edits []func(*explore.StepOptions)
}

// on records an edit.
func (f *stepFlags) on(edit func(*explore.StepOptions)) { f.edits = append(f.edits, edit) }

// parse reads the leading flags of args and returns how many words they
// took. "--" ends the flags. onlyFlags: every word must be a flag (set).
func (f *stepFlags) parse(args []word, onlyFlags bool) (int, error) {
	i := 0
	for i < len(args) {
		a := args[i]
		if a.text == "--" {
			if onlyFlags {
				return 0, syntaxErrorf(a.off, "set takes only flags")
			}
			return i + 1, nil
		}
		if !strings.HasPrefix(a.text, "-") || a.text == "-" {
			if onlyFlags {
				return 0, syntaxErrorf(a.off, "set takes only flags, not %q", a.text)
			}
			return i, nil
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a.text, "-"), "=")
		boolValue := func() (bool, error) {
			if !hasValue {
				return true, nil
			}
			b, err := strconv.ParseBool(value)
			if err != nil {
				return false, syntaxErrorf(a.off, "-%s: want true or false, got %q", name, value)
			}
			return b, nil
		}
		noValue := func() error {
			if hasValue {
				return syntaxErrorf(a.off, "-%s takes no value", name)
			}
			return nil
		}
		intValue := func() (int, error) {
			v, off := value, a.off
			if !hasValue {
				if i+1 == len(args) {
					return 0, syntaxErrorf(a.off, "-%s needs a number", name)
				}
				i++
				v, off = args[i].text, args[i].off
			}
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return 0, syntaxErrorf(off, "-%s: want a positive number, got %q", name, v)
			}
			return n, nil
		}
		var err error
		switch name {
		case "bfs", "dfs", "iddfs":
			err = noValue()
			mode := map[string]explore.SearchMode{"bfs": explore.BFS, "dfs": explore.DepthFirst, "iddfs": explore.IterativeDeepening}[name]
			f.on(func(o *explore.StepOptions) { o.Search = mode })
		case "min", "max", "every":
			err = noValue()
			size := map[string]explore.StepSize{"min": explore.Minimal, "max": explore.Maximal, "every": explore.EveryEnd}[name]
			f.on(func(o *explore.StepOptions) { o.Size = size })
		case "max-length", "length":
			var n int
			n, err = intValue()
			f.on(func(o *explore.StepOptions) { o.MaxLength = n })
		case "max-nodes", "nodes":
			var n int
			n, err = intValue()
			f.on(func(o *explore.StepOptions) { o.MaxNodes = n })
		case "distinct-end", "distinct-seq", "distinct-sequences", "all-paths":
			var b bool
			b, err = boolValue()
			field := map[string]func(*explore.StepOptions) *bool{
				"distinct-end":       func(o *explore.StepOptions) *bool { return &o.DistinctEnd },
				"distinct-seq":       func(o *explore.StepOptions) *bool { return &o.DistinctSequences },
				"distinct-sequences": func(o *explore.StepOptions) *bool { return &o.DistinctSequences },
				"all-paths":          func(o *explore.StepOptions) *bool { return &o.AllPaths },
			}[name]
			f.on(func(o *explore.StepOptions) { *field(o) = b })
		case "default":
			if !onlyFlags {
				return 0, syntaxErrorf(a.off, "-default is a flag of set")
			}
			err = noValue()
			f.on(func(o *explore.StepOptions) { *o = explore.StepOptions{} })
		default:
			return 0, syntaxErrorf(a.off, "unknown flag -%s (help push lists the flags)", name)
		}
		if err != nil {
			return 0, err
		}
		i++
	}
	return i, nil
}

// apply returns o edited by the flags.
func (f *stepFlags) apply(o explore.StepOptions) explore.StepOptions {
	for _, edit := range f.edits {
		edit(&o)
	}
	return o
}

// formatStepOptions prints o as the flags that give it.
func formatStepOptions(o explore.StepOptions) string {
	search := o.Search
	if search == "" {
		search = explore.BFS
		if o.Size == explore.Maximal {
			search = explore.DepthFirst
		}
	}
	size := o.Size
	if size == "" {
		size = explore.Minimal
	}
	parts := []string{"-" + string(search), "-" + string(size)}
	if o.MaxLength > 0 {
		parts = append(parts, fmt.Sprintf("-max-length %d", o.MaxLength))
	}
	if o.MaxNodes > 0 {
		parts = append(parts, fmt.Sprintf("-max-nodes %d", o.MaxNodes))
	}
	for _, b := range []struct {
		on   bool
		name string
	}{{o.DistinctEnd, "-distinct-end"}, {o.DistinctSequences, "-distinct-seq"}, {o.AllPaths, "-all-paths"}} {
		if b.on {
			parts = append(parts, b.name)
		}
	}
	return strings.Join(parts, " ")
}

// expectKind is what an expect command checks.
type expectKind uint8

const (
	expectVerdict expectKind = iota + 1 // found, none, unknown
	expectPopped
	expectChain
	expectAt
	expectHolds
	expectValue
	expectMoves
	expectLabels
	expectSteps
	expectDepth
)

// expectation is a parsed expect command.
type expectation struct {
	kind expectKind
	// verdict (expectVerdict), goroutine and label (expectAt, expectLabels),
	// expr and value (expectHolds, expectValue), moves (expectMoves:
	// "G:L"), labels (expectLabels), n (expectSteps, expectDepth).
	verdict   string
	goroutine string
	label     string
	expr      string
	value     string
	moves     []string
	labels    []string
	n         int
}

// parse reads the words after expect.
func (x *expectation) parse(line string, args []word) error {
	if len(args) == 0 {
		return syntaxErrorf(len(line), "expect needs what to check (help expect)")
	}
	what := args[0]
	rest := args[1:]
	count := func(n int) error {
		if len(rest) != n {
			off := len(line)
			if len(rest) > n {
				off = rest[n].off
			}
			return syntaxErrorf(off, "expect %s takes %s", what.text, plural(n, "argument"))
		}
		return nil
	}
	switch what.text {
	case explore.Found, explore.None, explore.Unknown:
		x.kind, x.verdict = expectVerdict, what.text
		return count(0)
	case "popped":
		x.kind = expectPopped
		return count(0)
	case "chain":
		x.kind = expectChain
		return count(0)
	case "at":
		x.kind = expectAt
		if err := count(2); err != nil {
			return err
		}
		x.goroutine, x.label = rest[0].text, rest[1].text
		return nil
	case "holds":
		x.kind = expectHolds
		if len(rest) == 0 {
			return syntaxErrorf(len(line), "expect holds needs a Go expression")
		}
		x.expr, _ = restAfter(line, what)
		return nil
	case "value":
		x.kind = expectValue
		text, off := restAfter(line, what)
		i := strings.LastIndex(text, " = ")
		if i < 0 {
			return syntaxErrorf(off, "expect value: want EXPR = VALUE")
		}
		x.expr, x.value = strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+3:])
		if x.expr == "" {
			return syntaxErrorf(off, "expect value: want EXPR = VALUE")
		}
		return nil
	case "moves":
		x.kind = expectMoves
		for _, w := range rest {
			if g, l, ok := strings.Cut(w.text, ":"); !ok || g == "" || l == "" {
				return syntaxErrorf(w.off, "expect moves: want G:L, got %q", w.text)
			}
			x.moves = append(x.moves, w.text)
		}
		return nil
	case "labels":
		x.kind = expectLabels
		if len(rest) == 0 {
			return syntaxErrorf(len(line), "expect labels needs a goroutine")
		}
		x.goroutine = rest[0].text
		for _, w := range rest[1:] {
			x.labels = append(x.labels, w.text)
		}
		sort.Strings(x.labels)
		return nil
	case "steps", "depth":
		x.kind = map[string]expectKind{"steps": expectSteps, "depth": expectDepth}[what.text]
		if err := count(1); err != nil {
			return err
		}
		n, err := strconv.Atoi(rest[0].text)
		if err != nil || n < 0 {
			return syntaxErrorf(rest[0].off, "expect %s: want a number, got %q", what.text, rest[0].text)
		}
		x.n = n
		return nil
	}
	return syntaxErrorf(what.off, "expect: unknown expectation %q (help expect)", what.text)
}
