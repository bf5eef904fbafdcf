package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/examples/aspectltl/examctl"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/synth"
)

// files returns the base's file and those of the named aspects.
func files(aspects ...string) []string {
	out := []string{"examservice.altl"}
	for _, a := range aspects {
		out = append(out, strings.ToLower(a)+".altl")
	}
	return out
}

var sixAspects = []string{"Tuition", "AvailabilityNotWait", "FailuresLogging", "AllowQuitting", "ExamProtection", "ExamCounter"}

func TestTour(t *testing.T) {
	var b strings.Builder
	require.NoError(t, run(context.Background(), &b))
	out := b.String()
	assert.Contains(t, out, "ExamService + Tuition + AvailabilityNotWait: realizable\n")
	assert.Contains(t, out, "  wait -> exit: defined by Tuition;")
	assert.Contains(t, out, "  wait -> welcome: defined by ExamService; serves the liveness of AvailabilityNotWait\n")
	assert.Contains(t, out, "ExamService + Tuition + Availability: unrealizable\n")
	assert.Contains(t, out, "  {Tuition, Availability}\n")
}

// TestThesisTable checks each result of the thesis's table (§3.2.4.2,
// §3.2.5.2) for the ExamService example.
func TestThesisTable(t *testing.T) {
	for _, aspects := range [][]string{
		{"Tuition"},
		{"Availability"},
		{"Tuition", "AvailabilityNotWait"},
		{"AllowQuitting", "ExamProtection"},
	} {
		t.Run(strings.Join(aspects, "+"), func(t *testing.T) {
			w := ltltest.RequireWeave(t, files(aspects...)...)
			ltltest.Conforms(t, w.Weaving.Spec, func() *synth.Run { return w.Controller.Run() }, ltltest.WithConformDepth(3))
		})
	}
	t.Run("Tuition+Availability", func(t *testing.T) {
		spec, err := synth.ParseAspectLTLFiles(files("Tuition", "Availability")...)
		require.NoError(t, err)
		w, err := spec.Weave()
		require.NoError(t, err)
		c, err := w.Conflicts(context.Background())
		require.NoError(t, err, "the weaving is realizable")
		// Exactly these two aspects are to blame, and the environment wins
		// by sending a student who has not paid.
		assert.Equal(t, [][]string{{"Tuition", "Availability"}}, c.Cores)
		require.NotEmpty(t, c.Play)
		assert.Contains(t, c.Play[0].Inputs, "newStudent=1 tuition=0")
		assert.NoError(t, c.Counterstrategy.Verify(context.Background(), c.Core.Spec))
	})
}

// TestSixAspects checks which six-aspect weaving is realizable, which the
// thesis does not say: with AvailabilityNotWait, not with Availability
// (whose conflict with Tuition remains the only one).
func TestSixAspects(t *testing.T) {
	spec, err := synth.ParseAspectLTLFiles(files(append(sixAspects, "Availability")...)...)
	require.NoError(t, err)
	w, err := synth.Weave(spec.Bases[0], spec.Aspects[:6]...)
	require.NoError(t, err)
	res, err := w.Spec.Realizable(context.Background())
	require.NoError(t, err)
	assert.True(t, res.Realizable)

	withAvailability := append([]*synth.Module{spec.Aspect("Availability")}, spec.Aspects[:6]...)
	withAvailability = append(withAvailability[:2], withAvailability[3:]...) // drop AvailabilityNotWait
	w, err = synth.Weave(spec.Bases[0], withAvailability...)
	require.NoError(t, err)
	res, err = w.Spec.Realizable(context.Background())
	require.NoError(t, err)
	assert.False(t, res.Realizable)
	if testing.Short() {
		return
	}
	c, err := w.Conflicts(context.Background())
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"Availability", "Tuition"}}, c.Cores)
}

func sixWeaving(t *testing.T) *synth.Weaving {
	spec, err := synth.ParseAspectLTLFiles(files(sixAspects...)...)
	require.NoError(t, err)
	w, err := spec.Weave()
	require.NoError(t, err)
	return w
}

// TestGeneratedController checks the generated program of the six
// aspects against the woven specification with Conforms: every behaviour
// (its state is comparable, so loops and the liveness guarantees are
// checked too), or, with -short, every behaviour of up to 3 steps.
func TestGeneratedController(t *testing.T) {
	depth := 40 // longer than any loop-free behaviour: the check is complete
	if testing.Short() {
		depth = 3
	}
	ltltest.Conforms(t, sixWeaving(t).Spec, &examctl.ExamController{}, ltltest.WithConformDepth(depth))
}

// TestGeneratedLookAhead plays the thesis's look-ahead scenario on the
// generated program: a student who cancels during the exam is not sent
// back to wait (that would break ExamProtection when no other student
// comes); quit is set, the exam ends, and the service returns to wait by
// exit.
func TestGeneratedLookAhead(t *testing.T) {
	var c examctl.ExamController
	step := func(in examctl.ExamControllerInputs) examctl.ExamControllerOutputs {
		t.Helper()
		out, ok := c.Step(in)
		require.True(t, ok, "input %+v rejected", in)
		return out
	}
	out := step(examctl.ExamControllerInputs{NewStudent: true, Tuition: true})
	require.Equal(t, examctl.ExamControllerStateWait, out.State)
	var trace []int
	for range 3 {
		out = step(examctl.ExamControllerInputs{NewStudent: false, Tuition: true})
		trace = append(trace, out.State)
		if out.State == examctl.ExamControllerStateInExam {
			break
		}
	}
	require.Equal(t, examctl.ExamControllerStateInExam, out.State, "never reached the exam: %v", trace)
	out = step(examctl.ExamControllerInputs{Cancel: true, EvalExam: examctl.ExamControllerEvalExamFail})
	assert.True(t, out.Quit, "cancel does not set quit")
	assert.NotEqual(t, examctl.ExamControllerStateWait, out.State, "quit from the exam straight to wait")
	for i := 0; i < 8 && out.State != examctl.ExamControllerStateWait; i++ {
		prev := out.State
		out = step(examctl.ExamControllerInputs{})
		assert.False(t, prev == examctl.ExamControllerStateInExam && out.State == examctl.ExamControllerStateWait, "quit from the exam straight to wait")
	}
	assert.Equal(t, examctl.ExamControllerStateWait, out.State)
	assert.False(t, out.Quit, "quit not reset at wait")
}

// TestGeneratedUpToDate regenerates the program and compares it with
// examctl/controller.go.
func TestGeneratedUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerating the six-aspect controller takes seconds")
	}
	w := sixWeaving(t)
	res, err := w.Spec.Realizable(context.Background())
	require.NoError(t, err)
	c, err := res.Controller(context.Background())
	require.NoError(t, err)
	m, err := c.Mealy(context.Background(), 0)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, w.WriteGo(&b, m.Minimize(), "examctl", "ExamController"))
	have, err := os.ReadFile(filepath.Join("examctl", "controller.go"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(b.Bytes(), have), "examctl/controller.go is stale: run go generate ./examples/aspectltl/examctl")
}
