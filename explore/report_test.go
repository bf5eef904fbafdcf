package explore

import (
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The first line of a finding names the position and the kind once: a
// panic's message is Go's own ("panic: …"), so the kind is not repeated.
func TestFindingHeadline(t *testing.T) {
	for _, tc := range []struct {
		f    Finding
		want string
	}{
		{Finding{Kind: KindPanic, Message: "panic: boom [goroutine 1]", Pos: token.Position{Filename: "a.go", Line: 3, Column: 4}}, "a.go:3:4: panic: boom [goroutine 1]"},
		{Finding{Kind: KindDeadlock, Message: "all goroutines are asleep - deadlock!", Pos: token.Position{Filename: "a.go", Line: 5, Column: 1}}, "a.go:5:1: deadlock: all goroutines are asleep - deadlock!"},
		{Finding{Kind: KindLTL, Message: "panic: in the spec's words", Pos: token.Position{Filename: "a.go", Line: 1, Column: 1}}, "a.go:1:1: ltl: panic: in the spec's words"},
	} {
		first, _, _ := strings.Cut(tc.f.String(), "\n")
		assert.Equal(t, tc.want, first)
	}
}
