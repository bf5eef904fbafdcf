package explore

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Subtests.
//
// A test that calls t.Run is explored one subtest at a time, as
// go test -run 'TestX/case' runs it: each exploration runs the test
// function with only the t.Run calls of one subtest path running their
// function; the others return true at once without running it (testing's
// t.Run of a subtest -run filters out). The subtests of a test are found
// by a discovery execution: the test run once with every t.Run at the
// next level recording its name and running nothing (Program.Subtests).
// Discovery recurses into each subtest found, so every subtest that has
// no subtests of its own is an exploration (a leaf; one that has
// subtests only on some schedules is explored whole).
//
// The discovery execution is trusted only when it is the only execution
// of the test's code outside the subtests: if that code started
// goroutines or made a scheduling choice, or the execution ended with a
// finding or a bound, the test (or subtest) is explored whole, with its
// subtests running as -run filters them, and Entry.Note says why. A
// selected subtest that an execution did not run (its name depends on
// something the discovery did not see) is an "unsupported" finding.

// RunPattern is go test's -run: a pattern split by unbracketed '|' into
// alternatives and each by unbracketed '/' into one regular expression
// per level of the test name ("TestX/case/inner"). A test runs when some
// alternative matches each element of its name that the alternative has
// a level for; a test whose name is shorter than the alternative runs
// too (its subtests are filtered by the deeper levels).
type RunPattern struct {
	src  string
	alts [][]*regexp.Regexp // alternatives, each one regexp per level
}

// ParseRun parses a go test -run pattern. As testing does, each level's
// expression is rewritten as subtest names are (spaces to '_', other
// non-printable characters escaped) before it is compiled.
func ParseRun(pattern string) (*RunPattern, error) {
	r := &RunPattern{src: pattern}
	for i, alt := range splitRunPattern(pattern) {
		var levels []*regexp.Regexp
		for j, s := range alt {
			re, err := regexp.Compile(rewriteSubtestName(s))
			if err != nil {
				if len(alt) > 1 || i > 0 {
					return nil, fmt.Errorf("element %d of alternative %d of %q: %w", j, i, pattern, err)
				}
				return nil, err
			}
			levels = append(levels, re)
		}
		r.alts = append(r.alts, levels)
	}
	return r, nil
}

// String returns the pattern ParseRun parsed.
func (r *RunPattern) String() string { return r.src }

// Match reports whether go test -run would run the test or subtest of
// full name name ("TestX", "TestX/case_1"; names as testing makes them).
// A nil RunPattern matches every name.
func (r *RunPattern) Match(name string) bool {
	if r == nil {
		return true
	}
	elem := strings.Split(name, "/")
	for _, alt := range r.alts {
		ok := true
		for i, s := range elem {
			if i >= len(alt) {
				break
			}
			if !alt[i].MatchString(s) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// splitRunPattern is testing's splitRegexp: the alternatives of s, each
// split into levels, at '|' and '/' outside brackets and parentheses.
func splitRunPattern(s string) [][]string {
	var alts [][]string
	var a []string
	cs, cp := 0, 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '[':
			cs++
		case ']':
			if cs--; cs < 0 { // an unmatched ']' is legal
				cs = 0
			}
		case '(':
			if cs == 0 {
				cp++
			}
		case ')':
			if cs == 0 {
				cp--
			}
		case '\\':
			i++
		case '/', '|':
			if cs == 0 && cp == 0 {
				a = append(a, s[:i])
				if s[i] == '|' {
					alts = append(alts, a)
					a = nil
				}
				s = s[i+1:]
				i = 0
				continue
			}
		}
		i++
	}
	return append(alts, append(a, s))
}

// rewriteSubtestName is testing's rewrite: white space becomes '_' and
// other non-printable runes their Go escape.
func rewriteSubtestName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case isTestingSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isTestingSpace is testing's isSpace (not Unicode's Z class).
func isTestingSpace(r rune) bool {
	if r < 0x2000 {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680:
			return true
		}
		return false
	}
	if r <= 0x200a {
		return true
	}
	switch r {
	case 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return false
}

// uniqueSubtestName is testing's matcher.unique: the full name of the
// subtest sub (rewritten) of the test parent, with a "#NN" suffix making
// it distinct from the names used before; used counts them by full name.
func uniqueSubtestName(used map[string]int32, parent, sub string) string {
	base := parent + "/" + sub
	for {
		n := used[base]
		used[base] = n + 1
		if n == 0 && sub != "" {
			prefix, nn := parseSubtestNumber(base)
			if len(prefix) < len(base) && nn < used[prefix] {
				// named "sub#NN" explicitly while #NN was used for the
				// NNth occurrence of sub: add a suffix
				continue
			}
			return base
		}
		name := fmt.Sprintf("%s#%02d", base, n)
		if used[name] != 0 {
			// the nth occurrence of sub collides with a subtest named
			// "sub#NN" explicitly: try the next number
			continue
		}
		return name
	}
}

// parseSubtestNumber is testing's: s split into the prefix before a
// "#%02d" suffix and the suffix's number (s and 0 without one).
func parseSubtestNumber(s string) (string, int32) {
	i := strings.LastIndex(s, "#")
	if i < 0 {
		return s, 0
	}
	prefix, suffix := s[:i], s[i+1:]
	if len(suffix) < 2 || len(suffix) > 2 && suffix[0] == '0' {
		return s, 0
	}
	if suffix == "00" && !strings.HasSuffix(prefix, "/") {
		return s, 0
	}
	n, err := strconv.ParseInt(suffix, 10, 32)
	if err != nil || n < 0 {
		return s, 0
	}
	return prefix, int32(n)
}

// TestName is the name go test gives the entry's test: the function's
// name, then the subtest path ("TestX/case_1").
func (e *Entry) TestName() string {
	if len(e.Path) == 0 {
		return e.Fn.Name()
	}
	return e.Fn.Name() + "/" + strings.Join(e.Path, "/")
}

// subtest returns the entry of e's subtest named name (one element, as
// testing made it unique), filtered by run below it.
func (e *Entry) subtest(name string, run *RunPattern) *Entry {
	s := *e
	s.Path = append(e.Path[:len(e.Path):len(e.Path)], name)
	s.Name = e.Name + "/" + name
	s.run = run
	s.Note = ""
	return &s
}

// Subtests returns the explorations of test e that -run run selects (nil:
// all), one per subtest as described above, or e alone (its subtests
// filtered by run) when it has no subtests or they cannot be explored
// one by one (Entry.Note of the entry says why). An entry that does not
// take a *testing.T, or has symbolic inputs, is returned alone. Each
// discovery execution runs with opts' bounds on steps, loops, memory and
// time (Timeout bounds each one, not their sum); their executions and time
// count against none of the explorations' budgets. The result is empty
// when run selects none of e's subtests.
func (p *Program) Subtests(ctx context.Context, e *Entry, run *RunPattern, opts Options) ([]*Entry, error) {
	if !e.TakesT || len(e.Symbolic) > 0 {
		return []*Entry{e}, nil
	}
	if run != nil && !run.Match(e.TestName()) {
		return nil, nil
	}
	opts.memory = newMemoryGauge(opts.maxMemory())
	m := p.acquireMachine(e, &opts)
	defer p.releaseMachine(m)
	// bounded runs f with opts bounded by ctx and Timeout.
	bounded := func(f func()) {
		bctx, cancel := ctx, context.CancelFunc(func() {})
		if opts.Timeout > 0 {
			bctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		}
		defer cancel()
		opts.done, opts.ctx = bctx.Done(), bctx
		f()
	}
	var out []*Entry
	whole := func(e *Entry, why string) {
		w := *e
		w.run = run
		if why != "" {
			w.Note = fmt.Sprintf("the subtests of %s are explored together with it: %s", e.TestName(), why)
		}
		out = append(out, &w)
	}
	// expand appends the explorations of e and returns what its
	// discovery found. e is explored whole when its subtests call
	// t.Parallel, its own code fails when only one of them runs, or one
	// of them has a finding on its own but e with all of them has none
	// (on the first schedule of each).
	var expand func(e *Entry) (discovery, error)
	expand = func(e *Entry) (discovery, error) {
		var d discovery
		bounded(func() { d = p.discoverSubtests(m, e, &opts) })
		if err := ctx.Err(); err != nil {
			return d, err
		}
		if d.why != "" || len(d.names) == 0 {
			whole(e, d.why)
			return d, nil
		}
		mark := len(out)
		var par, dep []string
		// the subtests with a finding when run alone, and whether that
		// finding is only their own failure (discovery.onlyFailed)
		type aloneSub struct {
			name       string
			onlyFailed bool
		}
		var alone []aloneSub
		for _, name := range d.names {
			s := e.subtest(name, run)
			if !run.Match(s.TestName()) {
				continue
			}
			sd, err := expand(s)
			if err != nil {
				return d, err
			}
			if sd.parallel {
				par = append(par, s.TestName())
			}
			if sd.dependent {
				dep = append(dep, s.TestName())
			}
			if sd.finding {
				alone = append(alone, aloneSub{s.TestName(), sd.onlyFailed})
			}
		}
		needs := "" // a subtest that fails alone but not with its siblings
		if len(alone) > 0 && len(par) == 0 && len(dep) == 0 {
			var w wholeRun
			bounded(func() { w = p.runWhole(m, e, &opts) })
			for _, a := range alone {
				if w.clean || a.onlyFailed && w.ran[a.name] && !w.failed[a.name] {
					needs = a.name
					break
				}
			}
		}
		switch {
		case len(par) > 0:
			// Parallel subtests run concurrently with each other: one
			// at a time would miss their interleavings.
			out = out[:mark]
			whole(e, fmt.Sprintf("%s call t.Parallel (parallel subtests run concurrently, so they are explored together)", strings.Join(par, ", ")))
		case len(dep) > 0:
			out = out[:mark]
			whole(e, fmt.Sprintf("it fails outside its subtests when only %s runs (its own code depends on what its subtests do)", dep[0]))
		case needs != "":
			// A subtest that fails on its own but not after its
			// siblings depends on what they do.
			out = out[:mark]
			whole(e, fmt.Sprintf("%s fails when it runs alone but not after the subtests before it (it depends on what they do)", needs))
		}
		return d, nil
	}
	if _, err := expand(e); err != nil {
		return nil, err
	}
	return out, nil
}

// discoverSubtests runs e once, choosing the first alternative at every
// choice point, with the t.Run calls of e's subtests (the level below
// e.Path) recording their names and running nothing. It returns those
// names (see discovery).
func (p *Program) discoverSubtests(m *machine, e *Entry, opts *Options) discovery {
	de := *e
	de.discover = true
	x := p.runOne(m, &de, opts, firstChooser{}, 0, opts.Seed)
	defer x.release()
	st := x.testing()
	var d discovery
	if sel := st.selected; sel != nil {
		d.parallel = sel.parallel
		d.dependent = !sel.failed && st.root != nil && st.root.failed
	}
	d.finding = len(x.findings) > 0 || x.bound != ""
	d.onlyFailed = d.finding && x.bound == "" && st.selected != nil && st.selected.failed
	for _, f := range x.findings {
		d.onlyFailed = d.onlyFailed && f.Kind == KindTestFailure
	}
	d.names, d.why = discoveryTrust(x, st.found)
	return d
}

// discovery is what a discovery execution of an entry found.
type discovery struct {
	// names are the subtests of the level below the entry's path, or
	// why says why they cannot be trusted to be the same in every
	// execution (names are then nil when there were none).
	names []string
	why   string
	// parallel: the entry's own subtest (the last of its path) called
	// t.Parallel; dependent: a test above it failed while it did not;
	// finding: the execution ended with a finding or a bound;
	// onlyFailed: its findings are the entry's subtest's failure.
	parallel, dependent, finding, onlyFailed bool
}

// wholeRun is what an execution of an entry with all its subtests found:
// whether it ran to its end without a finding or a bound, and the full
// names of the subtests that started and of those that failed.
type wholeRun struct {
	clean       bool
	ran, failed map[string]bool
}

// runWhole runs e with all its subtests (as its -run pattern filters
// them), the first alternative chosen at every choice point.
func (p *Program) runWhole(m *machine, e *Entry, opts *Options) wholeRun {
	x := p.runOne(m, e, opts, firstChooser{}, 0, opts.Seed)
	defer x.release()
	w := wholeRun{clean: x.entryDone && len(x.findings) == 0 && x.bound == "", ran: map[string]bool{}, failed: map[string]bool{}}
	for _, t := range x.testing().tests {
		w.ran[t.fullName()] = true
		w.failed[t.fullName()] = t.failed
	}
	return w
}

// discoveryTrust returns the names a discovery execution x found, or why
// they cannot be trusted (see discoverSubtests).
func discoveryTrust(x *execution, names []string) ([]string, string) {
	m := x.m
	if len(names) == 0 {
		return nil, ""
	}
	pos := func(f *Finding) string {
		if f.Pos.IsValid() {
			return " at " + shortPos(f.Pos)
		}
		return ""
	}
	switch {
	case len(x.findings) > 0:
		f := x.findings[0]
		return names, fmt.Sprintf("its execution with the subtests skipped ended with a finding (%s%s)", f.Kind, pos(f))
	case x.bound != "":
		return names, fmt.Sprintf("its execution with the subtests skipped reached the %s bound", x.bound)
	case !x.entryDone:
		return names, "its execution with the subtests skipped did not end"
	}
	for _, g := range x.gs[1:] {
		if !g.fromInit && g.test == nil {
			return names, fmt.Sprintf("its code outside the subtests starts goroutines (%s), so which subtests run may depend on the schedule", shortPos(m.prog.Fset.Position(g.goPos)))
		}
	}
	mapOrders := false
	for _, c := range x.path {
		if c.kind != choiceMapOrder {
			return names, "its code outside the subtests makes scheduling choices, so which subtests run may depend on the schedule"
		}
		mapOrders = true
	}
	if mapOrders {
		for _, n := range names {
			if _, nn := parseSubtestNumber(n); nn > 0 || strings.HasSuffix(n, "#00") {
				return names, "subtests of the same name are run in the iteration order of a map, so their #NN suffixes depend on it"
			}
		}
	}
	return names, ""
}

// firstChooser picks the first alternative at every choice point.
type firstChooser struct{}

func (firstChooser) choose(*execution, []transition) int { return 0 }

// subtestRuns decides whether t.Run(sub) on parent runs: it returns the
// subtest's name (one element: rewritten, made unique as testing does)
// and whether its function runs. Below the entry's subtest path only the
// subtest on the path runs; at the level below the path a discovery
// execution records the name and runs nothing; deeper, the entry's
// RunPattern filters as go test -run does.
func (x *execution) subtestRuns(parent *testState, sub string) (string, bool) {
	st := x.testing()
	if st.subNames == nil {
		st.subNames = map[string]int32{}
	}
	pfull := parent.fullName()
	full := uniqueSubtestName(st.subNames, pfull, rewriteSubtestName(sub))
	name := full[len(pfull)+1:]
	e := x.entry
	switch level := parent.depth; {
	case level < len(e.Path):
		return name, name == e.Path[level]
	case e.discover && level == len(e.Path):
		st.found = append(st.found, name)
		return name, false
	}
	return name, e.run.Match(full)
}

// failedOutsideSubtest reports, for an entry exploring one subtest, an
// execution in which a test above the subtest failed while the subtest
// did not: the test's own code failed with its other subtests skipped,
// which a run of all of them may not do. It is an unsupported finding,
// not a test failure. t is the entry's test, which failed with msg (end).
func (x *execution) failedOutsideSubtest(t *testState, msg string) bool {
	if len(x.entry.Path) == 0 || x.entry.discover {
		return false
	}
	st, ok := x.models[testingSlot].(*testingState)
	if !ok || st.selected == nil || st.selected.failed {
		return false
	}
	x.addFinding(KindUnsupported, fmt.Sprintf("%s failed outside its subtest %s, whose exploration skips its other subtests (%s); ltl explore -func %s explores the test whole",
		x.entry.Fn.Name(), x.entry.TestName(), msg, x.entry.Fn.Name()), t.failPos, "")
	return true
}

// checkSubtestRan reports, for an entry exploring one subtest, an
// execution that returned from the test function without running it.
func (x *execution) checkSubtestRan() {
	if len(x.entry.Path) == 0 || x.entry.discover || !x.entryDone || len(x.findings) > 0 {
		return
	}
	if st, ok := x.models[testingSlot].(*testingState); ok && st.selected == nil {
		x.addFinding(KindUnsupported, fmt.Sprintf("subtest %s did not run in this execution: the subtests %s runs depend on the execution, so they cannot be explored one by one",
			x.entry.TestName(), x.entry.Fn.Name()), x.entry.Fn.Pos(), "")
	}
}
