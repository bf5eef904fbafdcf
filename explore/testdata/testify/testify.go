// Package testify uses testify's assertions in explored tests.
package testify

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Passing uses common assertions that hold.
func Passing(t *testing.T) {
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for _, k := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			got[k]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Equal(t, map[string]int{"a": 1, "b": 1}, got)
	assert.Len(t, got, 2)
	assert.Contains(t, got, "a")
	assert.NotEmpty(t, got)
	assert.Nil(t, nil)
	require.NoError(t, nil)
	assert.True(t, len(got) == 2)
	assert.ErrorIs(t, errors.Join(errors.ErrUnsupported), errors.ErrUnsupported)
	assert.ElementsMatch(t, []int{1, 2}, []int{2, 1})
}

// Failing fails an assertion in some schedules.
func Failing(t *testing.T) {
	x := 0
	var mu sync.Mutex
	done := make(chan bool)
	go func() {
		mu.Lock()
		x = 1
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	seen := x
	mu.Unlock()
	<-done
	assert.Equal(t, 1, seen, "the goroutine ran first")
}
