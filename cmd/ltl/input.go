package main

import (
	"fmt"
	"io"
	"os"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// parseFormula parses the value of a formula flag; errors name the flag and
// the byte offset.
func parseFormula(flagName, src string) (ltl.Formula, error) {
	if src == "" {
		return ltl.Formula{}, fmt.Errorf("-%s: a formula is required", flagName)
	}
	f, err := ltl.Parse(src)
	if err != nil {
		return ltl.Formula{}, fmt.Errorf("-%s: %w", flagName, err)
	}
	return f, nil
}

// readTrace reads the trace named by the positional arguments: a file, or
// standard input when there is none or it is "-".
func readTrace(e *env, args []string) (*monitor.Trace, error) {
	in, name, closeIn, err := openTrace(e, args)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	return monitor.ReadTrace(in, name)
}

// openTrace opens the trace named by the positional arguments and returns
// it with its name for error messages and a function that closes it.
func openTrace(e *env, args []string) (io.Reader, string, func(), error) {
	switch {
	case len(args) > 1:
		return nil, "", nil, fmt.Errorf("expected at most one trace file, got %d arguments", len(args))
	case len(args) == 0 || args[0] == "-":
		return e.stdin, "<stdin>", func() {}, nil
	}
	f, err := os.Open(args[0])
	if err != nil {
		return nil, "", nil, err
	}
	return f, args[0], func() { f.Close() }, nil
}

// semanticsFlag registers -semantics on fs.
func semanticsFlag(fs interface {
	Func(name, usage string, fn func(string) error)
}, sem *ltl.Semantics) {
	fs.Func("semantics", "`ltlf` (default) or rosu-havelund", func(s string) error {
		v, ok := ltl.ParseSemantics(s)
		if !ok {
			return fmt.Errorf("unknown semantics %q (want ltlf or rosu-havelund)", s)
		}
		*sem = v
		return nil
	})
}
