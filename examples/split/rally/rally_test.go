package rally

import (
	"testing"

	"github.com/henceforth-go/henceforth/ltltest"
)

// player, run by 32 goroutines, keeps the ball in its range: the runtime
// property (every //ltl:range kept) is proved with no refinement.
func TestPlayerSplit(t *testing.T) {
	ltltest.RequireSplitN(t, ".player", 32, "runtime")
}
