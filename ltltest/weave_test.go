package ltltest_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/synth"
)

func examFiles(names ...string) []string {
	files := []string{filepath.Join("testdata", "aspectltl", "examservice.altl")}
	for _, n := range names {
		files = append(files, filepath.Join("testdata", "aspectltl", n+".altl"))
	}
	return files
}

func TestWeaveRealizable(t *testing.T) {
	ft := &fakeT{}
	w := ltltest.RequireWeave(ft, examFiles("tuition", "availabilitynotwait")...)
	require.NotNil(t, w)
	assert.Empty(t, ft.errors)
	assert.False(t, ft.stopped)
	// A student who has not paid is sent to exit, with the message.
	run := w.Controller.Run()
	_, err := run.Step(map[string]int{"evalExam": 0, "newStudent": 1, "tuition": 0})
	require.NoError(t, err)
	out, err := run.Step(map[string]int{"evalExam": 0, "newStudent": 0, "tuition": 0})
	require.NoError(t, err)
	assert.Equal(t, "exit", w.Weaving.ValueName("state", out["state"]))
	assert.Equal(t, 1, out["showTuition"])
	ltltest.Conforms(t, w.Weaving.Spec, func() *synth.Run { return w.Controller.Run() }, ltltest.WithConformDepth(3))
}

func TestWeaveUnrealizableShowsConflict(t *testing.T) {
	ft := &fakeT{}
	assert.Nil(t, ltltest.Weave(ft, examFiles("tuition", "availability")...))
	require.Len(t, ft.errors, 1)
	msg := ft.errors[0]
	assert.Contains(t, msg, "ltltest: AspectLTL specification is unrealizable")
	assert.Contains(t, msg, "weaving: ExamService + Tuition + Availability")
	assert.Contains(t, msg, "{Tuition, Availability}")
	assert.Contains(t, msg, "blame: Tuition, Availability")
	assert.False(t, ft.stopped)
	ltltest.RequireWeave(ft, examFiles("tuition", "availability")...)
	assert.True(t, ft.stopped)
}

func TestWeaveBadFile(t *testing.T) {
	ft := &fakeT{}
	assert.Nil(t, ltltest.Weave(ft, "testdata/aspectltl/tuition.altl"))
	require.Len(t, ft.errors, 1)
	assert.Contains(t, ft.errors[0], "no base system")
	ft = &fakeT{}
	assert.Nil(t, ltltest.Weave(ft, "testdata/aspectltl/missing.altl"))
	require.Len(t, ft.errors, 1)
	assert.Contains(t, ft.errors[0], "missing.altl")
}
