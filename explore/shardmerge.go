package explore

import (
	"fmt"
	"slices"
	"strings"
)

// MergeReports merges the reports of the shards of one exploration (each
// explored with Options.Shard {i, n}, every one of the same entry and
// total n) into the report of the whole exploration: its findings (the
// shortest of each, Seen and Variants summed), executions and classes
// (the shards' classes are disjoint: the sum) and bounds. It is complete
// only if every shard 1..n is present and complete; with shards missing,
// Bound is "shards" and Suggestion names them. Unsharded reports merge as
// shard 1/1. Reports of different entries or totals, or two of one shard,
// are an error.
func MergeReports(rs ...*Report) (*Report, error) {
	if len(rs) == 0 {
		return nil, fmt.Errorf("merge: no reports")
	}
	m := &Report{Entry: rs[0].Entry, Strategy: rs[0].Strategy, Seed: rs[0].Seed, Complete: true}
	seen := newShardSet(rs[0].Shard)
	var set findingSet
	for _, r := range rs {
		if r.Entry != m.Entry {
			return nil, fmt.Errorf("merge: reports of %s and %s", m.Entry, r.Entry)
		}
		if err := seen.add(r.Shard); err != nil {
			return nil, fmt.Errorf("merge: %s: %w", r.Entry, err)
		}
		for _, f := range r.Findings {
			set.add(f)
		}
		m.Executions += r.Executions
		m.Classes += r.Classes
		m.Pruned += r.Pruned
		m.Skipped += r.Skipped
		m.Probes += r.Probes
		m.Inconclusive += r.Inconclusive
		m.Infeasible += r.Infeasible
		m.MaxSteps = max(m.MaxSteps, r.MaxSteps)
		m.Goroutines = max(m.Goroutines, r.Goroutines)
		m.Elapsed = max(m.Elapsed, r.Elapsed)
		m.Warnings = unionStrings(m.Warnings, r.Warnings...)
		m.Concretized = unionStrings(m.Concretized, r.Concretized...)
		m.SpecPackages = unionStrings(m.SpecPackages, r.SpecPackages...)
		if !r.Complete {
			m.Complete = false
			if boundBefore(r.Bound, m.Bound) {
				m.Bound, m.Suggestion = r.Bound, r.Suggestion
			}
		}
		if m.classSet != nil || r.classSet != nil {
			if m.classSet == nil {
				m.classSet = map[uint64]bool{}
			}
			for h := range r.classSet {
				m.classSet[h] = true
			}
		}
	}
	if missing := seen.missing(); missing != "" {
		m.Complete, m.Bound = false, "shards"
		m.Suggestion = "run the missing shards (" + missing + ") and merge their reports with these"
	}
	m.Findings = set.sorted()
	return m, nil
}

// shardSet is the shards of one run whose results a merge has taken,
// indexed by Shard.Index.
type shardSet []bool

// newShardSet is the empty set of the shards of first's run (the zero
// Shard: a run in one shard).
func newShardSet(first Shard) shardSet { return make(shardSet, max(first.Total, 1)) }

// add takes a result of shard sh (the zero Shard: 1/1); an error if sh is
// of a run in another number of shards, out of range, or taken already.
func (s shardSet) add(sh Shard) error {
	if sh == (Shard{}) {
		sh = Shard{0, 1}
	}
	switch {
	case sh.Total != len(s):
		return fmt.Errorf("shard %s of a run in %d shards", sh, len(s))
	case sh.Index < 0 || sh.Index >= len(s):
		return fmt.Errorf("shard index %d out of range", sh.Index)
	case s[sh.Index]:
		return fmt.Errorf("shard %s twice", sh)
	}
	s[sh.Index] = true
	return nil
}

// missing lists the shards not taken ("2/4, 3/4"); "" if none.
func (s shardSet) missing() string {
	var out []string
	for i, ok := range s {
		if !ok {
			out = append(out, Shard{i, len(s)}.String())
		}
	}
	return strings.Join(out, ", ")
}

// boundBefore reports whether bound b takes precedence (boundOrder) over
// the bound named so far ("": none yet).
func boundBefore(b, sofar string) bool {
	return sofar == "" || slices.Index(boundOrder, b) < slices.Index(boundOrder, sofar)
}

// unionStrings appends the elements of add not in s.
func unionStrings(s []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(s, a) {
			s = append(s, a)
		}
	}
	return s
}

// MergeFindResults merges the results of the shards of one search (each
// run with FindOptions.Shard {i, n}, every one of the same total n) into
// the result of the whole search: the witness is the fewest-steps one of
// any shard (with BFS, a shortest witness of the whole search), and it
// is found as soon as one shard found it. Without a witness the search
// is complete ("none") only if every shard 1..n is present and complete;
// with shards missing, Bound is "shards". Nodes and States are summed
// (states seen by two shards count twice). Two results of one shard, or
// of different totals, are an error.
func MergeFindResults(rs ...*FindResult) (*FindResult, error) {
	if len(rs) == 0 {
		return nil, fmt.Errorf("merge: no search results")
	}
	m := &FindResult{Complete: true}
	seen := newShardSet(rs[0].Shard)
	for _, r := range rs {
		if err := seen.add(r.Shard); err != nil {
			return nil, fmt.Errorf("merge: search %w", err)
		}
		m.Nodes += r.Nodes
		m.States += r.States
		if w := r.Witness; w != nil && (m.Witness == nil || w.Steps < m.Witness.Steps) {
			m.Witness = w
		}
		if !r.Complete && boundBefore(r.Bound, m.Bound) {
			m.Complete, m.Bound = false, r.Bound
		}
	}
	if seen.missing() != "" {
		m.Complete, m.Bound = false, "shards"
	}
	if m.Witness != nil {
		m.Complete, m.Bound = true, ""
	}
	return m, nil
}
