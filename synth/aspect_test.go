package synth

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// examFiles are the thesis's ExamService listings, by aspect name.
var examFiles = map[string]string{
	"Tuition":             "tuition.altl",
	"Availability":        "availability.altl",
	"AvailabilityNotWait": "availabilitynotwait.altl",
	"FailuresLogging":     "failureslogging.altl",
	"AllowQuitting":       "allowquitting.altl",
	"ExamProtection":      "examprotection.altl",
	"ExamCounter":         "examcounter.altl",
}

// weaveExam weaves ExamService with the named aspects.
func weaveExam(t testing.TB, aspects ...string) *Weaving {
	t.Helper()
	paths := []string{filepath.Join("testdata", "aspectltl", "examservice.altl")}
	for _, a := range aspects {
		paths = append(paths, filepath.Join("testdata", "aspectltl", examFiles[a]))
	}
	spec, err := ParseAspectLTLFiles(paths...)
	require.NoError(t, err)
	w, err := spec.Weave()
	require.NoError(t, err)
	return w
}

// TestAspectLTLThesisTable checks the realizability results of the
// thesis's running example (§3.2.4.2 and §3.2.5.2).
func TestAspectLTLThesisTable(t *testing.T) {
	for _, tc := range []struct {
		aspects    []string
		realizable bool
	}{
		{[]string{"Tuition"}, true},
		{[]string{"Availability"}, true},
		{[]string{"Tuition", "Availability"}, false},
		{[]string{"Tuition", "AvailabilityNotWait"}, true},
		{[]string{"AllowQuitting", "ExamProtection"}, true},
	} {
		w := weaveExam(t, tc.aspects...)
		res, err := w.Spec.Realizable(context.Background())
		require.NoError(t, err)
		assert.Equal(t, tc.realizable, res.Realizable, "%v", tc.aspects)
	}
}
