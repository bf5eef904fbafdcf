package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/henceforth-go/henceforth/explore"
)

// Merging the outputs of a sharded run (ltl explore -shard I/N -json, one
// per shard) into the report of one run: each test's findings from every
// shard, and its verdict: fail with a finding; pass only if every shard
// 1..N reported the test complete; unknown otherwise (a shard missing,
// incomplete, or unable to run the test).

// shardLine is the line of kind "shard" that ends a test's output in a
// shard's -json output: the shard, whether its part is complete, its
// executions and its verdict (in Message).
func shardLine(r *explore.Report, verdict string) jsonFinding {
	complete := r.Complete
	return jsonFinding{Test: r.Entry, Kind: "shard", Message: verdict, Shard: r.Shard.String(), Complete: &complete, Executions: r.Executions,
		Suggestion: r.Suggestion}
}

// mergedTest is one test of the merged outputs.
type mergedTest struct {
	name       string
	shard      explore.Shard // Total: the test's shard count (0 until a shard line)
	parts      map[int]jsonFinding
	findings   []jsonFinding
	incomplete []string // messages of unknown lines
	executions int
}

// mergeInput reads the -json lines of one input into tests; errors carry
// name:line.
func mergeInput(tests map[string]*mergedTest, name string, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var jf jsonFinding
		if err := json.Unmarshal([]byte(line), &jf); err != nil {
			return fmt.Errorf("%s:%d: not a line of ltl explore -json: %v", name, n, err)
		}
		if jf.Test == "" || jf.Kind == "" {
			return fmt.Errorf("%s:%d: not a line of ltl explore -json: no test or kind", name, n)
		}
		if jf.Shard == "" {
			return fmt.Errorf("%s:%d: a line without shard: merge the outputs of ltl explore -shard I/N -json", name, n)
		}
		sh, err := explore.ParseShard(jf.Shard)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		t := tests[jf.Test]
		if t == nil {
			t = &mergedTest{name: jf.Test, parts: map[int]jsonFinding{}}
			tests[jf.Test] = t
		}
		if t.shard.Total != 0 && t.shard.Total != sh.Total {
			return fmt.Errorf("%s:%d: %s: shard %s, but another output of the test has %d shards", name, n, jf.Test, sh, t.shard.Total)
		}
		t.shard.Total = sh.Total
		switch jf.Kind {
		case "shard":
			if _, dup := t.parts[sh.Index]; dup {
				return fmt.Errorf("%s:%d: %s: shard %s twice", name, n, jf.Test, sh)
			}
			if jf.Complete == nil {
				return fmt.Errorf("%s:%d: %s: shard line without \"complete\"", name, n, jf.Test)
			}
			t.parts[sh.Index] = jf
			t.executions += jf.Executions
		case "unknown", "bounded":
			t.incomplete = append(t.incomplete, "shard "+jf.Shard+": "+jf.Message)
		default:
			t.addFinding(jf)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// addFinding adds a finding of one shard: the shortest per key (the
// canonical one of explore.Finding.Key, which names a race by its two
// accesses whichever goroutines showed it; lines without a key: per
// kind, position and message, per kind and position for a test failure),
// with the executions that showed it summed (and a test failure's
// messages as variants).
func (t *mergedTest) addFinding(jf jsonFinding) {
	jf.Shard = ""
	same := func(g jsonFinding) bool {
		if g.Key != "" || jf.Key != "" {
			return g.Key == jf.Key
		}
		return g.Kind == jf.Kind && g.Position == jf.Position && (g.Message == jf.Message || jf.Kind == string(explore.KindTestFailure))
	}
	i := slices.IndexFunc(t.findings, same)
	if i < 0 {
		t.findings = append(t.findings, jf)
		return
	}
	old := &t.findings[i]
	var variants []string
	if jf.Kind == string(explore.KindTestFailure) {
		variants = unionSorted(old.Variants, jf.Variants, []string{old.Message, jf.Message})
	}
	seen := old.Seen + jf.Seen
	if jf.Steps < old.Steps || jf.Steps == old.Steps && jf.Message < old.Message {
		*old = jf
	}
	old.Seen = seen
	if len(variants) > 1 {
		old.Variants = variants
	}
}

// unionSorted returns the distinct strings of the lists, sorted.
func unionSorted(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// verdict is the test's verdict over all its shards, with the reason of
// an unknown one.
func (t *mergedTest) verdict() (string, string) {
	unknown := false
	for _, f := range t.findings {
		if f.Kind != string(explore.KindUnsupported) && f.Kind != string(explore.KindInternal) {
			return "fail", ""
		}
		unknown = true
	}
	var missing, partial []string
	for i := range max(t.shard.Total, 1) {
		sh := explore.Shard{Index: i, Total: t.shard.Total}
		p, ok := t.parts[i]
		switch {
		case !ok:
			missing = append(missing, sh.String())
		case !*p.Complete:
			partial = append(partial, sh.String())
		}
	}
	var why []string
	if len(missing) > 0 {
		why = append(why, "missing shards: "+strings.Join(missing, ", "))
	}
	if len(partial) > 0 {
		why = append(why, "incomplete shards: "+strings.Join(partial, ", "))
		why = append(why, t.incomplete...)
	}
	if unknown {
		why = append(why, "a shard could not run the test")
	}
	if len(why) > 0 {
		return "unknown", strings.Join(why, "; ") + "; nothing is proved"
	}
	return "pass", ""
}

// mergeShards merges the shards' outputs in files (standard input if
// none) and prints the merged report: the exit status of one run.
func mergeShards(e *env, files []string, asJSON bool) (int, error) {
	tests := map[string]*mergedTest{}
	if len(files) == 0 {
		if err := mergeInput(tests, "standard input", e.stdin); err != nil {
			return 2, err
		}
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return 2, err
		}
		err = mergeInput(tests, name, f)
		f.Close()
		if err != nil {
			return 2, err
		}
	}
	if len(tests) == 0 {
		return 2, fmt.Errorf("-merge: no shard output to merge")
	}
	out := newExploreOutput(e, asJSON)
	status := 0
	for _, name := range slices.Sorted(maps.Keys(tests)) {
		t := tests[name]
		verdict, why := t.verdict()
		if verdict != "pass" {
			status = 1
		}
		slices.SortStableFunc(t.findings, func(a, b jsonFinding) int { return a.Steps - b.Steps })
		if asJSON {
			for _, f := range t.findings {
				out.writeJSON(f)
			}
			if verdict == "unknown" && len(t.findings) == 0 {
				out.writeJSON(jsonFinding{Test: name, Kind: "unknown", Message: why})
			}
			continue
		}
		for _, f := range t.findings {
			out.printf(out.stdout, "--- %s: %s\n%s\n    at %s (%d steps)\n", name, f.Kind, f.Message, f.Position, f.Steps)
			if f.Replay != "" {
				out.printf(out.stdout, "replay with: -replay %s (ltl explore) or -ltl.replay=%s (go test)\n", f.Replay, f.Replay)
			}
		}
		line := fmt.Sprintf("%-8s %s  %s (%d of %d shards", verdict, name, plural(t.executions, "execution"), len(t.parts), max(t.shard.Total, 1))
		switch {
		case verdict == "pass":
			line += ", complete)"
		case len(t.findings) > 0 && verdict == "unknown":
			line += "): " + plural(len(t.findings), "finding") + " that stopped the exploration; nothing is proved"
		case len(t.findings) > 0:
			line += "): " + plural(len(t.findings), "finding")
		default:
			line += "): " + why
		}
		out.printf(out.stdout, "%s\n", line)
	}
	return status, out.err
}
