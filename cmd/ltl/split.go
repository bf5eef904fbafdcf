package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/henceforth-go/henceforth/split"
	"github.com/henceforth-go/henceforth/split/smv"
)

const splitUsage = `Usage: ltl split [-n N] [-workers K] [-property NAME] [-max-refinements R] [-variant A|B] [-timeout D] FILE

Checks the INVARSPEC and LTLSPEC properties of FILE, an asynchronous program
in the SMV subset of package split (modules, process arrays P : array 1..N
of process m(...), COMMANDS, JUSTICE/COMPASSION), compositionally: split
invariants, refinement by exposing local predicates, and the FLL liveness
algorithms. N is the parameter of the program (-n).

Prints one line per property, starting with its verdict:
  proved NAME          the property holds (with the refinements it took)
  violated NAME        followed by the counterexample, an interleaving of
                       moves replayed on the program (a lasso for LTLSPEC)
  unknown NAME: WHY    no verdict: refinement or node limit, timeout,
                       unsupported property

Flags:
  -n N                 the value of N (required when FILE uses N)
  -workers K           goroutines computing split invariants, each with its
                       own BDD store (default 1: sequential)
  -property NAME       check only the property named NAME
  -max-refinements R   refinement limit per property (default 32; 0: none)
  -variant A|B         FLL variant for LTL properties (default B)
  -timeout D           give up on a property after D (e.g. 30s): unknown

Exit status: 0 every property proved, 1 a property violated or unknown
(unknown is never a pass), 2 usage or input error.
`

func init() {
	register(&command{name: "split", summary: "compositional check of a parameterised program", usage: splitUsage, run: runSplit})
}

func runSplit(e *env, args []string) (int, error) {
	fs := newFlags("split")
	n := fs.Int("n", 0, "the parameter `N`")
	workers := fs.Int("workers", 1, "`K` workers")
	name := fs.String("property", "", "check only the property `NAME`")
	maxRef := fs.Int("max-refinements", 32, "refinement limit `R`")
	variant := fs.String("variant", "B", "FLL `variant`: A or B")
	timeout := fs.Duration("timeout", 0, "per-property time limit")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2, err
	}
	if len(pos) != 1 {
		return 2, fmt.Errorf("want one FILE, got %d arguments (run 'ltl help split')", len(pos))
	}
	opts := split.Options{Workers: *workers, MaxRefinements: *maxRef}
	switch {
	case *n < 0:
		return 2, fmt.Errorf("-n: N must be positive, got %d", *n)
	case *workers < 1:
		return 2, fmt.Errorf("-workers: K must be at least 1, got %d", *workers)
	case *maxRef < 0:
		return 2, fmt.Errorf("-max-refinements: R must be at least 0, got %d", *maxRef)
	case *timeout < 0:
		return 2, fmt.Errorf("-timeout: negative duration %v", *timeout)
	}
	if *maxRef == 0 {
		opts.MaxRefinements = -1 // split.Options: 0 is the default, negative none
	}
	switch strings.ToUpper(*variant) {
	case "A":
		opts.Variant = split.VariantA
	case "B":
		opts.Variant = split.VariantB
	default:
		return 2, fmt.Errorf("-variant: unknown variant %q (want A or B)", *variant)
	}
	prog, err := smv.ParseFile(pos[0], *n)
	if err != nil {
		return 2, err
	}
	props, err := selectProperties(prog, pos[0], *name)
	if err != nil {
		return 2, err
	}
	status := 0
	for i, prop := range props {
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if *timeout > 0 {
			ctx, cancel = context.WithTimeout(ctx, *timeout)
		}
		res, err := split.Check(ctx, prog, prop, opts)
		cancel()
		if err != nil {
			return 2, err
		}
		writeSplitResult(e, propertyLabel(prop, i), res)
		if res.Verdict != split.Proved {
			status = 1
		}
	}
	return status, nil
}

// selectProperties returns the properties to check: all of the program's,
// or the one named name.
func selectProperties(prog *split.Program, file, name string) ([]*split.Property, error) {
	props := prog.Properties()
	if len(props) == 0 {
		return nil, fmt.Errorf("%s: no INVARSPEC or LTLSPEC to check", file)
	}
	// In the order of the file (the program lists invariants first).
	props = append([]*split.Property(nil), props...)
	sort.SliceStable(props, func(i, j int) bool {
		a, b := props[i].Pos, props[j].Pos
		return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col)
	})
	if name == "" {
		return props, nil
	}
	var names []string
	for _, p := range props {
		if p.Name == name {
			return []*split.Property{p}, nil
		}
		if p.Name != "" {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("-property: %s has no named properties (write INVARSPEC NAME %s := ...)", file, name)
	}
	return nil, fmt.Errorf("-property: %s has no property %q (it has %s)", file, name, strings.Join(names, ", "))
}

// propertyLabel names a property in the output: its NAME, else its kind,
// position and index.
func propertyLabel(p *split.Property, i int) string {
	if p.Name != "" {
		return p.Name
	}
	kw := "INVARSPEC"
	if p.Kind == split.KindLTL {
		kw = "LTLSPEC"
	}
	if p.Pos.IsValid() {
		return fmt.Sprintf("%s at %s", kw, p.Pos)
	}
	return fmt.Sprintf("%s #%d", kw, i+1)
}

// writeSplitResult prints the verdict line of one property and, for a
// violation, the counterexample indented under it.
func writeSplitResult(e *env, label string, res *split.Result) {
	w := e.stdout
	dur := res.Duration.Round(time.Millisecond)
	switch res.Verdict {
	case split.Proved:
		fmt.Fprintf(w, "proved %s (%d refinements, %v)\n", label, res.Refinements, dur)
		for _, x := range res.Exposed {
			fmt.Fprintf(w, "  exposed %s\n", x)
		}
	case split.Violated:
		fmt.Fprintf(w, "violated %s (%d refinements, %v)\n", label, res.Refinements, dur)
		cex := res.Counterexample
		if cex == nil {
			return
		}
		if cex.Loop >= 0 {
			fmt.Fprintf(w, "  counterexample: a lasso of %d moves; the moves from state %d repeat forever\n", len(cex.Steps), cex.Loop)
		} else {
			fmt.Fprintf(w, "  counterexample: %d moves to a state that violates %s\n", len(cex.Steps), label)
		}
		for _, line := range strings.Split(strings.TrimRight(cex.String(), "\n"), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	default:
		fmt.Fprintf(w, "unknown %s: %s\n", label, oneLine(res.Reason))
	}
}
