package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pageData is the JSON data embedded in an HTML report.
func pageData(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	page := string(b)
	start := strings.Index(page, `id="report-data">`)
	require.GreaterOrEqual(t, start, 0, "not a report")
	data := page[start:]
	return data[:strings.Index(data, "</script>")]
}

func TestCheckHTML(t *testing.T) {
	trace := writeFile(t, "server.jsonl", serverTrace)
	out := filepath.Join(t.TempDir(), "sub", "check.html")
	status, _, errOut := runLTL(t, "", "check", "-f", "G(write -> (!release S acquire))", "-html", out, trace)
	assert.Equal(t, 1, status, errOut)
	data := pageData(t, out)
	assert.Contains(t, data, `"holds":false`)
	assert.Contains(t, data, `"name":"write","high":[[2,3],[5,6],[7,8]]`, "the waveform of write")
	assert.Contains(t, data, `"why":[`)

	// A page that cannot be written is an error (exit status 2).
	status, _, errOut = runLTL(t, "", "check", "-f", "G true", "-html", filepath.Join(trace, "x.html"), trace)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "-html:")
}

func TestMonitorHTML(t *testing.T) {
	out := filepath.Join(t.TempDir(), "monitor.html")
	status, stdout, errOut := runLTL(t, serverTrace, "monitor", "-f", "G(write -> (!release S acquire))", "-html", out)
	assert.Equal(t, 1, status, errOut)
	assert.Contains(t, stdout, "5: {write} violated")
	data := pageData(t, out)
	assert.Contains(t, data, `"final":5`, "the page's verdict becomes final where the monitor said violated")
}

func TestExploreHTML(t *testing.T) {
	dir := t.TempDir()
	status, _, errOut := runExplore(t, bugsPkg, "-run", "^TestDeadlock$", "-html", dir)
	assert.Equal(t, 1, status, errOut)
	path := filepath.Join(dir, "bugs.TestDeadlock.html")
	assert.Contains(t, errOut, "ltl explore: report: "+path)
	data := pageData(t, path)
	assert.Contains(t, data, `"kind":"deadlock"`)
	assert.Contains(t, data, `"replayCommand":"ltl explore -run '^TestDeadlock$' -replay `)

	// A passing test writes no report.
	status, _, errOut = runExplore(t, bugsPkg, "-run", "^TestPasses$", "-html", dir)
	assert.Equal(t, 0, status, errOut)
	_, err := os.Stat(filepath.Join(dir, "bugs.TestPasses.html"))
	assert.True(t, os.IsNotExist(err))
}

func TestExploreFindHTML(t *testing.T) {
	dir := t.TempDir()
	status, _, errOut := runExplore(t, "-find", "F deadlock", "-run", "TestDeadlock$", "-html", dir, bugsPkg)
	require.Equal(t, 0, status, errOut)
	path := filepath.Join(dir, "bugs.TestDeadlock.witness.html")
	assert.Contains(t, errOut, "ltl explore: report: "+path)
	data := pageData(t, path)
	assert.Contains(t, data, `"kind":"witness"`)
	assert.Contains(t, data, `"message":"an interleaving satisfies F deadlock"`)
}

// TestReplayFlags: a report's replay command repeats the flags that change
// what an execution does (quoted for the shell), and only those.
func TestReplayFlags(t *testing.T) {
	var f exploreFlags
	fs := newFlags("explore")
	f.register(fs)
	require.NoError(t, fs.Parse([]string{"-json", "-shared", "-ignore-leaks", "p.(*T).M,q.f", "-seed", "3", "-workers", "2"}))
	assert.Equal(t, []string{"'-ignore-leaks=p.(*T).M,q.f'", "-seed=3", "-shared=true"}, replayFlags(fs))
	assert.Equal(t, `'it'\''s'`, shellQuote("it's"))
}
