package monitor

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStreamTraceCallsBackPerEvent(t *testing.T) {
	for name, input := range map[string]string{
		"jsonl": "[\"a\"]\n\n{\"b\":true}\n[]\n",
		"csv":   "a,b\n1,0\n0,1\n0,0\n",
	} {
		t.Run(name, func(t *testing.T) {
			var seen []int
			tr, err := StreamTrace(strings.NewReader(input), "t", FormatAuto, func(tr *Trace) error {
				seen = append(seen, tr.Len())
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, []int{1, 2, 3}, seen)
			assert.Equal(t, 3, tr.Len())
			assert.Equal(t, []string{"b"}, tr.At(1))
		})
	}
}

func TestStreamTraceStopsOnCallbackError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	tr, err := StreamTrace(strings.NewReader("[\"a\"]\n[\"b\"]\n[\"c\"]\n"), "t", FormatAuto, func(*Trace) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	assert.Same(t, stop, err)
	assert.Equal(t, 2, calls)
	assert.Equal(t, 2, tr.Len())
}
