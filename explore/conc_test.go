package explore

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConcKernels(t *testing.T) {
	cases := []struct {
		name string
		kind Kind // "" = pass
	}{
		{"PingPong", ""},
		{"ABBA", KindDeadlock},
		{"Counter", ""},
		{"TimeoutLeak", KindLeak},
		{"DoubleClose", KindPanic},
		{"CondMissed", ""},
		{"CondLost", KindDeadlock},
		{"Context", ""},
		{"Atomics", ""},
		{"Sleep", ""},
	}
	for _, tc := range cases {
		for _, strat := range []Strategy{DFS, DPOR} {
			t.Run(tc.name+"/"+string(strat), func(t *testing.T) {
				opts := Options{Strategy: strat, CountClasses: true}
				if tc.name == "Sleep" {
					// the order of the sleeps is deterministic only if
					// timers fire when nothing else can move (below)
					opts.EarlyFire = -1
				}
				r := runFunc(t, "conc", tc.name, opts)
				t.Logf("%s: %d executions, %d classes, %d pruned, verdict %s", tc.name, r.Executions, r.Classes, r.Pruned, r.Verdict())
				if tc.kind == "" {
					for _, f := range r.Findings {
						t.Errorf("%s", f)
					}
					require.Equal(t, "pass", r.Verdict())
					return
				}
				require.NotEmpty(t, r.Findings)
				require.Equal(t, tc.kind, r.Findings[0].Kind, "%s", r.Findings[0])
				t.Logf("%s", r.Findings[0])
			})
		}
	}
	t.Run("Sleep/early", func(t *testing.T) {
		// By default a sleep of at most 1ms may end while other
		// goroutines run: the goroutine that sleeps 2ms may start its
		// sleep 1ms late, and wake after the one that sleeps 3ms, as on
		// a loaded machine.
		r := runFunc(t, "conc", "Sleep", Options{StopAtFirst: true})
		f := findKind(r, KindTestFailure)
		require.NotNil(t, f, "%v", r.Findings)
		require.Contains(t, f.Message, "order [")
	})
}

// TestRuntimeSemantics checks findings for channel, sync and goroutine
// edge cases, with Go's messages.
func TestRuntimeSemantics(t *testing.T) {
	cases := []struct {
		name    string
		kind    Kind // "" = pass
		message string
	}{
		{"SelectSendClosed", KindPanic, "panic: send on closed channel [goroutine 1]"},
		{"NilChanRecv", KindDeadlock, "all goroutines are asleep - deadlock!"},
		{"CloseNil", KindPanic, "panic: close of nil channel [goroutine 1]"},
		{"EmptySelect", KindDeadlock, "all goroutines are asleep - deadlock!"},
		{"ChanLenCap", "", ""},
		{"UnlockUnlocked", KindPanic, "fatal error: sync: unlock of unlocked mutex [goroutine 1]"},
		{"NegativeWaitGroup", KindPanic, "panic: sync: negative WaitGroup counter [goroutine 1]"},
		{"RecoverInGoroutine", "", ""},
		{"GoexitRunsDefers", "", ""},
		{"PanicInGoroutine", KindPanic, "panic: worker 3 failed [goroutine 2]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runFunc(t, "conc", tc.name, Options{})
			if tc.kind == "" {
				for _, f := range r.Findings {
					t.Errorf("%s", f)
				}
				require.Equal(t, "pass", r.Verdict())
				return
			}
			f := findKind(r, tc.kind)
			require.NotNil(t, f, "%v", r.Findings)
			require.Equal(t, tc.message, f.Message)
		})
	}
}
