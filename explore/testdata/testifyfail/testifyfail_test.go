// Package testifyfail holds tests whose testify assertions fail, and the
// same assertions holding, so the explorer's report of a failing assertion
// can be compared with go test's.
package testifyfail

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type name string

type point struct {
	X, Y int
	Name string
}

func TestEqualStructFails(t *testing.T) {
	assert.Equal(t, point{1, 2, "a"}, point{1, 3, "a"})
}

func TestEqualSliceFails(t *testing.T) {
	assert.Equal(t, []int{1, 2, 3}, []int{1, 2, 4})
}

func TestEqualMapFails(t *testing.T) {
	assert.Equal(t, map[string]int{"a": 1}, map[string]int{"a": 2})
}

func TestEqualValuesFails(t *testing.T) {
	assert.EqualValues(t, 1, 2)
}

func TestNoErrorFails(t *testing.T) {
	require.NoError(t, errors.New("x"))
	t.Log("not reached")
}

func TestContainsFails(t *testing.T) {
	assert.Contains(t, []string{"a", "b"}, "c")
}

func TestLenFails(t *testing.T) {
	assert.Len(t, []int{1, 2}, 3)
}

func TestElementsMatchFails(t *testing.T) {
	assert.ElementsMatch(t, []int{1, 2, 2}, []int{2, 1, 1})
}

func TestAllPass(t *testing.T) {
	assert.Equal(t, point{1, 2, "a"}, point{1, 2, "a"})
	assert.Equal(t, []int{1, 2, 3}, []int{1, 2, 3})
	assert.Equal(t, map[string]int{"a": 1}, map[string]int{"a": 1})
	assert.EqualValues(t, int32(1), int64(1))
	assert.EqualValues(t, 2, 2)
	assert.EqualValues(t, uint8(200), 200)
	assert.EqualValues(t, 2.0, 2)
	assert.EqualValues(t, name("a"), "a")
	assert.EqualValues(t, int8(-1), uint8(255)) // uint8(255) converts to int8(-1)
	require.NoError(t, nil)
	assert.Contains(t, []string{"a", "b"}, "b")
	assert.Len(t, []int{1, 2}, 2)
	assert.ElementsMatch(t, []int{1, 2, 2}, []int{2, 1, 2})
}
