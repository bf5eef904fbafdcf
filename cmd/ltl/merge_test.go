package main

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mergeLTL runs ltl explore -merge with the explorer of the tests and
// stdin.
func mergeLTL(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	x := &explorer{load: cachedLoad}
	status, err := x.run(&env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, append([]string{"-merge"}, args...))
	if err != nil {
		fmt.Fprintf(&errb, "ltl explore: %s\n", oneLine(err.Error()))
	}
	return status, out.String(), errb.String()
}

// findingSummary lists a -json output's findings as test, kind, position.
func findingSummary(t *testing.T, out string) []string {
	var fs []string
	for _, l := range jsonLines(t, out) {
		if k := l["kind"]; k != "shard" && k != "unknown" {
			fs = append(fs, fmt.Sprint(l["test"], " ", k, " ", l["position"]))
		}
	}
	slices.Sort(fs)
	return slices.Compact(fs)
}

// TestExploreShardsMerge runs the bugs package in 3 shards: each shard's
// -json output ends each test with a "shard" line; merged, the outputs
// give the verdicts and findings of one run (exit status 1: a test
// fails); without a shard, a passing test is unknown; the replay token
// of a shard's finding replays without -shard.
func TestExploreShardsMerge(t *testing.T) {
	status, whole, errOut := runExplore(t, "-json", bugsPkg)
	require.Equal(t, 1, status, errOut)
	var files []string
	var all string
	for i := 1; i <= 3; i++ {
		status, out, errOut := runExplore(t, "-json", "-shard", fmt.Sprintf("%d/3", i), bugsPkg)
		require.NotEqual(t, 2, status, errOut)
		lines := jsonLines(t, out)
		shardLines := 0
		for _, l := range lines {
			assert.Equal(t, fmt.Sprintf("%d/3", i), l["shard"], "every line names its shard")
			if l["kind"] == "shard" {
				shardLines++
				assert.Contains(t, l, "complete")
			}
		}
		assert.Equal(t, 4, shardLines, "one shard line per test")
		files = append(files, writeFile(t, fmt.Sprintf("shard%d.json", i), out))
		all += out
	}
	status, out, errOut := mergeLTL(t, "", files...)
	assert.Equal(t, 1, status, errOut)
	assert.Regexp(t, `(?m)^pass +`+regexp.QuoteMeta(bugsPath+"TestPasses")+` +\d+ executions \(3 of 3 shards, complete\)$`, out)
	assert.Regexp(t, `(?m)^fail +`+regexp.QuoteMeta(bugsPath+"TestDeadlock")+` .*: 1 finding$`, out)
	assert.Regexp(t, `(?m)^fail +`+regexp.QuoteMeta(bugsPath+"TestFails")+` .*: 1 finding$`, out)
	assert.Regexp(t, `(?m)^unknown +`+regexp.QuoteMeta(bugsPath+"TestUnsupported")+` .*nothing is proved$`, out)

	// -json: the findings of the whole run, from stdin too.
	status, merged, errOut := mergeLTL(t, all, "-json")
	assert.Equal(t, 1, status, errOut)
	assert.Equal(t, findingSummary(t, whole), findingSummary(t, merged))

	// A missing shard: the passing test is unknown.
	status, out, errOut = mergeLTL(t, "", files[0], files[2])
	assert.Equal(t, 1, status, errOut)
	assert.Regexp(t, `(?m)^unknown +`+regexp.QuoteMeta(bugsPath+"TestPasses")+` .*\(2 of 3 shards\): missing shards: 2/3; nothing is proved$`, out)

	// Only the passing test, every shard: exit 0.
	var passes string
	for i := 1; i <= 3; i++ {
		_, out, _ := runExplore(t, "-json", "-shard", fmt.Sprintf("%d/3", i), "-run", "^TestPasses$", bugsPkg)
		passes += out
	}
	status, out, errOut = mergeLTL(t, passes)
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)

	// A shard's replay token replays anywhere, without -shard.
	var token string
	for _, l := range jsonLines(t, all) {
		if l["kind"] == "deadlock" {
			token = l["replay"].(string)
		}
	}
	require.NotEmpty(t, token)
	status, out, errOut = runExplore(t, "-run", "^TestDeadlock$", "-replay", token, bugsPkg)
	assert.Equal(t, 1, status, errOut)
	assert.Regexp(t, `(?m)^fail +\S+TestDeadlock +1 execution \(replay, seed 0\): 1 finding$`, out)
}

func TestExploreShardErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-shard", "0/3", bugsPkg}, `-shard: shard "0/3": index 0 out of range: want 1 to 3`},
		{[]string{"-shard", "3", bugsPkg}, `-shard: shard "3": want I/N`},
		{[]string{"-shard", "1/2", "-find", "F deadlock", bugsPkg}, `-shard: a search (-find) is not split: run it without -shard`},
	} {
		status, _, errOut := runExplore(t, tc.args...)
		assert.Equal(t, 2, status, tc.args)
		assert.Contains(t, errOut, tc.want, tc.args)
	}
	line := `{"test":"p.TestX","kind":"shard","message":"pass","shard":"1/2","complete":true,"executions":3}`
	for _, tc := range []struct {
		stdin, want string
	}{
		{"", "-merge: no shard output to merge"},
		{line + "\n{oops\n", "standard input:2: not a line of ltl explore -json"},
		{`{"test":"p.TestX","kind":"deadlock"}`, "standard input:1: a line without shard"},
		{line + "\n" + line, "standard input:2: p.TestX: shard 1/2 twice"},
		{line + "\n" + strings.Replace(line, "1/2", "1/3", 1), "standard input:2: p.TestX: shard 1/3, but another output of the test has 2 shards"},
		{strings.Replace(line, "1/2", "3/2", 1), `standard input:1: shard "3/2": index 3 out of range`},
	} {
		status, _, errOut := mergeLTL(t, tc.stdin)
		assert.Equal(t, 2, status, tc.stdin)
		assert.Contains(t, errOut, tc.want, tc.stdin)
	}
}

// FuzzMergeInput: reading shard outputs never panics, and a verdict is
// one of pass, fail, unknown.
func FuzzMergeInput(f *testing.F) {
	f.Add(`{"test":"p.TestX","kind":"shard","message":"pass","shard":"1/2","complete":true,"executions":3}`)
	f.Add(`{"test":"p.TestX","kind":"deadlock","shard":"2/2","position":"a.go:1:2","steps":3,"seen":1}`)
	f.Add("{oops\n")
	f.Fuzz(func(t *testing.T, in string) {
		tests := map[string]*mergedTest{}
		if mergeInput(tests, "fuzz", strings.NewReader(in)) != nil {
			return
		}
		for _, mt := range tests {
			v, _ := mt.verdict()
			require.Contains(t, []string{"pass", "fail", "unknown"}, v)
		}
	})
}

// TestMergeMatchesFindingsByKey: one race shown by different goroutines
// in two shards (so with different messages, and in reversed access
// order) has one key, and the merged report lists it once, the shortest,
// seen by both; lines without a key (older outputs) still merge by kind,
// position and message.
func TestMergeMatchesFindingsByKey(t *testing.T) {
	line := func(shard, msg string, steps int, key string) string {
		return fmt.Sprintf(`{"test":"T","kind":"race","message":%q,"position":"a.go:3:1","replay":"r","steps":%d,"seen":1,"shard":%q,"key":%q}`+"\n", msg, steps, shard, key)
	}
	shardLine := func(shard string) string {
		return fmt.Sprintf(`{"test":"T","kind":"shard","message":"fail","position":"","replay":"","steps":0,"shard":%q,"complete":true,"executions":4}`+"\n", shard)
	}
	const key = "race|a.go:3:1|b.go:7:2"
	in := line("1/2", "race between goroutine 2 and goroutine 3", 9, key) + shardLine("1/2") +
		line("2/2", "race between goroutine 4 and goroutine 5", 7, key) + shardLine("2/2")
	status, out, errOut := mergeLTL(t, in, "-json")
	require.Equal(t, 1, status, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1, out)
	assert.Equal(t, "race between goroutine 4 and goroutine 5", lines[0]["message"])
	assert.EqualValues(t, 2, lines[0]["seen"])
	assert.NotContains(t, lines[0], "variants")

	// another key: two findings
	in2 := line("1/2", "race between goroutine 2 and goroutine 3", 9, key) + shardLine("1/2") +
		line("2/2", "race between goroutine 2 and goroutine 3", 9, "race|a.go:3:1|c.go:1:1") + shardLine("2/2")
	_, out, _ = mergeLTL(t, in2, "-json")
	assert.Len(t, jsonLines(t, out), 2, out)

	// no keys: same message merges, another does not
	_, out, _ = mergeLTL(t, line("1/2", "m1", 9, "")+shardLine("1/2")+line("2/2", "m1", 7, "")+shardLine("2/2"), "-json")
	assert.Len(t, jsonLines(t, out), 1, out)
	_, out, _ = mergeLTL(t, line("1/2", "m1", 9, "")+shardLine("1/2")+line("2/2", "m2", 7, "")+shardLine("2/2"), "-json")
	assert.Len(t, jsonLines(t, out), 2, out)
}
