package gosplit

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/split"
)

// examples/split/rally is Go's ping-pong over an unbuffered channel: the
// first player to start serves, then every player returns the ball it
// receives, counting the hits of the rally in the ball and starting a new
// rally after the third.

// overhit is the rally that forgets to start a new rally: the third hit
// sends 3, outside the ball's range.
func overhit(t testing.TB) string {
	return strings.NewReplacer("0..3", "0..2", "if hits < 3 {", "if hits < 4 {").Replace(example(t, "rally"))
}

// The rally keeps the ball in its range for any number of players: the
// split invariant proves it with no refinement (N = 32 in about 2 s, N =
// 64 in about 13 s), and the monolithic check agrees for 2 and 3.
func TestGoChanRallyProved(t *testing.T) {
	for _, n := range rallySizes() {
		g, err := goSource(t, example(t, "rally"), "player", n)
		require.NoError(t, err)
		require.Len(t, g.Program.Processes(), n)
		res, err := g.Check(context.Background(), "runtime", split.Options{})
		require.NoError(t, err)
		assert.Equal(t, split.Proved, res.Verdict, "N = %d: %s", n, res.Reason)
		assert.Zero(t, res.Refinements, "N = %d", n)
		if n <= 3 {
			mono, _, err := split.CheckMonolithic(context.Background(), g.Program, mustProp(t, g, "runtime"), 0)
			require.NoError(t, err)
			assert.Equal(t, split.Proved, mono.Verdict, "N = %d, monolithic", n)
		}
	}
}

// The rally that forgets its reset is caught with 2 players and lifted to
// 16; the counterexample shows the sends, the completions of the sends and
// the receives at their positions, ending with the send of 3.
func TestGoChanOverhitViolated(t *testing.T) {
	for _, n := range []int{2, 3, 16} {
		g, err := goSource(t, overhit(t), "player", n)
		require.NoError(t, err)
		res, err := g.Check(context.Background(), "runtime", split.Options{})
		require.NoError(t, err)
		require.Equal(t, split.Violated, res.Verdict, "N = %d: %s", n, res.Reason)
		cex := res.Counterexample
		require.NoError(t, g.Program.Replay(cex))
		steps, err := g.Steps(cex)
		require.NoError(t, err)
		out := g.FormatSteps(cex)
		if n == 16 {
			t.Log(out)
			assert.Contains(t, res.Reason, "found with 2 of the 16 goroutines")
			for _, s := range steps {
				assert.LessOrEqual(t, s.Goroutine, 2, "%s", s)
			}
		}
		assert.Contains(t, out, "at p.go:25:3: ball <- 0\n")
		assert.Contains(t, out, "at p.go:25:3: ball <- 0 (wait until received)\n")
		assert.Contains(t, out, "at p.go:28:3: hits := <-ball\n")
		assert.Contains(t, out, "at p.go:30:4: ball <- hits + 1\n")
		last := steps[len(steps)-1]
		assert.Equal(t, 30, last.Pos.Line)
		assert.Equal(t, "ball <- hits + 1", last.Op)
		assert.Equal(t, "value sent on ball leaves its range 0..2 (//ltl:range)", last.Error)
		if n <= 3 {
			mono, _, err := split.CheckMonolithic(context.Background(), g.Program, mustProp(t, g, "runtime"), 0)
			require.NoError(t, err)
			assert.Equal(t, split.Violated, mono.Verdict, "N = %d, monolithic", n)
		}
	}
}

// A handshake over a channel of bool: receives as statements, into a
// shared variable (two steps: receive, then write) and into a local
// declared with var. The first goroutine to start sends, the others
// receive; a receiver writes what it got to a shared flag, which stays
// true. With a value sent out of range, receivers see it as an error.
func TestGoChanForms(t *testing.T) {
	const src = `package p

import "sync"

var mu sync.Mutex

var first = true

var ok = true

var ch = make(chan bool)

//ltl:range n 1..2
var n = make(chan int, 0)

//ltl:spec okay G("ok")

func worker() {
	mu.Lock()
	sender := first
	first = false
	mu.Unlock()
	if sender {
		ch <- true
		ch <- true
		n <- 1
		return
	}
	ok = <-ch
	var got = <-ch
	if !got {
		ok = false
	}
	k := <-n
	k++
	<-n
}
`
	bad := strings.Replace(src, "n <- 1", "n <- 2", 1) // k++ leaves k's range 1..2 (n's)
	for _, n := range []int{2, 3} {
		for _, tc := range []struct {
			src  string
			want split.Verdict
		}{{src, split.Proved}, {bad, split.Violated}} {
			g, err := goSource(t, tc.src, "worker", n)
			require.NoError(t, err)
			for _, spec := range []string{"okay", "runtime"} {
				res, err := g.Check(context.Background(), spec, split.Options{})
				require.NoError(t, err)
				mono, _, err := split.CheckMonolithic(context.Background(), g.Program, mustProp(t, g, spec), 0)
				require.NoError(t, err)
				assert.Equal(t, mono.Verdict, res.Verdict, "N = %d, %s: %s", n, spec, res.Reason)
				want := split.Proved
				if spec == "runtime" {
					want = tc.want
				}
				require.Equal(t, want, res.Verdict, "N = %d, %s: %s", n, spec, res.Reason)
				if res.Verdict == split.Violated {
					out := g.FormatSteps(res.Counterexample)
					assert.Contains(t, out, "at p.go:29:7: receive from ch\n")
					assert.Contains(t, out, "at p.go:29:2: ok = <-ch\n")
					assert.Contains(t, out, "at p.go:30:2: var got = <-ch\n")
					assert.Contains(t, out, "at p.go:34:2: k := <-n\n")
					assert.Contains(t, out, "at p.go:35:2: k++ → k leaves its range 1..2 (//ltl:range)\n")
				}
			}
		}
	}
}

// Channels the model cannot express are refused at their position.
func TestGoChanUnsupported(t *testing.T) {
	const head = "package p\n\nvar c = make(chan bool)\n\n"
	for _, tc := range []struct {
		name, src, pos, msg string
	}{
		{"buffered", "package p\n\nvar c = make(chan bool, 1)\n\nfunc w() {\n\tc <- true\n}\n", "p.go:3:25", "buffered channel c (capacity 1"},
		{"nil", "package p\n\nvar c chan bool\n\nfunc w() {\n\tc <- true\n}\n", "p.go:3:5", "nil channel c"},
		{"close", head + "func w() {\n\tclose(c)\n}\n", "p.go:6:2", "close of channel c"},
		{"select", head + "func w() {\n\tselect {\n\tcase <-c:\n\t}\n}\n", "p.go:6:2", "select statement"},
		{"range", head + "func w() {\n\tfor range c {\n\t}\n}\n", "p.go:6:2", "range over channel c"},
		{"len", head + "var b bool\n\nfunc w() {\n\tb = len(c) == 0\n}\n", "p.go:8:6", "len of channel c"},
		{"cap", head + "var b bool\n\nfunc w() {\n\tb = cap(c) == 0\n}\n", "p.go:8:6", "cap of channel c"},
		{"local", "package p\n\nfunc w() {\n\tc := make(chan bool)\n\tc <- true\n}\n", "p.go:5:2", "send on local channel c"},
		{"value", head + "var d = make(chan bool)\n\nfunc w() {\n\td = c\n}\n", "p.go:8:2", "assignment to channel d"},
		{"in expression", head + "var b bool\n\nfunc w() {\n\tb = !<-c\n}\n", "p.go:8:7", "receive <-c inside an expression"},
		{"comma ok", head + "var x, ok bool\n\nfunc w() {\n\tx, ok = <-c\n}\n", "p.go:8:2", "receive with ok"},
		{"no range", "package p\n\nvar c = make(chan int)\n\nfunc w() {\n\tc <- 1\n}\n", "p.go:6:2", "channel c of int has no //ltl:range"},
		{"element", "package p\n\nvar c = make(chan string)\n\nfunc w() {\n\tc <- \"x\"\n}\n", "p.go:6:2", "channel c of string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := goSource(t, tc.src, "w", 2)
			require.Error(t, err)
			var e *split.Error
			require.True(t, errors.As(err, &e), "%v", err)
			assert.ErrorIs(t, err, split.ErrUnsupported)
			assert.Contains(t, err.Error(), tc.pos+": ")
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// rallySizes are the numbers of players of TestGoChanRallyProved: with
// -short, 12 instead of 32 (the same proof without refinement, on a
// smaller composition; the 32 players take most of the package's time
// under the race detector).
func rallySizes() []int {
	if testing.Short() {
		return []int{2, 3, 12}
	}
	return []int{2, 3, 32}
}
