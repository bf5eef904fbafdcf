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
	total := max(rs[0].Shard.Total, 1)
	m := &Report{Entry: rs[0].Entry, Strategy: rs[0].Strategy, Seed: rs[0].Seed, Complete: true}
	seen := make([]bool, total)
	var set findingSet
	for _, r := range rs {
		sh := r.Shard
		if sh == (Shard{}) {
			sh = Shard{0, 1}
		}
		switch {
		case r.Entry != m.Entry:
			return nil, fmt.Errorf("merge: reports of %s and %s", m.Entry, r.Entry)
		case sh.Total != total:
			return nil, fmt.Errorf("merge: %s: shard %s of a run in %d shards", r.Entry, sh, total)
		case sh.Index < 0 || sh.Index >= total:
			return nil, fmt.Errorf("merge: %s: shard index %d out of range", r.Entry, sh.Index)
		case seen[sh.Index]:
			return nil, fmt.Errorf("merge: %s: shard %s twice", r.Entry, sh)
		}
		seen[sh.Index] = true
		for _, f := range r.Findings {
			set.add(f)
		}
		m.Executions += r.Executions
		m.Classes += r.Classes
		m.Pruned += r.Pruned
		m.Skipped += r.Skipped
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
			if m.Bound == "" || slices.Index(boundOrder, r.Bound) < slices.Index(boundOrder, m.Bound) {
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
	if missing := missingShards(seen); missing != "" {
		m.Complete, m.Bound = false, "shards"
		m.Suggestion = "run the missing shards (" + missing + ") and merge their reports with these"
	}
	m.Findings = set.sorted()
	return m, nil
}

// missingShards lists the shards not seen ("2/4, 3/4"); "" if none.
func missingShards(seen []bool) string {
	var out []string
	for i, ok := range seen {
		if !ok {
			out = append(out, Shard{i, len(seen)}.String())
		}
	}
	return strings.Join(out, ", ")
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
	total := max(rs[0].Shard.Total, 1)
	m := &FindResult{Complete: true}
	seen := make([]bool, total)
	for _, r := range rs {
		sh := r.Shard
		if sh == (Shard{}) {
			sh = Shard{0, 1}
		}
		switch {
		case sh.Total != total:
			return nil, fmt.Errorf("merge: search shard %s of a run in %d shards", sh, total)
		case sh.Index < 0 || sh.Index >= total:
			return nil, fmt.Errorf("merge: search shard index %d out of range", sh.Index)
		case seen[sh.Index]:
			return nil, fmt.Errorf("merge: search shard %s twice", sh)
		}
		seen[sh.Index] = true
		m.Nodes += r.Nodes
		m.States += r.States
		if w := r.Witness; w != nil && (m.Witness == nil || w.Steps < m.Witness.Steps) {
			m.Witness = w
		}
		if !r.Complete && (m.Bound == "" || slices.Index(boundOrder, r.Bound) < slices.Index(boundOrder, m.Bound)) {
			m.Complete, m.Bound = false, r.Bound
		}
	}
	if missingShards(seen) != "" {
		m.Complete, m.Bound = false, "shards"
	}
	if m.Witness != nil {
		m.Complete, m.Bound = true, ""
	}
	return m, nil
}
