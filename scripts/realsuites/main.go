// Command realsuites measures ltl explore on the unmodified test suites
// of real Go modules and of standard library packages, next to
// go test -race -count=3 on the same suites in the same run.
//
// Usage:
//
//	go run ./scripts/realsuites [-work DIR] [-timeout D] [-suites NAME,…] [-ltl PATH]
//	        [-details FILE] [-save FILE] [-go-times FILE]
//
// Each module suite is fetched through the Go module proxy at its pinned
// version (go mod download), copied into DIR (a temporary directory by
// default) and run there: first go test -race -vet=off -count=3 ./... (after a
// build that warms the cache, so both sides are measured without
// compilation), then ltl explore -bounded -timeout D ./... . Standard
// library suites run ltl explore and go test on the named packages. The
// table printed on standard output has one row per suite: tests (as ltl
// explore lists them), how many completed (a complete pass), were bounded
// without finding, were unsupported (an unsupported finding), had other
// findings (by kind), stayed unknown, and both wall times with their ratio.
// -details writes every finding's first line and every unsupported
// message, for explaining the table. -save writes the measurements as
// JSON; -go-times takes the go test side from such a file instead of
// running go test again (it does not depend on the explorer), which the
// table then says.
//
// Nothing fetched is committed: the module cache and DIR hold it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// suite is one test suite: a module at a pinned version, or standard
// library packages (module empty).
type suite struct {
	name    string
	module  string
	version string
	pkgs    []string // packages to test; "./..." for a module
}

var suites = []suite{
	{name: "conc", module: "github.com/sourcegraph/conc", version: "v0.3.0"},
	{name: "ants", module: "github.com/panjf2000/ants/v2", version: "v2.12.1"},
	{name: "x/sync", module: "golang.org/x/sync", version: "v0.18.0"},
	{name: "golang-lru", module: "github.com/hashicorp/golang-lru/v2", version: "v2.0.7"},
	{name: "go-cache", module: "github.com/patrickmn/go-cache", version: "v2.1.0+incompatible"},
	{name: "xsync", module: "github.com/puzpuzpuz/xsync/v4", version: "v4.5.0"},
	{name: "backoff", module: "github.com/cenkalti/backoff/v4", version: "v4.3.0"},
	{name: "clockwork", module: "github.com/jonboulle/clockwork", version: "v0.5.0"},
	{name: "std", pkgs: []string{"sync", "context", "sort", "strings", "bytes", "errors"}},
}

// result is what one suite measured.
type result struct {
	suite                                       suite
	tests, completed, bounded, unsupported, unk int
	findings                                    map[string]int // tests with findings, by first finding kind
	ltlWall, goWall                             time.Duration
	goErr                                       string
	details                                     []string
}

func main() {
	work := flag.String("work", "", "directory for the suites' copies (default: a temporary directory)")
	timeout := flag.Duration("timeout", 10*time.Second, "ltl explore's -timeout per test")
	only := flag.String("suites", "", "comma-separated suite `names` (default: all)")
	ltl := flag.String("ltl", "", "the ltl binary (default: built from this module)")
	details := flag.String("details", "", "write each suite's findings and unsupported messages to `file`")
	save := flag.String("save", "", "write the measurements as JSON to `file`")
	goTimes := flag.String("go-times", "", "take go test's wall times from the JSON `file` of an earlier -save")
	flag.Parse()
	if err := run(*work, *timeout, *only, *ltl, *details, *save, *goTimes); err != nil {
		fmt.Fprintln(os.Stderr, "realsuites:", err)
		os.Exit(1)
	}
}

func run(work string, timeout time.Duration, only, ltl, details, save, goTimes string) error {
	ctx := context.Background()
	var earlier map[string]saved
	if goTimes != "" {
		b, err := os.ReadFile(goTimes)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &earlier); err != nil {
			return fmt.Errorf("%s: %w", goTimes, err)
		}
	}
	if work == "" {
		d, err := os.MkdirTemp("", "realsuites")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		work = d
	}
	if ltl == "" {
		ltl = filepath.Join(work, "ltl")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", ltl, "github.com/henceforth-go/henceforth/cmd/ltl").CombinedOutput(); err != nil {
			return fmt.Errorf("building ltl: %v\n%s", err, out)
		}
	}
	var selected []suite
	for _, s := range suites {
		if only == "" || slices.Contains(strings.Split(only, ","), s.name) {
			selected = append(selected, s)
		}
	}
	var results []*result
	for _, s := range selected {
		var prev *saved
		if e, ok := earlier[s.name]; ok {
			prev = &e
		}
		r, err := measure(ctx, work, ltl, timeout, s, prev)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "realsuites: %s: %d tests, %d completed, %d bounded, %d unsupported, %v findings, %d unknown; ltl %s, go test %s\n",
			s.name, r.tests, r.completed, r.bounded, r.unsupported, r.findings, r.unk, r.ltlWall.Round(time.Second), r.goWall.Round(time.Second))
	}
	printTable(os.Stdout, results, timeout, goTimes)
	if save != "" {
		m := map[string]saved{}
		for _, r := range results {
			m[r.suite.name] = saved{GoWall: r.goWall, GoErr: r.goErr, LtlWall: r.ltlWall, Tests: r.tests,
				Completed: r.completed, Bounded: r.bounded, Unsupported: r.unsupported, Unknown: r.unk, Findings: r.findings}
		}
		b, err := json.MarshalIndent(m, "", "\t")
		if err != nil {
			return err
		}
		if err := os.WriteFile(save, b, 0o644); err != nil {
			return err
		}
	}
	if details != "" {
		var b bytes.Buffer
		for _, r := range results {
			fmt.Fprintf(&b, "## %s\n", r.suite.name)
			if r.goErr != "" {
				fmt.Fprintf(&b, "go test: %s\n", r.goErr)
			}
			for _, d := range r.details {
				fmt.Fprintln(&b, d)
			}
		}
		return os.WriteFile(details, b.Bytes(), 0o644)
	}
	return nil
}

// saved is one suite's measurements in a -save file.
type saved struct {
	GoWall, LtlWall                                 time.Duration
	GoErr                                           string
	Tests, Completed, Bounded, Unsupported, Unknown int
	Findings                                        map[string]int
}

// measure fetches and runs one suite; go test's side comes from prev if
// it is not nil.
func measure(ctx context.Context, work, ltl string, timeout time.Duration, s suite, prev *saved) (*result, error) {
	dir, pkgs := work, s.pkgs
	if s.module != "" {
		d, err := fetch(ctx, work, s)
		if err != nil {
			return nil, err
		}
		dir, pkgs = d, []string{"./..."}
	}
	r := &result{suite: s, findings: map[string]int{}}
	if prev != nil {
		r.goWall, r.goErr = prev.GoWall, prev.GoErr
	} else {
		// warm the build cache, then time the tests alone
		_, _ = command(ctx, dir, "go", append([]string{"test", "-race", "-vet=off", "-count=1", "-run", "^$"}, pkgs...)...)
		start := time.Now()
		if out, err := command(ctx, dir, "go", append([]string{"test", "-race", "-vet=off", "-count=3"}, pkgs...)...); err != nil {
			r.goErr = firstFailure(out)
		}
		r.goWall = time.Since(start)
	}

	start := time.Now()
	args := append([]string{"explore", "-bounded", "-timeout", timeout.String()}, pkgs...)
	out, err := command(ctx, dir, ltl, args...)
	r.ltlWall = time.Since(start)
	// status 1 means findings or unknowns, which the output lists; any
	// other failure (2: bad flags, a load error) means no test ran
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return nil, fmt.Errorf("ltl explore: %v\n%s", err, out)
	}
	r.parse(out)
	return r, nil
}

// fetch downloads the suite's module through the module proxy and
// returns a writable copy of it under work.
func fetch(ctx context.Context, work string, s suite) (string, error) {
	out, err := command(ctx, work, "go", "mod", "download", "-json", s.module+"@"+s.version)
	if err != nil {
		return "", fmt.Errorf("go mod download: %v\n%s", err, out)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal([]byte(out), &m); err != nil || m.Dir == "" {
		return "", fmt.Errorf("go mod download: no directory in %q", out)
	}
	dst := filepath.Join(work, strings.ReplaceAll(s.name, "/", "-"))
	if err := os.RemoveAll(dst); err != nil {
		return "", err
	}
	if err := copyTree(m.Dir, dst); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); err != nil {
		// a module from before modules: give it one
		if out, err := command(ctx, dst, "go", "mod", "init", s.module); err != nil {
			return "", fmt.Errorf("go mod init: %v\n%s", err, out)
		}
		if out, err := command(ctx, dst, "go", "mod", "tidy"); err != nil {
			return "", fmt.Errorf("go mod tidy: %v\n%s", err, out)
		}
	}
	if out, err := command(ctx, dst, "go", "mod", "download"); err != nil {
		return "", fmt.Errorf("go mod download in %s: %v\n%s", dst, err, out)
	}
	return dst, nil
}

// copyTree copies the regular files under src to dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		o, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(o, in); err != nil {
			o.Close()
			return err
		}
		return o.Close()
	})
}

// command runs name with args in dir and returns its combined output.
func command(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// firstFailure returns the first line of go test's output that says
// what failed.
func firstFailure(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "--- FAIL") || strings.HasPrefix(l, "FAIL") || strings.Contains(l, "panic:") {
			return strings.TrimSpace(l)
		}
	}
	return "failed"
}

var (
	resultLine  = regexp.MustCompile(`^(pass|fail|unknown|bounded)\s+(\S+)\s`)
	findingLine = regexp.MustCompile(`^--- (\S+): (\S+)$`)
)

// parse reads ltl explore's text output: a "--- TEST: KIND" header per
// finding (followed by its message) and one result line per test.
func (r *result) parse(out string) {
	kinds := map[string][]string{} // test → finding kinds
	var msgs []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var pending string
	for sc.Scan() {
		l := sc.Text()
		if pending != "" {
			msgs = append(msgs, pending+": "+strings.TrimSpace(l))
			pending = ""
			continue
		}
		if m := findingLine.FindStringSubmatch(l); m != nil {
			kinds[m[1]] = append(kinds[m[1]], m[2])
			pending = m[1] + " " + m[2]
			continue
		}
		if m := resultLine.FindStringSubmatch(l); m != nil {
			r.tests++
			ks := kinds[m[2]]
			switch {
			case slices.Contains(ks, "unsupported"):
				r.unsupported++
			case len(ks) > 0:
				r.findings[ks[0]]++
			case m[1] == "pass":
				r.completed++
			case m[1] == "bounded":
				r.bounded++
			default:
				r.unk++
				r.details = append(r.details, "unknown: "+l)
			}
			continue
		}
		if strings.HasPrefix(l, "ltl explore:") {
			r.details = append(r.details, l)
		}
	}
	sort.Strings(msgs)
	r.details = append(r.details, msgs...)
}

func printTable(w io.Writer, results []*result, timeout time.Duration, goTimes string) {
	fmt.Fprintf(w, "| suite | version | tests | completed | bounded | unsupported | findings | unknown | ltl explore | go test -race -count=3 | ratio |\n")
	fmt.Fprintf(w, "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|\n")
	var tot result
	tot.findings = map[string]int{}
	for _, r := range results {
		version := r.suite.version
		if r.suite.module == "" {
			version = strings.Join(r.suite.pkgs, " ")
		}
		gw := fmt.Sprintf("%.1f s", r.goWall.Seconds())
		if r.goErr != "" {
			gw += " (fails: " + r.goErr + ")"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %s | %d | %.1f s | %s | %.1f× |\n",
			r.suite.name, version, r.tests, r.completed, r.bounded, r.unsupported, findingsCell(r.findings), r.unk,
			r.ltlWall.Seconds(), gw, r.ltlWall.Seconds()/r.goWall.Seconds())
		tot.tests += r.tests
		tot.completed += r.completed
		tot.bounded += r.bounded
		tot.unsupported += r.unsupported
		tot.unk += r.unk
		for k, n := range r.findings {
			tot.findings[k] += n
		}
		tot.ltlWall += r.ltlWall
		tot.goWall += r.goWall
	}
	if tot.tests == 0 {
		return
	}
	fmt.Fprintf(w, "| **all** | | %d | %d (%.0f%%) | %d (%.0f%%) | %d (%.1f%%) | %s | %d | %.1f s | %.1f s | %.1f× |\n",
		tot.tests, tot.completed, pct(tot.completed, tot.tests), tot.bounded, pct(tot.bounded, tot.tests),
		tot.unsupported, pct(tot.unsupported, tot.tests), findingsCell(tot.findings), tot.unk,
		tot.ltlWall.Seconds(), tot.goWall.Seconds(), tot.ltlWall.Seconds()/tot.goWall.Seconds())
	fmt.Fprintf(w, "\nltl explore -bounded -timeout %s; tests with findings are counted by their first finding's kind.\n", timeout)
	if goTimes != "" {
		fmt.Fprintf(w, "go test's times are those of an earlier run (%s).\n", goTimes)
	}
}

func findingsCell(m map[string]int) string {
	if len(m) == 0 {
		return "0"
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return strings.Join(parts, ", ")
}

func pct(n, d int) float64 { return 100 * float64(n) / float64(d) }
