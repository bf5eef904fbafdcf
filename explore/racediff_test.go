package explore_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore"
)

// The differential check of race detection: every data race that Go's
// race detector reports when a package's tests run natively must be
// among the races the explorer reports for the same tests.
//
// Natively, each package runs with go test -race under varied GOMAXPROCS
// (-cpu 1,2,4) and test order (-shuffle with a seed that is printed);
// each "WARNING: DATA RACE" report becomes a pair of source positions:
// for each of the two accesses, the first frame of its stack whose file
// is in the package's directory ("?" when there is none: the race
// detector loses the caller's frame for some accesses, such as
// sync/atomic calls and WaitGroup's internal accesses). The explorer
// explores every Test function of the package with default options, and
// each race finding gives the same pair from its two stacks. A native
// "?" matches any position.
//
// Only native ⊆ explorer is asserted: native runs see some schedules,
// the explorer all of them (or as many as its bounds allow: a bound
// counts as what it could explore). The default is a short version, a
// few runs of a few packages; -racediff.long runs every package many
// times:
//
//	go test ./explore -run TestRaceDifferential -racediff.long -v

var (
	raceDiffLong = flag.Bool("racediff.long", false, "TestRaceDifferential: every package, many native runs")
	raceDiffRuns = flag.Int("racediff.runs", 0, "TestRaceDifferential: native go test runs per package (0: 2, or 8 with -racediff.long)")
	raceDiffSeed = flag.Int64("racediff.seed", 0, "TestRaceDifferential: first -shuffle seed of the native runs (0: from the clock)")
)

// raceDiffShort are the packages of the short version.
var raceDiffShort = []string{
	"testdata/racecases/lazyshare",
	"testdata/racecases/atomicmix",
	"testdata/racecases/sleephb",
}

// raceDiffSkip are packages with tests that the check leaves out, and why.
var raceDiffSkip = map[string]string{
	"../examples/explore/dekker": "its test drives the explorer (ltltest.Find, ltltest.Never) instead of running concurrent code: natively no goroutine of Dekker's runs, and under the explorer the test would interpret the explorer",
}

// racePair is a race as two source positions "file.go:line" (the file
// relative to the package directory, "?" if unknown), sorted.
type racePair [2]string

func newRacePair(a, b string) racePair {
	if b < a {
		a, b = b, a
	}
	return racePair{a, b}
}

func (p racePair) String() string { return p[0] + " ~ " + p[1] }

// coveredBy reports whether the native pair p is the explorer's pair q,
// a "?" of p matching any position.
func (p racePair) coveredBy(q racePair) bool {
	match := func(a, b string) bool { return a == "?" || a == b }
	return match(p[0], q[0]) && match(p[1], q[1]) || match(p[0], q[1]) && match(p[1], q[0])
}

// raceDiffPkg is one package of the check.
type raceDiffPkg struct {
	rel string // relative to the explore directory, slash-separated
	dir string // absolute, symlinks resolved
}

// nativeRace is a pair seen natively, with the report and the run it
// was first seen in.
type nativeRace struct {
	pair   racePair
	report string
	run    string
}

func TestRaceDifferential(t *testing.T) {
	long := *raceDiffLong
	goBin := goCommand(t)
	requireRaceDetector(t, goBin)

	pkgs := raceDiffPackages(t, long)
	runs := *raceDiffRuns
	if runs <= 0 {
		runs = 2
		if long {
			runs = 8
		}
	}
	count, nativeTimeout := 1, time.Minute
	opts := explore.Options{MaxExecutions: 2000, Timeout: 30 * time.Second}
	if long {
		count, nativeTimeout = 3, 5*time.Minute
		opts = explore.Options{MaxExecutions: 100000, Timeout: 3 * time.Minute}
	}
	seed := *raceDiffSeed
	if seed == 0 {
		seed = time.Now().UnixNano() % 1000000
	}
	t.Logf("native: %d runs per package of %s test -race -count=%d -cpu 1,2,4 -shuffle=N -timeout %s, N from %d (rerun with -racediff.seed=%d)",
		runs, goBin, count, nativeTimeout, seed, seed)
	t.Logf("explorer: default options with MaxExecutions %d, Timeout %s per test", opts.MaxExecutions, opts.Timeout)

	// The native runs first, then the explorer: they do not compete for
	// the CPUs, which would change the native schedules.
	native := map[string][]nativeRace{}
	for _, pkg := range pkgs {
		seen := map[racePair]bool{}
		for i := range runs {
			args := []string{"test", "-race", "-count=" + strconv.Itoa(count), "-cpu", "1,2,4",
				"-shuffle=" + strconv.FormatInt(seed+int64(i), 10), "-timeout", nativeTimeout.String(), "./" + pkg.rel}
			run := goBin + " " + strings.Join(args, " ")
			out := runNative(t, goBin, args, nativeTimeout)
			for _, r := range parseRaceReports(out, pkg.dir) {
				if !seen[r.pair] {
					seen[r.pair] = true
					r.run = run
					native[pkg.rel] = append(native[pkg.rel], r)
				}
			}
		}
		var pairs []string
		for _, r := range native[pkg.rel] {
			pairs = append(pairs, r.pair.String())
		}
		sort.Strings(pairs)
		t.Logf("native races of %s: %d %v", pkg.rel, len(pairs), pairs)
	}

	// The explorer, on every Test function of every package.
	var patterns []string
	for _, pkg := range pkgs {
		patterns = append(patterns, "./"+pkg.rel)
	}
	ctx := context.Background()
	p, err := explore.Load(ctx, explore.LoadConfig{Patterns: patterns})
	require.NoError(t, err)
	byDir := map[string][]*explore.Entry{}
	for _, e := range p.Tests(nil) {
		dir := realDir(filepath.Dir(p.Fset.Position(e.Fn.Pos()).Filename))
		byDir[dir] = append(byDir[dir], e)
	}
	for _, pkg := range pkgs {
		t.Run(pkg.rel, func(t *testing.T) {
			entries := byDir[pkg.dir]
			if len(native[pkg.rel]) > 0 {
				require.NotEmpty(t, entries, "no Test function of %s was loaded", pkg.rel)
			}
			found := map[racePair]bool{}
			var findings strings.Builder
			for _, e := range entries {
				r, err := p.Explore(ctx, e, opts)
				require.NoError(t, err, "exploring %s", e.Name)
				fmt.Fprintf(&findings, "%s: %s", e.Name, describeReport(r))
				for _, f := range r.Findings {
					if f.Kind != explore.KindRace {
						continue
					}
					found[explorerRacePair(f, pkg.dir)] = true
				}
				if !r.Complete {
					t.Logf("%s: explored %d executions, %s bound reached", e.Name, r.Executions, r.Bound)
				}
			}
			var got []string
			for q := range found {
				got = append(got, q.String())
			}
			sort.Strings(got)
			t.Logf("explorer races of %s: %d %v", pkg.rel, len(got), got)
			matched := map[racePair]bool{}
			for _, nr := range native[pkg.rel] {
				covered := false
				for q := range found {
					if nr.pair.coveredBy(q) {
						covered = true
						matched[q] = true
					}
				}
				if !covered {
					t.Errorf("the race %s that go test -race reported is not among the explorer's races %v\nnative run: %s\nnative report:\n%s\nexplorer:\n%s",
						nr.pair, got, nr.run, nr.report, findings.String())
				}
			}
			// Races the native runs did not show are not errors (a schedule
			// they did not take), but worth a look: a false positive shows
			// here.
			var only []string
			for q := range found {
				if !matched[q] {
					only = append(only, q.String())
				}
			}
			if len(only) > 0 {
				sort.Strings(only)
				t.Logf("explorer-only races of %s (not seen natively): %v", pkg.rel, only)
			}
		})
	}
}

// goCommand is the go command of the toolchain running this test: $GO
// (default "go"), then the bin/go of its GOROOT when there is one.
func goCommand(t *testing.T) string {
	goBin := os.Getenv("GO")
	if goBin == "" {
		goBin = "go"
	}
	out, err := exec.Command(goBin, "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command to run the tests natively (%s env GOROOT: %v)", goBin, err)
	}
	if bin := filepath.Join(strings.TrimSpace(string(out)), "bin", "go"); fileExists(bin) {
		return bin
	}
	return goBin
}

func fileExists(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && !fi.IsDir()
}

// requireRaceDetector skips the test when go test -race cannot work.
func requireRaceDetector(t *testing.T, goBin string) {
	out, err := exec.Command(goBin, "env", "CGO_ENABLED").Output()
	if err != nil {
		t.Skipf("cannot tell whether the race detector is available: %s env CGO_ENABLED: %v", goBin, err)
	}
	if strings.TrimSpace(string(out)) != "1" {
		t.Skip("the race detector is not available: go test -race needs cgo, and CGO_ENABLED is not 1")
	}
}

// runNative runs the go command with args, bounded by timeout plus a
// margin, and returns its combined output. A failing run is normal (a
// race fails the test); a build failure or an unavailable race detector
// is not.
func runNative(t *testing.T, goBin string, args []string, timeout time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	s := out.String()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case strings.Contains(s, "-race requires cgo") || strings.Contains(s, "race detector") && strings.Contains(s, "not supported"):
		t.Skipf("the race detector is not available:\n%s", s)
	case strings.Contains(s, "[build failed]") || strings.Contains(s, "[setup failed]"):
		t.Fatalf("%s %s: %v\n%s", goBin, strings.Join(args, " "), err, s)
	case ctx.Err() != nil:
		t.Logf("%s %s: killed after %s; races reported so far are kept", goBin, strings.Join(args, " "), timeout+time.Minute)
	case errors.As(err, &exit):
		if strings.Contains(s, "panic: test timed out") {
			t.Logf("%s %s: timed out; races reported so far are kept", goBin, strings.Join(args, " "))
		}
	default:
		t.Fatalf("%s %s: %v\n%s", goBin, strings.Join(args, " "), err, s)
	}
	return s
}

// raceDiffPackages lists the packages of the check: in the short version
// raceDiffShort; in the long one every package under testdata and
// ../examples/explore with a Test function in a _test.go file, except
// those of raceDiffSkip.
func raceDiffPackages(t *testing.T, long bool) []raceDiffPkg {
	t.Helper()
	var rels []string
	if !long {
		rels = raceDiffShort
	} else {
		for _, root := range []string{"testdata", "../examples/explore"} {
			err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil || !d.IsDir() {
					return err
				}
				rel := filepath.ToSlash(path)
				if reason, ok := raceDiffSkip[rel]; ok {
					t.Logf("skipping %s: %s", rel, reason)
					return filepath.SkipDir
				}
				if hasTestFunc(t, path) {
					rels = append(rels, rel)
				}
				return nil
			})
			require.NoError(t, err)
		}
	}
	var pkgs []raceDiffPkg
	for _, rel := range rels {
		abs, err := filepath.Abs(filepath.FromSlash(rel))
		require.NoError(t, err)
		pkgs = append(pkgs, raceDiffPkg{rel: rel, dir: realDir(abs)})
	}
	return pkgs
}

// hasTestFunc reports whether dir has a _test.go file declaring a Test
// function that go test runs.
func hasTestFunc(t *testing.T, dir string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	require.NoError(t, err)
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Recv == nil && isGoTestName(fd.Name.Name) {
				return true
			}
		}
	}
	return false
}

func isGoTestName(name string) bool {
	if name == "TestMain" || !strings.HasPrefix(name, "Test") {
		return false
	}
	return len(name) == 4 || !('a' <= name[4] && name[4] <= 'z')
}

// realDir is dir made absolute with symlinks resolved (dir itself if
// that fails), so that paths of the native reports and of the explorer
// compare equal.
func realDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return dir
}

// posIn is "file.go:line" for a position whose file is in dir, "" for
// one that is not.
func posIn(file string, line int, dir string) string {
	if file == "" || realDir(filepath.Dir(file)) != dir {
		return ""
	}
	return filepath.Base(file) + ":" + strconv.Itoa(line)
}

// explorerRacePair is the pair of a race finding: for the later access
// (Goroutines[0]) and the earlier one (Goroutines[1]), the first frame
// in dir.
func explorerRacePair(f *explore.Finding, dir string) racePair {
	side := func(i int) string {
		if i >= len(f.Goroutines) {
			return "?"
		}
		for _, fr := range f.Goroutines[i].Frames {
			if s := posIn(fr.Pos.Filename, fr.Pos.Line, dir); s != "" {
				return s
			}
		}
		return "?"
	}
	return newRacePair(side(0), side(1))
}

var (
	// An access's header in a race report: "Read at 0x… by goroutine 7:",
	// "Previous atomic write of size 8 at 0x… by main goroutine:"…
	raceAccessRE = regexp.MustCompile(`^(Previous )?([A-Za-z]+ )*(read|write|Read|Write)( of size \d+)? at 0x[0-9a-f]+ by .*:$`)
	// A frame's position: "      /abs/path/x_test.go:13 +0x44".
	raceFrameRE = regexp.MustCompile(`^\s+(\S+\.go):(\d+)( \+0x[0-9a-f]+)?$`)
)

// parseRaceReports returns a pair for each "WARNING: DATA RACE" report
// of out: the first frame in dir of the current access's stack and of
// the previous access's.
func parseRaceReports(out, dir string) []nativeRace {
	var races []nativeRace
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	var report []string
	in := false
	var sides []string // positions of the accesses seen so far
	access := -1       // index in sides of the access whose stack is being read
	finish := func() {
		if len(sides) >= 2 {
			races = append(races, nativeRace{pair: newRacePair(or(sides[0], "?"), or(sides[1], "?")), report: strings.Join(report, "\n")})
		}
		in, report, sides, access = false, nil, nil, -1
	}
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "WARNING: DATA RACE") {
			if in {
				finish()
			}
			in = true
			report = []string{line}
			continue
		}
		if !in {
			continue
		}
		report = append(report, line)
		switch {
		case strings.HasPrefix(line, "=================="):
			finish()
		case raceAccessRE.MatchString(line):
			sides = append(sides, "")
			access = len(sides) - 1
		case line == "" || !strings.HasPrefix(line, " "):
			access = -1 // the end of a stack, or "Goroutine N created at:"
		case access >= 0 && sides[access] == "":
			if m := raceFrameRE.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[2])
				sides[access] = posIn(m[1], n, dir)
			}
		}
	}
	if in {
		finish()
	}
	return races
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// TestParseRaceReports checks the parser of the differential check on
// reports as go test -race prints them.
func TestParseRaceReports(t *testing.T) {
	dir := "/src/pkg"
	out := `=== RUN   TestX
==================
WARNING: DATA RACE
Read at 0x00c00009e198 by goroutine 9:
  example.com/pkg.TestX.func1()
      /src/pkg/x_test.go:13 +0x44

Previous write at 0x00c00009e198 by goroutine 8:
  example.com/pkg.helper()
      /src/other/h.go:5 +0x1
  example.com/pkg.TestX()
      /src/pkg/x_test.go:18 +0x144
  testing.tRunner()
      /usr/local/go/src/testing/testing.go:2036 +0x21c

Goroutine 9 (running) created at:
  example.com/pkg.TestX()
      /src/pkg/x_test.go:12 +0x139
==================
==================
WARNING: DATA RACE
Atomic write at 0x00c0000180d8 by goroutine 9:
  sync/atomic.AddInt64()
      /usr/local/go/src/runtime/race_amd64.s:289 +0xb
  sync/atomic.AddInt64()
      <autogenerated>:1 +0x15

Previous read of size 8 at 0x00c0000180d8 by main goroutine:
  example.com/pkg.TestY()
      /src/pkg/y_test.go:17 +0x106

Goroutine 9 (running) created at:
  example.com/pkg.TestY()
      /src/pkg/y_test.go:13 +0xfc
==================
    testing.go:1712: race detected during execution of test
`
	got := parseRaceReports(out, dir)
	require.Len(t, got, 2)
	require.Equal(t, racePair{"x_test.go:13", "x_test.go:18"}, got[0].pair)
	require.Equal(t, racePair{"?", "y_test.go:17"}, got[1].pair)
	require.Contains(t, got[1].report, "Atomic write at")

	require.True(t, racePair{"?", "y_test.go:17"}.coveredBy(racePair{"y_test.go:14", "y_test.go:17"}))
	require.True(t, racePair{"?", "?"}.coveredBy(racePair{"a.go:1", "b.go:2"}))
	require.True(t, racePair{"x_test.go:13", "x_test.go:18"}.coveredBy(racePair{"x_test.go:13", "x_test.go:18"}))
	require.False(t, racePair{"x_test.go:13", "x_test.go:18"}.coveredBy(racePair{"x_test.go:13", "x_test.go:19"}))
	require.False(t, racePair{"?", "y_test.go:17"}.coveredBy(racePair{"?", "y_test.go:14"}))
}
