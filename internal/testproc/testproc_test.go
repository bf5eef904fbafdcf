package testproc

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAlone runs its body in a new process: only there is envVar its name.
func TestAlone(t *testing.T) {
	if Alone(t) {
		return
	}
	assert.Equal(t, t.Name(), os.Getenv(envVar))
}

// TestAloneSubtest: a subtest runs alone, selected by its full name.
func TestAloneSubtest(t *testing.T) {
	t.Run("sub test", func(t *testing.T) {
		if Alone(t) {
			return
		}
		assert.Equal(t, "TestAloneSubtest/sub_test", os.Getenv(envVar))
	})
}

// TestChildFails fails when it runs as Alone's new process and is skipped
// otherwise: TestAloneReportsFailure runs it through Alone.
func TestChildFails(t *testing.T) {
	if os.Getenv(envVar) != t.Name() {
		t.Skip("runs only as the new process of TestAloneReportsFailure")
	}
	t.Error("the failure Alone must report")
}

// fakeT records what Alone reports through it.
type fakeT struct {
	name   string
	errors []string
	logs   []string
}

func (f *fakeT) Helper()                     {}
func (f *fakeT) Name() string                { return f.name }
func (f *fakeT) Deadline() (time.Time, bool) { return time.Time{}, false }
func (f *fakeT) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

// A failure, or a name that matches no test, in the new process fails t.
func TestAloneReportsFailure(t *testing.T) {
	ft := &fakeT{name: "TestChildFails"}
	require.True(t, Alone(ft))
	require.Len(t, ft.errors, 1)
	assert.Contains(t, ft.errors[0], "TestChildFails failed in its own process")
	require.Len(t, ft.logs, 1)
	assert.Contains(t, ft.logs[0], "the failure Alone must report")

	ft = &fakeT{name: "TestNoSuchTest"}
	require.True(t, Alone(ft))
	require.Len(t, ft.errors, 1)
	assert.True(t, strings.HasPrefix(ft.errors[0], "testproc: the new process did not run and pass TestNoSuchTest"), ft.errors[0])
}
