package explore

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"sync"

	"github.com/henceforth-go/henceforth/annotate"
	"github.com/henceforth-go/henceforth/automaton"
	"golang.org/x/tools/go/ssa"
)

// This file checks the //ltl:spec annotations of the entry's package
// during exploration (Options.Specs): it reads them with package annotate,
// translates each spec to a DFA (package automaton), and watches every
// execution with one monitor per spec (specmon.go).
//
// Events and positions. A spec is checked over the trace of its path, one
// position per event, where an event is
//   - a call or return of a function named by a call/return prop (the
//     call is a scheduling point, so the interleavings of events are
//     explored),
//   - the start of a statement marked //ltl:event (also a scheduling
//     point),
//   - for specs with state predicates: the state in which the entry
//     starts, every write of memory a predicate reads after which a
//     predicate changed value (predwatch.go: such writes are scheduling
//     points too), and a scheduling step after which one changed
//     (modelled operations such as atomics).
// At every position all state predicates are evaluated in the current
// state (predicate.go); an event atom holds exactly at the positions of
// its event. The spec's verdict is LTLf, and each spec is judged on its
// own (specmon.go): a monitor that reaches "violated" records an ltl
// finding at once and the execution goes on for the other specs; a spec
// still undecided is judged where the path really ends (every goroutine
// done or blocked forever), never on a path cut by a bound, a panic or
// another stop: the report is incomplete or has that finding.
//
// DPOR explores one execution per class of the observed trace: observer
// events and the writes state predicates read all conflict (dpor.go,
// predwatch.go).
//
// Go statements (//ltl:prop NAME go F), predicates over locals, and specs
// whose statement events cannot be located in the SSA code are not
// checked: each is an unsupported finding of the report, never skipped
// silently.

// pkgSyntax is what annotate needs of a loaded package.
type pkgSyntax struct {
	files []*ast.File
	info  *types.Info
}

// specCache holds the annotations and prepared specs of each package
// (built once).
type specCache struct {
	mu     sync.Mutex
	m      map[*types.Package]*specSet
	ann    map[*types.Package]*annotate.Package
	annErr map[*types.Package]error
}

// annotations reads the annotations of a user package (cached); nil if
// the package is not a loaded user package. p.specs.mu must be held.
func (p *Program) annotationsLocked(tpkg *types.Package) (*annotate.Package, error) {
	if ap, ok := p.specs.ann[tpkg]; ok {
		return ap, p.specs.annErr[tpkg]
	}
	syn, ok := p.syntax[tpkg]
	if !ok {
		return nil, nil
	}
	ap, err := annotate.FromTypes(p.Fset, syn.files, tpkg, syn.info)
	if p.specs.ann == nil {
		p.specs.ann = map[*types.Package]*annotate.Package{}
		p.specs.annErr = map[*types.Package]error{}
	}
	p.specs.ann[tpkg], p.specs.annErr[tpkg] = ap, err
	return ap, err
}

// specSet is the prepared specs of one package. It is immutable after
// newSpecSet and shared by all workers.
type specSet struct {
	prog   *Program
	checks []*specCheck
	// problems are the specs (and annotations) that cannot be checked.
	problems []specProblem
	calls    map[*types.Func][]string // call events by function
	returns  map[*types.Func][]string
	stmts    map[*ssa.Function]map[ssa.Instruction][]string
	preds    []*predicate
	predName []string
	// used[i] reports whether a checked spec uses predicate i (a subset
	// of the specs by name leaves the others' predicates unevaluated).
	used     []bool
	stateful bool // some checked spec uses a state predicate
	// watch is what the used predicates read (predwatch.go); nil if
	// none.
	watch *watchSet
}

// specCheck is one spec to check.
type specCheck struct {
	spec *annotate.Spec
	dfa  *automaton.DFA
	// pred[i] is the predicate index of the monitor's atom i, or -1 for
	// an event atom.
	pred []int
}

type specProblem struct {
	pos token.Position
	msg string
}

// specsFor returns the prepared specs of the packages an exploration of e
// checks (specPackages; those without specs are left out), each set
// checked by its own monitors over its own package's props. With names,
// only the specs so named are kept (a name may be declared in several of
// the packages; a name none declares is an error).
func (p *Program) specsFor(ctx context.Context, e *Entry, names []string) ([]*specSet, []*types.Package, error) {
	pkgs := p.specPackages(e)
	p.specs.mu.Lock()
	defer p.specs.mu.Unlock()
	var sets []*specSet
	var of []*types.Package // of[i] declares sets[i]
	for _, tpkg := range pkgs {
		set, ok := p.specs.m[tpkg]
		if !ok {
			set = p.newSpecSet(ctx, tpkg)
			if p.specs.m == nil {
				p.specs.m = map[*types.Package]*specSet{}
			}
			p.specs.m[tpkg] = set
		}
		if set != nil {
			sets, of = append(sets, set), append(of, tpkg)
		}
	}
	if names == nil {
		return sets, of, nil
	}
	// A subset by name.
	found := map[string]bool{}
	var subs []*specSet
	var subOf []*types.Package
	for i, set := range sets {
		if sub := subsetSpecs(set, names, found); sub != nil {
			subs, subOf = append(subs, sub), append(subOf, of[i])
		}
	}
	for _, n := range names {
		if !found[n] {
			paths := make([]string, len(pkgs))
			for i, pkg := range pkgs {
				paths[i] = pkg.Path()
			}
			return nil, nil, fmt.Errorf("explore: %s: no //ltl:spec named %q in package %s", e.Name, n, strings.Join(paths, ", "))
		}
	}
	return subs, subOf, nil
}

// subsetSpecs returns the specs of set named in names (nil if none),
// recording in found the names it has.
func subsetSpecs(set *specSet, names []string, found map[string]bool) *specSet {
	sub := *set
	sub.checks, sub.problems = nil, nil
	for _, n := range names {
		for _, c := range set.checks {
			if c.spec.Name == n {
				sub.checks = append(sub.checks, c)
				found[n] = true
			}
		}
		for _, pr := range set.problems {
			if strings.Contains(pr.msg, "ltl:spec "+n+":") {
				sub.problems = append(sub.problems, pr)
				found[n] = true
			}
		}
	}
	if len(sub.checks) == 0 && len(sub.problems) == 0 {
		return nil
	}
	sub.stateful = false
	sub.used = make([]bool, len(set.preds))
	for _, c := range sub.checks {
		for _, i := range c.pred {
			if i >= 0 {
				sub.stateful = true
				sub.used[i] = true
			}
		}
	}
	sub.watch = newWatchSet(&sub)
	return &sub
}

// newSpecSet reads and prepares the specs of tpkg; nil if it has none.
func (p *Program) newSpecSet(ctx context.Context, tpkg *types.Package) *specSet {
	ap, err := p.annotationsLocked(tpkg)
	if ap == nil {
		return nil
	}
	set := &specSet{
		prog:    p,
		calls:   map[*types.Func][]string{},
		returns: map[*types.Func][]string{},
		stmts:   map[*ssa.Function]map[ssa.Instruction][]string{},
	}
	if list, ok := err.(annotate.ErrorList); ok {
		for _, e := range list {
			set.problems = append(set.problems, specProblem{msg: "annotation not checked: " + e.Error()})
		}
	} else if err != nil {
		set.problems = append(set.problems, specProblem{msg: "annotations not read: " + err.Error()})
	}
	if len(ap.Specs) == 0 && len(set.problems) == 0 {
		return nil
	}
	prepared := map[string]*predicate{} // state props by name
	predIndex := map[string]int{}       // index in set.preds
	type evKey struct {
		kind annotate.PropKind
		fn   *types.Func
		stmt ast.Stmt
		name string
	}
	seenEv := map[evKey]bool{}
	for _, s := range ap.Specs {
		fail := func(format string, args ...any) {
			set.problems = append(set.problems, specProblem{pos: p.Fset.Position(s.Pos),
				msg: fmt.Sprintf("ltl:spec %s: %s", s.Name, fmt.Sprintf(format, args...))})
		}
		ok := true
		var newStmts []func()
		for _, name := range s.Formula.Atoms() {
			prop := s.Atoms[name]
			switch prop.Kind {
			case annotate.StateProp:
				if _, done := prepared[name]; done {
					continue
				}
				pr, err := p.newPredicate(prop.Expr, p.Fset)
				if err != nil {
					fail("%v", err)
					ok = false
					continue
				}
				prepared[name] = pr // indexed below if the spec is checkable
			case annotate.CallEvent, annotate.ReturnEvent:
			case annotate.GoEvent:
				fail("go events (%s) are not supported yet", name)
				ok = false
			case annotate.StatementEvent:
				fn, ins, err := p.stmtInstr(prop)
				if err != nil {
					fail("event %s: %v", name, err)
					ok = false
					continue
				}
				name := name
				newStmts = append(newStmts, func() {
					k := evKey{annotate.StatementEvent, nil, prop.Stmt, name}
					if seenEv[k] {
						return
					}
					seenEv[k] = true
					if set.stmts[fn] == nil {
						set.stmts[fn] = map[ssa.Instruction][]string{}
					}
					set.stmts[fn][ins] = append(set.stmts[fn][ins], name)
				})
			}
		}
		if !ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			fail("%v", err)
			continue
		}
		d, err := automaton.FromFormula(ctx, s.Formula, automaton.Options{})
		if err != nil {
			fail("cannot translate %s to an automaton: %v", s.Source, err)
			continue
		}
		for _, f := range newStmts {
			f()
		}
		c := &specCheck{spec: s, dfa: d}
		for _, name := range d.Monitor().Atoms() {
			prop := s.Atoms[name]
			switch prop.Kind {
			case annotate.StateProp:
				i, indexed := predIndex[name]
				if !indexed {
					i = len(set.preds)
					set.preds = append(set.preds, prepared[name])
					set.predName = append(set.predName, name)
					predIndex[name] = i
				}
				c.pred = append(c.pred, i)
				set.stateful = true
			case annotate.CallEvent, annotate.ReturnEvent:
				c.pred = append(c.pred, -1)
				k := evKey{prop.Kind, prop.Func, nil, name}
				if seenEv[k] {
					continue
				}
				seenEv[k] = true
				if prop.Kind == annotate.CallEvent {
					set.calls[prop.Func] = append(set.calls[prop.Func], name)
				} else {
					set.returns[prop.Func] = append(set.returns[prop.Func], name)
				}
			default:
				c.pred = append(c.pred, -1)
			}
		}
		set.checks = append(set.checks, c)
	}
	set.used = make([]bool, len(set.preds))
	for i := range set.used {
		set.used[i] = true // every prepared predicate belongs to a check
	}
	set.watch = newWatchSet(set)
	return set
}

// stmtInstr finds the instruction at which the statement of a statement
// event starts: the first instruction (in block order) of the innermost
// function around the statement whose position lies in the statement.
func (p *Program) stmtInstr(prop *annotate.Prop) (*ssa.Function, ssa.Instruction, error) {
	stmt := prop.Stmt
	if prop.Func == nil {
		return nil, nil, fmt.Errorf("statements outside function declarations are not supported")
	}
	fn := p.SSA.FuncValue(prop.Func)
	if fn == nil || len(fn.Blocks) == 0 {
		return nil, nil, fmt.Errorf("function %s has no SSA body (generic functions are not supported)", prop.Func.Name())
	}
	// innermost function literal containing the statement
	for changed := true; changed; {
		changed = false
		for _, af := range fn.AnonFuncs {
			if syn := af.Syntax(); syn != nil && syn.Pos() <= stmt.Pos() && stmt.End() <= syn.End() {
				fn, changed = af, true
				break
			}
		}
	}
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			switch ins.(type) {
			case *ssa.Phi, *ssa.DebugRef:
				continue
			}
			if pos := ins.Pos(); pos >= stmt.Pos() && pos < stmt.End() {
				return fn, ins, nil
			}
		}
	}
	return nil, nil, fmt.Errorf("no code found for the statement at %s", p.Fset.Position(stmt.Pos()))
}

// specObserver is the observer of a spec set.
type specObserver struct{ set *specSet }

func (o specObserver) CallEvents(fn *ssa.Function) bool {
	obj := funcObject(fn)
	if obj == nil {
		return false
	}
	return len(o.set.calls[obj]) > 0 || len(o.set.returns[obj]) > 0
}

func (o specObserver) stmtEvents(fn *ssa.Function) map[ssa.Instruction][]string {
	return o.set.stmts[fn]
}

func (o specObserver) NewPath() pathMonitor { return newSpecPath(o.set) }

// funcObject is the declared function of fn (the generic origin for
// instances); nil for function literals and synthetic wrappers.
func funcObject(fn *ssa.Function) *types.Func {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, _ := fn.Object().(*types.Func)
	if fn.Synthetic != "" {
		return nil
	}
	return obj
}

// teeObserver combines the spec observer with an observer already in
// Options (a test's).
type teeObserver struct {
	a interface {
		observer
		stmtObserver
	}
	b observer
}

func (t teeObserver) CallEvents(fn *ssa.Function) bool {
	return t.a.CallEvents(fn) || t.b.CallEvents(fn)
}

func (t teeObserver) stmtEvents(fn *ssa.Function) map[ssa.Instruction][]string {
	return t.a.stmtEvents(fn)
}

func (t teeObserver) NewPath() pathMonitor { return teePath{t.a.NewPath(), t.b.NewPath()} }

type teePath struct{ a, b pathMonitor }

// Event gives the other monitor every event first (a spec violation
// ends the path).
func (t teePath) Event(ev *obsEvent, st obsState) *violation {
	if v := t.b.Event(ev, st); v != nil {
		return v
	}
	return t.a.Event(ev, st)
}

func (t teePath) End(st obsState) *violation {
	va, vb := t.a.End(st), t.b.End(st)
	if va != nil {
		return va
	}
	return vb
}

// installSpecs adds the spec observer to opts (Explore), records in r the
// packages whose specs are checked, and returns the spec problems to
// report as unsupported findings.
func (p *Program) installSpecs(ctx context.Context, e *Entry, opts *Options, r *Report) ([]*Finding, error) {
	if opts.NoSpecs {
		return nil, nil
	}
	sets, of, err := p.specsFor(ctx, e, opts.Specs)
	if err != nil || len(sets) == 0 {
		return nil, err
	}
	// The entry's package and, for an external test package, the package
	// it tests are checked on every path; the others are dependencies
	// (specsObserver).
	own := map[*types.Package]bool{e.Fn.Pkg.Pkg: true, p.underTest[e.Fn.Pkg.Pkg]: true}
	var so specsObserver
	for i, set := range sets {
		if len(set.checks) > 0 {
			so.sets = append(so.sets, set)
			so.dep = append(so.dep, !own[of[i]])
			r.SpecPackages = append(r.SpecPackages, of[i].Path())
		}
	}
	if len(so.sets) > 0 {
		so.watch = watchOfSets(so.sets)
		if opts.observer != nil {
			opts.observer = teeObserver{so, opts.observer}
		} else {
			opts.observer = so
		}
	}
	var out []*Finding
	for _, set := range sets {
		for _, pr := range set.problems {
			out = append(out, &Finding{Kind: KindUnsupported, Test: e.Name, Message: pr.msg, Pos: pr.pos})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Message < out[j].Message })
	return out, nil
}
