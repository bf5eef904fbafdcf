package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
)

// bugsPkg has one test per outcome: TestDeadlock and TestFails fail,
// TestPasses passes, TestUnsupported is unknown.
const (
	bugsPkg  = "./testdata/explore/bugs"
	bugsPath = "github.com/henceforth-go/henceforth/cmd/ltl/testdata/explore/bugs."
)

// cachedLoad is explore.Load, loading each package list once per test
// binary (most tests explore the same package many times), and the
// standard library once for all of them.
var cachedLoad = func() func(context.Context, explore.LoadConfig) (*explore.Program, error) {
	var loader explore.Loader
	var mu sync.Mutex
	type result struct {
		p   *explore.Program
		err error
	}
	programs := map[string]result{}
	return func(ctx context.Context, cfg explore.LoadConfig) (*explore.Program, error) {
		mu.Lock()
		defer mu.Unlock()
		key := fmt.Sprint(cfg.NoTests, cfg.Patterns)
		r, ok := programs[key]
		if !ok {
			r.p, r.err = loader.Load(ctx, cfg)
			programs[key] = r
		}
		return r.p, r.err
	}
}()

// runExplore is runLTL("explore", args...) with cachedLoad; errors are
// reported as run reports them.
func runExplore(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	x := &explorer{load: cachedLoad}
	status, err := x.run(&env{stdout: &out, stderr: &errb}, args)
	if err != nil {
		fmt.Fprintf(&errb, "ltl explore: %s\n", oneLine(err.Error()))
	}
	return status, out.String(), errb.String()
}

// jsonLines decodes -json output, one finding per line, rejecting unknown
// fields and lines that are not objects.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var res []map[string]any
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), "line %q", line)
		res = append(res, m)
	}
	return res
}

func TestExploreExitStatusAndSummary(t *testing.T) {
	status, out, errOut := runMain(t, "", "explore", bugsPkg)
	assert.Equal(t, 1, status, errOut)
	assert.Empty(t, errOut)
	assert.Regexp(t, `(?m)^fail +`+regexp.QuoteMeta(bugsPath+"TestDeadlock")+` +\d+ executions \(dpor, complete\): 1 finding$`, out)
	assert.Regexp(t, `(?m)^fail +`+regexp.QuoteMeta(bugsPath+"TestFails")+` .*: 1 finding$`, out)
	assert.Regexp(t, `(?m)^pass +`+regexp.QuoteMeta(bugsPath+"TestPasses")+` +\d+ executions \(dpor, complete\)$`, out)
	assert.Regexp(t, `(?m)^unknown +`+regexp.QuoteMeta(bugsPath+"TestUnsupported")+` .*nothing is proved$`, out)
	// One block per finding: headline, interleaving, stacks, replay token.
	assert.Contains(t, out, "--- "+bugsPath+"TestDeadlock: deadlock\n")
	assert.Regexp(t, `philosophers\.go:34:9: deadlock: all goroutines are asleep - deadlock!\ninterleaving \(4 steps`, out)
	assert.Contains(t, out, "goroutine 2 [sync.(*Mutex).Lock]:")
	assert.Contains(t, out, "test-failure: bugs_test.go:17: 2 meals, want 3")
	assert.Contains(t, out, "unsupported: call of os.Getpid")
	assert.Regexp(t, `(?m)^replay: v[12]:\S+$`, out)

	// Flags after the package; only the passing test: exit 0.
	status, out, errOut = runExplore(t, bugsPkg, "-run", "^TestPasses$")
	assert.Equal(t, 0, status, errOut)
	assert.Regexp(t, `^pass +`+regexp.QuoteMeta(bugsPath+"TestPasses")+` +\d+ executions \(dpor, complete\)\n$`, out)
}

func TestExploreExamplesFixedVersionsPass(t *testing.T) {
	if testing.Short() {
		t.Skip("explores three example packages")
	}
	status, out, errOut := runExplore(t, "../../examples/explore/abba", "../../examples/explore/doubleclose")
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)
	assert.Regexp(t, `(?m)^pass +github.com/henceforth-go/henceforth/examples/explore/abba.TestFixed `, out)
	assert.Regexp(t, `(?m)^pass +github.com/henceforth-go/henceforth/examples/explore/doubleclose.TestFixed `, out)

	// The lost update of counter needs -shared to be a scheduling point at
	// every access; its fixed version passes with it.
	status, out, errOut = runExplore(t, "-shared", "../../examples/explore/counter")
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)
}

func TestExploreJSON(t *testing.T) {
	status, out, errOut := runExplore(t, "-json", bugsPkg)
	require.Equal(t, 1, status, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 3, out)
	byKind := map[string]map[string]any{}
	for _, l := range lines {
		assert.ElementsMatch(t, []string{"test", "kind", "message", "position", "replay", "steps", "seen"}, keys(l))
		byKind[l["kind"].(string)] = l
	}
	d := byKind["deadlock"]
	require.NotNil(t, d, out)
	assert.Equal(t, bugsPath+"TestDeadlock", d["test"])
	assert.Equal(t, "all goroutines are asleep - deadlock!", d["message"])
	assert.Regexp(t, `/examples/explore/philosophers/philosophers\.go:34:9$`, d["position"])
	assert.Regexp(t, `^v[12]:\S+$`, d["replay"])
	assert.Equal(t, 4.0, d["steps"])
	f := byKind["test-failure"]
	require.NotNil(t, f, out)
	assert.Equal(t, "bugs_test.go:17: 2 meals, want 3", f["message"])
	assert.Regexp(t, `bugs_test\.go:17:11$`, f["position"])
	// 18 steps: the last Done wakes the waiter in a step of its own.
	assert.Equal(t, 18.0, f["steps"])
	u := byKind["unsupported"]
	require.NotNil(t, u, out)
	assert.Equal(t, bugsPath+"TestUnsupported", u["test"])

	// An incomplete exploration without finding is one "unknown" object.
	status, out, _ = runExplore(t, "-json", "-run", "TestPasses", "-strategy", "dfs", "-max-executions", "3", bugsPkg)
	assert.Equal(t, 1, status)
	lines = jsonLines(t, out)
	require.Len(t, lines, 1, out)
	assert.Equal(t, "unknown", lines[0]["kind"])
	assert.Equal(t, "incomplete: the executions bound was reached after 3 executions; nothing is proved", lines[0]["message"])
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func TestExploreReplay(t *testing.T) {
	status, out, errOut := runExplore(t, "-json", "-run", "TestDeadlock", bugsPkg)
	require.Equal(t, 1, status, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1)
	token := lines[0]["replay"].(string)

	status, out, errOut = runExplore(t, "-run", "^TestDeadlock$", "-replay", token, bugsPkg)
	require.Equal(t, 1, status, errOut)
	assert.Regexp(t, `(?m)^fail +\S+TestDeadlock +1 execution \(replay, seed 0\): 1 finding$`, out)
	assert.Contains(t, out, "interleaving (4 steps, execution 1):")
	assert.Contains(t, out, "replay: "+token+"\n")

	status, out, errOut = runExplore(t, "-json", "-run", "^TestDeadlock$", "-replay", token, bugsPkg)
	require.Equal(t, 1, status, errOut)
	replayed := jsonLines(t, out)
	require.Len(t, replayed, 1)
	assert.Equal(t, lines[0], replayed[0], "the replay reproduces the finding exactly")

	// The token of another test is an error, not a silent pass.
	status, _, errOut = runExplore(t, "-run", "TestPasses", "-replay", token, bugsPkg)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "the replay token does not match this program")
	// -replay needs one test.
	status, _, errOut = runExplore(t, "-replay", token, bugsPkg)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "-replay: -run must select exactly one test, 4 match (TestDeadlock, TestFails, TestPasses, TestUnsupported)")
}

func TestExploreStrategiesAreDeterministic(t *testing.T) {
	for _, s := range []string{"random", "pct"} {
		t.Run(s, func(t *testing.T) {
			args := []string{"explore", "-json", "-run", "TestDeadlock", "-strategy", s, "-seed", "7", "-max-executions", "300", bugsPkg}
			status, out, errOut := runExplore(t, args[1:]...)
			require.Equal(t, 1, status, errOut)
			lines := jsonLines(t, out)
			require.Len(t, lines, 1, "seed 7")
			assert.Equal(t, "deadlock", lines[0]["kind"], "seed 7")
			_, again, _ := runExplore(t, args[1:]...)
			assert.Equal(t, out, again, "seed 7: same seed, same findings and tokens")
		})
	}
	status, _, errOut := runExplore(t, "-run", "TestPasses", "-strategy", "pb", "-preemptions", "1", "-workers", "2", bugsPkg)
	assert.Equal(t, 1, status, "pb with bound 1 prunes schedules: unknown, not pass")
	assert.Empty(t, errOut)
}

func TestExploreUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-strategy", "bfs", bugsPkg}, `ltl explore: -strategy: unknown strategy "bfs" (want auto, dpor, dfs, pb, random or pct)`},
		{[]string{"-run", "(", bugsPkg}, "ltl explore: -run: error parsing regexp: missing closing )"},
		{[]string{"-workers", "-1", bugsPkg}, "ltl explore: -workers: must not be negative, got -1"},
		{[]string{"-max-executions", "x", bugsPkg}, `ltl explore: invalid value "x" for flag -max-executions`},
		{[]string{"-nope", bugsPkg}, "ltl explore: flag provided but not defined: -nope"},
		{[]string{"-run", "Nothing", bugsPkg}, `ltl explore: no Test function of ./testdata/explore/bugs matches -run "Nothing"`},
		{[]string{"-run", "TestPasses", "-replay", "garbage", bugsPkg}, `malformed replay token "garbage"`},
		{[]string{"./testdata/explore/badtype"}, `badtype/bad.go:4:23: cannot use "not an int"`},
	} {
		status, out, errOut := runExplore(t, tc.args...)
		assert.Equal(t, 2, status, "%v", tc.args)
		assert.Empty(t, out, "%v", tc.args)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
	}
}

func TestExploreHelp(t *testing.T) {
	status, out, _ := runLTL(t, "", "help", "explore")
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "Usage: ltl explore")
	status, out, _ = runLTL(t, "", "explore", "-h")
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "-replay TOKEN")
}

// TestExploreProgress: progress lines go to a terminal only.
func TestExploreProgress(t *testing.T) {
	var buf bytes.Buffer
	o := newExploreOutput(&env{stdout: &buf, stderr: &buf}, false)
	assert.Nil(t, o.progress(&explore.Entry{Name: "p.TestX"}), "stderr is not a terminal")

	o.terminal = true
	o.progress(&explore.Entry{Name: "p.TestX"})(explore.Progress{Executions: 300, Findings: 1, Elapsed: 2 * time.Second})
	assert.Contains(t, buf.String(), "p.TestX: 300 executions, 1 findings, 150 executions/s, 2s")
	o.endProgress()
	assert.True(t, strings.HasSuffix(buf.String(), "\r\033[K"), "the line is cleared")
}

// The singleton example carries the Java thesis's literal spec, which every
// program calling getSingleton violates (also the fixed one), and the
// corrected spec atMostOnce, which the fixed version satisfies: -specs
// selects what is checked.
func TestExploreSpecsFlag(t *testing.T) {
	const pkg = "../../examples/explore/singleton"
	status, out, errOut := runExplore(t, "-json", pkg)
	assert.Equal(t, 1, status, "%s\n%s", out, errOut)
	assert.Contains(t, out, `ltl:spec thesis violated`)

	status, out, errOut = runExplore(t, "-specs", "atMostOnce", pkg)
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)
	assert.Regexp(t, `(?m)^pass +github.com/henceforth-go/henceforth/examples/explore/singleton.TestFixed `, out)

	status, out, errOut = runExplore(t, "-specs", "none", pkg)
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)

	status, _, errOut = runExplore(t, "-specs", "atMostOnce,,thesis", pkg)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "-specs: empty spec name")
}

// A spec whose state predicate depends on a symbolic input: the guard
// alone (no if in the code) separates the violating inputs; the finding
// carries them, and the fixed function passes.
func TestExploreSymbolicGuard(t *testing.T) {
	const pkg = "../../examples/symbolic/guard"
	status, out, errOut := runExplore(t, "-json", "-func", "Set", pkg)
	require.Equal(t, 1, status, "%s\n%s", out, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1)
	assert.Equal(t, "ltl", lines[0]["kind"])
	assert.Equal(t, "ltl:spec safe violated: G !high", lines[0]["message"])
	assert.Equal(t, "3*int(reading)+10 > 100", lines[0]["path_condition"])
	in, ok := lines[0]["inputs"].(map[string]any)
	require.True(t, ok, "inputs: %v", lines[0])
	reading, ok := in["reading"].(float64)
	require.True(t, ok, "inputs: %v", in)
	assert.Greater(t, 3*int(reading)+10, 100, "the input makes level > 100")

	status, out, errOut = runExplore(t, "-func", "SetClamped", pkg)
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)
	assert.Regexp(t, `(?m)^pass +\S*guard.SetClamped `, out)
}

// -func explores a //ltl:symbolic function: its parameters are inputs, and
// the finding carries the inputs that reach the bug.
func TestExploreFuncFlag(t *testing.T) {
	const pkg = "../../examples/symbolic/magic"
	status, out, errOut := runExplore(t, "-json", "-func", "Check", pkg)
	require.Equal(t, 1, status, "%s\n%s", out, errOut)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1)
	assert.Equal(t, "panic", lines[0]["kind"])
	in, ok := lines[0]["inputs"].(map[string]any)
	require.True(t, ok, "inputs: %v", lines[0])
	n, limit := int(in["n"].(float64)), int(in["limit"].(float64))
	assert.Equal(t, limit+7, n*3, "the inputs reach the magic comparison: %v", in)

	status, _, errOut = runExplore(t, "-func", "Nope", pkg)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, `-func: explore: no function "Nope"`)
	status, _, errOut = runExplore(t, "-func", "Check", "-run", "X", pkg)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "-func and -run are exclusive")
}

// TestExploreNested: an operation performed inside a method called by a
// modelled library function (a Lock in a String method called by
// fmt.Sprintf) is a scheduling point like any other: the test passes, the
// exploration is complete, nothing is said on stderr; a read lock taken
// again inside a String method deadlocks when a writer queues between the
// two.
func TestExploreNested(t *testing.T) {
	status, out, errOut := runExplore(t, "-run", "TestNestedLock", "./testdata/explore/nested")
	assert.Equal(t, 0, status, "%s\n%s", out, errOut)
	assert.Regexp(t, `(?m)^pass +\S+TestNestedLock +\d+ executions? \(dpor, complete\)$`, out)
	assert.Empty(t, errOut)

	status, out, errOut = runExplore(t, "-run", "TestNestedReadLock", "./testdata/explore/nested")
	assert.Equal(t, 1, status, "%s\n%s", out, errOut)
	assert.Contains(t, out, "nested_test.go:42:12: deadlock: all goroutines are asleep - deadlock!")
	assert.Regexp(t, `(?m)^fail +\S+TestNestedReadLock +\d+ executions \(dpor, complete\): 1 finding$`, out)
}

// -bounded accepts an exploration a bound cut without findings, labelled
// "bounded" (not a pass, not a proof); findings and unsupported constructs
// still fail.
func TestExploreBounded(t *testing.T) {
	status, out, _ := runExplore(t, "-bounded", "-run", "TestPasses", "-strategy", "dfs", "-max-executions", "3", bugsPkg)
	assert.Equal(t, 0, status, out)
	assert.Contains(t, out, "bounded  "+bugsPath+"TestPasses  3 executions (dfs, executions bound reached): nothing found within the bound: the executions bound was reached after 3 executions; nothing is proved\n")
	assert.NotContains(t, out, "pass ")

	status, out, _ = runExplore(t, "-json", "-bounded", "-run", "TestPasses", "-strategy", "dfs", "-max-executions", "3", bugsPkg)
	assert.Equal(t, 0, status, out)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1, out)
	assert.Equal(t, "bounded", lines[0]["kind"])
	assert.Equal(t, "nothing found within the bound: the executions bound was reached after 3 executions; nothing is proved", lines[0]["message"])

	// A complete pass is still a pass.
	status, out, _ = runExplore(t, "-bounded", "-run", "TestPasses", bugsPkg)
	assert.Equal(t, 0, status, out)
	assert.Contains(t, out, "pass     "+bugsPath+"TestPasses")

	for _, test := range []string{"TestDeadlock", "TestUnsupported"} {
		status, out, _ = runExplore(t, "-bounded", "-run", "^"+test+"$", bugsPkg)
		assert.Equal(t, 1, status, "%s:\n%s", test, out)
		assert.NotContains(t, out, "bounded  ", test)
	}
}

// -ignore-leaks takes functions as stacks name them, comma-separated.
func TestExploreIgnoreLeaks(t *testing.T) {
	o := exploreOptions(t, "-ignore-leaks", "example.com/pool.(*Pool).purge,example.com/pool.worker.func1")
	assert.Equal(t, []string{"example.com/pool.(*Pool).purge", "example.com/pool.worker.func1"}, o.IgnoreLeaks)
}

// exploreOptions returns the options ltl explore's flags args make.
func exploreOptions(t *testing.T, args ...string) explore.Options {
	t.Helper()
	var f exploreFlags
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	f.register(fs)
	require.NoError(t, fs.Parse(args))
	o, err := f.options()
	require.NoError(t, err)
	return o
}
