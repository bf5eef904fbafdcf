package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/henceforth-go/henceforth/explore"
)

// A command is one subcommand of ltl.
type command struct {
	name    string
	summary string
	usage   string
	// run executes the command and returns its exit status; errors it
	// returns are usage or input errors (status 2).
	run func(env *env, args []string) (int, error)
}

// env carries the process's streams, so commands are testable in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// load, when set, loads programs for explore and debug in place of
	// explore.Load (tests share loaded programs between runs).
	load func(context.Context, explore.LoadConfig) (*explore.Program, error)
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	os.Exit(run(&env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:]))
}

// run dispatches to a subcommand and maps its outcome to an exit status.
func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fmt.Fprint(e.stdout, c.usage)
				return 0
			}
		}
		printUsage(e.stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "ltl: unknown command %q (run 'ltl help')\n", args[0])
		return 2
	}
	status, err := c.run(e, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(e.stdout, c.usage)
			return 0
		}
		fmt.Fprintf(e.stderr, "ltl %s: %s\n", c.name, oneLine(err.Error()))
		return 2
	}
	return status
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "ltl checks temporal properties of traces and Go programs.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: ltl COMMAND [flags] [args]")
	fmt.Fprintln(w)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status: 0 yes (holds), 1 no (violated), 2 usage or input error.")
	fmt.Fprintln(w, "Run 'ltl help COMMAND' for a command's flags.")
}

// oneLine folds a multi-line message so the error stays one line on stderr.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// newFlags returns a FlagSet that reports errors as values instead of
// printing and exiting.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseInterspersed parses flags that may appear before or after positional
// arguments (`ltl check trace.jsonl -f 'G p'` works like the flags-first
// order) and returns the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
