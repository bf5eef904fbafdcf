package ltltest_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/examples/explore/dekker"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/ltltest"
	"github.com/henceforth-go/henceforth/ltltest/testdata/explorebodies"
)

// artifactT is a fakeT with an artifact directory, as *testing.T has.
type artifactT struct {
	namedT
	dir string
}

func (a *artifactT) ArtifactDir() string { return a.dir }

func newArtifactT(t *testing.T) *artifactT {
	return &artifactT{namedT: namedT{name: t.Name()}, dir: t.TempDir()}
}

var reportLine = regexp.MustCompile(`report: (\S+\.html)`)

// reportOf returns the report the failure names, after checking it is
// there and needs nothing from the network.
func reportOf(t *testing.T, out string) string {
	t.Helper()
	m := reportLine.FindStringSubmatch(out)
	require.NotNil(t, m, "the failure names no report:\n%s", out)
	b, err := os.ReadFile(m[1])
	require.NoError(t, err)
	page := string(b)
	assert.NotRegexp(t, `(src|href)="https?:`, page, "the page loads nothing from the network")
	return page
}

// pageHas asserts that the page contains s, without printing the page.
func pageHas(t *testing.T, page, s string, why ...string) {
	t.Helper()
	assert.True(t, strings.Contains(page, s), "the page lacks %s %s", s, strings.Join(why, ""))
}

func TestHoldsWritesReport(t *testing.T) {
	at := newArtifactT(t)
	require.False(t, ltltest.Holds(at, "G(req -> X ack)", ltl.Sets{{"req"}, {"ack"}, {"req"}, {}}))
	page := reportOf(t, at.output())
	pageHas(t, page, `"formula":"G(req -\u003e X ack)"`)
	pageHas(t, page, `"final":3`, "the verdict is final after the second request, when no ack follows")

	// A second failure in the same test gets a file of its own.
	require.False(t, ltltest.Violated(at, "F req", ltl.Sets{{"req"}}))
	m := reportLine.FindAllStringSubmatch(at.output(), -1)
	require.Len(t, m, 2)
	assert.NotEqual(t, m[0][1], m[1][1])

	// Without an artifact directory there is no report.
	ft := &fakeT{}
	ltltest.Holds(ft, "G req", ltl.Sets{{}})
	assert.NotContains(t, ft.output(), "report:")
}

func TestMonitorWritesReport(t *testing.T) {
	at := newArtifactT(t)
	m := ltltest.NewMonitor(at, "G !err")
	m.Step("ok")
	m.Step("err")
	at.end()
	page := reportOf(t, at.output())
	pageHas(t, page, `"name":"err","high":[[1,2]]`, "the waveform has err high at position 1 only")
}

func TestExploreWritesReport(t *testing.T) {
	at := newArtifactT(t)
	require.False(t, ltltest.Explore(at, explorebodies.Deadlock, bodiesPkg))
	page := reportOf(t, at.output())
	pageHas(t, page, `"kind":"deadlock"`)
	pageHas(t, page, `"blocked":true`)
	pageHas(t, page, `"replayCommand":"go test -run '^TestExploreWritesReport$' -ltl.replay=v`)
}

func TestNeverWritesWitnessReport(t *testing.T) {
	at := newArtifactT(t)
	require.False(t, ltltest.Never(at, dekker.Run, "F at(P0, m8)", dekkerPkg))
	page := reportOf(t, at.output())
	pageHas(t, page, `"kind":"witness"`)
	pageHas(t, page, "event m8")
}
