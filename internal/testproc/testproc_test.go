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
	name     string
	deadline time.Time // zero: none
	errors   []string
	logs     []string
}

func (f *fakeT) Helper()                     {}
func (f *fakeT) Name() string                { return f.name }
func (f *fakeT) Deadline() (time.Time, bool) { return f.deadline, !f.deadline.IsZero() }
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

// The new process gets the time left before t's deadline, however little:
// under half a second it must not round to a timeout of zero (none), and
// with none left Alone fails t without starting a process.
func TestAloneDeadline(t *testing.T) {
	timeout, ok := childTimeout(time.Now().Add(400*time.Millisecond), true)
	require.True(t, ok)
	left, err := time.ParseDuration(timeout)
	require.NoError(t, err)
	assert.True(t, left > 0 && left <= 400*time.Millisecond, "timeout %s", timeout)

	timeout, ok = childTimeout(time.Time{}, false)
	assert.True(t, ok)
	assert.Equal(t, "0", timeout)

	ft := &fakeT{name: "TestAlone", deadline: time.Now().Add(-time.Second)}
	require.True(t, Alone(ft))
	require.Len(t, ft.errors, 1)
	assert.Contains(t, ft.errors[0], "no time left")
	assert.Empty(t, ft.logs, "no process started")
}
