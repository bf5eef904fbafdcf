package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNetLoopback explores tests whose goroutines talk over loopback
// connections and net.Pipe (model_net.go).
func TestNetLoopback(t *testing.T) {
	for _, test := range []string{
		"TestEcho",
		"TestExchange",
		"TestReadDeadline",
		"TestPipe",
		"TestDialRefused",
		"TestUnix",
		"TestHandoff",
		"TestHostPort",
		"TestPipeWriteDeadline",
		"TestCloseUnblocksRead",
	} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "netloop", test, Options{})
			require.True(t, r.Complete, "bound %q", r.Bound)
			require.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
		})
	}
	t.Run("strategies", func(t *testing.T) {
		// blocking reads and pipe writes are scheduling points that
		// every strategy orders
		for _, s := range []Strategy{DPOR, DFS} {
			for _, test := range []string{"TestEcho", "TestPipe"} {
				r := exploreTestdata(t, "netloop", test, Options{Strategy: s})
				require.True(t, r.Complete, "%s %s: bound %q", s, test, r.Bound)
				require.Equal(t, "pass", r.Verdict(), "%s %s: %v", s, test, r.Findings)
				assert.Greater(t, r.Executions, 1, "%s %s", s, test)
			}
		}
	})
	t.Run("server forgets to close", func(t *testing.T) {
		r := exploreTestdata(t, "netloop", "ServerForgetsClose", Options{})
		require.True(t, r.Complete)
		require.NotEmpty(t, r.Findings)
		f := r.Findings[0]
		assert.Equal(t, KindDeadlock, f.Kind, "%v", r.Findings)
		assert.Contains(t, reportText(r), "goroutine 1 [net.(*TCPConn).Read on 127.0.0.1:40002->127.0.0.1:40001]")
		p := loadPatterns(t, "./testdata/netloop")
		e, err := p.Func(testdataPath + "/netloop.ServerForgetsClose")
		require.NoError(t, err)
		requireReplays(t, p, e, f)
	})
	t.Run("accept leak", func(t *testing.T) {
		r := exploreTestdata(t, "netloop", "AcceptLeak", Options{})
		require.True(t, r.Complete)
		require.NotEmpty(t, r.Findings)
		assert.Equal(t, KindLeak, r.Findings[0].Kind, "%v", r.Findings)
		assert.Contains(t, reportText(r), "net.(*TCPListener).Accept")
	})
	t.Run("handoff race", func(t *testing.T) {
		// a write orders what precedes it before the read that gets its
		// bytes, nothing after it
		r := exploreTestdata(t, "netloop", "HandoffRace", Options{})
		require.NotEmpty(t, r.Findings)
		assert.Equal(t, KindRace, r.Findings[0].Kind, "%v", r.Findings)
	})
	t.Run("deterministic addresses and errors", func(t *testing.T) {
		r := exploreTestdata(t, "netloop", "Addresses", Options{})
		require.Len(t, r.Findings, 1, "%v", r.Findings)
		assert.Equal(t, KindTestFailure, r.Findings[0].Kind)
		assert.Contains(t, r.Findings[0].Message, "listener [::]:40001; client [::1]:40002->[::1]:40001; server [::1]:40001->[::1]:40002; "+
			"read tcp [::1]:40002->[::1]:40001: use of closed network connection; dial tcp [::1]:40001: connect: connection refused")
	})
	t.Run("nil address", func(t *testing.T) {
		r := exploreTestdata(t, "netloop", "NilUnixAddrNetwork", Options{})
		require.NotEmpty(t, r.Findings)
		assert.Equal(t, KindPanic, r.Findings[0].Kind, "%v", r.Findings)
		assert.Contains(t, r.Findings[0].Message, "nil pointer dereference")
	})
	t.Run("remote host", func(t *testing.T) {
		r := exploreTestdata(t, "netloop", "DialRemote", Options{})
		require.Len(t, r.Findings, 1, "%v", r.Findings)
		assert.Equal(t, KindUnsupported, r.Findings[0].Kind)
		assert.Contains(t, r.Findings[0].Message, `net.Dial("tcp", "192.0.2.1:80"): only loopback connections to listeners of the test are modelled`)
		assert.Equal(t, "unknown", r.Verdict())
	})
}
