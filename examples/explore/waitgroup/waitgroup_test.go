package waitgroup

import "testing"

func check(t *testing.T, squares func([]int) []int) {
	got := squares([]int{1, 2, 3})
	for i, want := range []int{1, 4, 9} {
		if got[i] != want {
			t.Errorf("squares[%d] = %d, want %d", i, got[i], want)
		}
	}
}

// Scenario returns before the squares are computed in some schedules.
func Scenario(t *testing.T) { check(t, Squares) }

func TestFixed(t *testing.T) { check(t, SafeSquares) }
