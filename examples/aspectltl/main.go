// Command aspectltl is a runnable tour of AspectLTL with henceforth's synth
// package, on the running example of the JTLV thesis (§3.2): the
// ExamService base system (examservice.altl) and its aspects, one file
// each. It weaves ExamService with Tuition and AvailabilityNotWait and
// traces the synthesized program's moves back to the modules that justify
// them, then shows why Tuition and Availability cannot be woven together.
//
//	go run ./examples/aspectltl
//
// The same from the command line:
//
//	cd examples/aspectltl
//	go run ../../cmd/ltl synth -trace examservice.altl tuition.altl availabilitynotwait.altl
//	go run ../../cmd/ltl synth examservice.altl tuition.altl availability.altl
//
// aspectltl_test.go checks every result of the thesis's table, and package
// examctl holds the program synthesized from all six aspects.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/henceforth-go/henceforth/synth"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// weave reads ExamService and the aspects in the named files.
func weave(files ...string) (*synth.Weaving, error) {
	spec, err := synth.ParseAspectLTLFiles(append([]string{"examservice.altl"}, files...)...)
	if err != nil {
		return nil, err
	}
	return spec.Weave()
}

func run(ctx context.Context, out io.Writer) error {
	w, err := weave("tuition.altl", "availabilitynotwait.altl")
	if err != nil {
		return err
	}
	res, err := w.Spec.Realizable(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "ExamService + Tuition + AvailabilityNotWait: %s\n", res)
	tr, err := w.Trace(ctx, res, 0)
	if err != nil {
		return err
	}
	if err := tr.WriteText(out); err != nil {
		return err
	}

	w, err = weave("tuition.altl", "availability.altl")
	if err != nil {
		return err
	}
	if res, err = w.Spec.Realizable(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nExamService + Tuition + Availability: %s\n", res)
	c, err := w.Conflicts(ctx)
	if err != nil {
		return err
	}
	return c.WriteText(out)
}
