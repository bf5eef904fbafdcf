package ltltest

import (
	"errors"
	"strings"

	"github.com/henceforth-go/henceforth/synth"
)

// This file holds the AspectLTL helpers: Weave and RequireWeave.

// Woven is an AspectLTL specification woven and synthesized by Weave.
type Woven struct {
	// Weaving is the GR(1) game of the base and its aspects; its Spec is
	// what Conforms checks implementations against.
	Weaving *synth.Weaving
	// Controller is the synthesized program, an explicit minimized Mealy
	// machine: step it with Controller.Run, print it with
	// Weaving.WriteGo.
	Controller *synth.Mealy
}

// Weave reads the AspectLTL files (a base system and its aspects, see
// synth.ParseAspectLTL), weaves them and synthesizes the program that
// implements every aspect at once. When no program can, the test fails with
// the conflict report — the minimal sets of aspects that conflict and a play
// of the environment's winning strategy with the aspects to blame at each
// step — and Weave returns nil; malformed files fail it with their
// positioned error.
//
//	w := ltltest.Weave(t, "testdata/exam.altl", "testdata/tuition.altl")
//	out, err := w.Controller.Run().Step(map[string]int{"newStudent": 1, "tuition": 0, "evalExam": 0})
//	ltltest.Conforms(t, w.Weaving.Spec, &myExamService{})
func Weave(t TestingT, files ...string) *Woven {
	t.Helper()
	ctx := synthContext(t)
	spec, err := synth.ParseAspectLTLFiles(files...)
	if err != nil {
		fail(t, "ltltest: cannot read the AspectLTL specification", "error: "+err.Error(), nil)
		return nil
	}
	w, err := spec.Weave()
	if err != nil {
		fail(t, "ltltest: cannot weave the AspectLTL specification", "error: "+err.Error(), nil)
		return nil
	}
	line := "weaving: " + weaveName(w) + "\n"
	res, err := w.Spec.Realizable(ctx)
	if err != nil {
		fail(t, "ltltest: cannot decide realizability", line+"error: "+err.Error(), nil)
		return nil
	}
	if !res.Realizable {
		var b strings.Builder
		b.WriteString(line)
		if c, err := w.Conflicts(ctx); err != nil {
			b.WriteString("conflicts: cannot compute: " + err.Error() + "\n")
		} else if err := c.WriteText(&b); err != nil {
			b.WriteString("conflicts: " + err.Error() + "\n")
		}
		fail(t, "ltltest: AspectLTL specification is unrealizable: no program implements every aspect", b.String(), nil)
		return nil
	}
	c, err := res.Controller(ctx)
	if err != nil {
		fail(t, "ltltest: cannot extract a controller", line+"error: "+err.Error(), nil)
		return nil
	}
	m, err := c.Mealy(ctx, 0)
	if err != nil {
		details := line + "error: " + err.Error()
		if errors.Is(err, synth.ErrTooLarge) {
			details += "\nstep the symbolic controller instead (synth.Result.Controller)"
		}
		fail(t, "ltltest: cannot enumerate the controller", details, nil)
		return nil
	}
	return &Woven{Weaving: w, Controller: m.Minimize()}
}

// RequireWeave is Weave, stopping the test when there is no program.
func RequireWeave(t TestingT, files ...string) *Woven {
	t.Helper()
	w := Weave(t, files...)
	if w == nil {
		t.FailNow()
	}
	return w
}

func weaveName(w *synth.Weaving) string {
	names := []string{w.Base.Name}
	for _, a := range w.Aspects {
		names = append(names, a.Name)
	}
	return strings.Join(names, " + ")
}
