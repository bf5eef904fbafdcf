package explore

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// Which packages' specs an exploration checks, and the observer that
// checks the specs of several packages at once (installSpecs, spec.go).

// specPackages returns the packages whose //ltl:spec annotations an
// exploration of e checks: e's package and every user package it imports,
// directly or not. So an external test package p_test checks p's specs,
// and a test checks the specs of the packages whose code it runs. Only
// user packages are interpreted and annotated (the standard library and
// the explorer's own libraries are not). e's package comes first, then
// the others by import path.
func (p *Program) specPackages(e *Entry) []*types.Package {
	if e.Fn.Pkg == nil {
		return nil
	}
	root := e.Fn.Pkg.Pkg
	seen := map[*types.Package]bool{root: true}
	var deps []*types.Package
	var walk func(*types.Package)
	walk = func(pkg *types.Package) {
		for _, imp := range pkg.Imports() {
			if seen[imp] {
				continue
			}
			seen[imp] = true
			if _, user := p.syntax[imp]; user {
				deps = append(deps, imp)
				walk(imp)
			}
		}
	}
	walk(root)
	sort.Slice(deps, func(i, j int) bool { return deps[i].Path() < deps[j].Path() })
	return append([]*types.Package{root}, deps...)
}

// specsObserver checks the spec sets of several packages (specsFor), each
// with its own monitors over its own props: a call or return event goes
// to every set (each looks up its own props of the function), a statement
// event to the sets that label that statement, with their labels only.
//
// The sets of dependencies (dep) are checked where their code runs: a
// dependency's specs over state predicates on every path (its state
// exists once it is initialized), its specs over events alone get a
// verdict at the end of a path only if one of its events happened on it
// (otherwise a spec such as F closed would fail every test that merely
// imports the package).
type specsObserver struct {
	sets []*specSet
	dep  []bool
	// watch is the union of the sets' watch sets (watchOfSets).
	watch *watchSet
}

func (o specsObserver) CallEvents(fn *ssa.Function) bool {
	for _, set := range o.sets {
		if (specObserver{set: set}).CallEvents(fn) {
			return true
		}
	}
	return false
}

func (o specsObserver) stmtEvents(fn *ssa.Function) map[ssa.Instruction][]string {
	var merged map[ssa.Instruction][]string
	for _, set := range o.sets {
		m := set.stmts[fn]
		switch {
		case len(m) == 0:
		case merged == nil:
			merged = m
		default:
			both := map[ssa.Instruction][]string{}
			for _, src := range []map[ssa.Instruction][]string{merged, m} {
				for ins, labels := range src {
					both[ins] = append(both[ins], labels...)
				}
			}
			merged = both
		}
	}
	return merged
}

func (o specsObserver) NewPath() pathMonitor {
	ps := &specPaths{o: o, ran: make([]bool, len(o.sets))}
	for _, set := range o.sets {
		ps.paths = append(ps.paths, newSpecPath(set))
	}
	return ps
}

// specPaths is the pathMonitor of a specsObserver: one per set.
type specPaths struct {
	o     specsObserver
	paths []pathMonitor
	ran   []bool // an event of set i happened on the path
}

// Event gives the event to each set it concerns in turn. A set records
// its specs' violations itself (they never end the path); what it
// returns (a predicate that cannot be evaluated) ends the path.
func (ps *specPaths) Event(ev *obsEvent, st obsState) *violation {
	for i, path := range ps.paths {
		set, e := ps.o.sets[i], ev
		switch ev.Kind {
		case obsStatement:
			labels := ownLabels(set.stmts[ev.Func], ev.Labels)
			if len(labels) == 0 {
				continue
			}
			if len(labels) < len(ev.Labels) {
				c := *ev
				c.Labels = labels
				e = &c
			}
			ps.ran[i] = true
		case obsCall:
			ps.ran[i] = ps.ran[i] || len(set.calls[funcObject(ev.Func)]) > 0
		case obsReturn:
			ps.ran[i] = ps.ran[i] || len(set.returns[funcObject(ev.Func)]) > 0
		}
		if v := path.Event(e, st); v != nil {
			return v
		}
	}
	return nil
}

// End gives every set its final verdict (a dependency's event-only specs
// only if its events happened): the first violation is returned, the
// others are added to the execution.
func (ps *specPaths) End(st obsState) *violation {
	var first *violation
	for i, path := range ps.paths {
		if ps.o.dep[i] && !ps.o.sets[i].stateful && !ps.ran[i] {
			continue
		}
		v := path.End(st)
		switch {
		case v == nil:
		case first == nil:
			first = v
		default:
			st.(stateView).x.addViolation(v, v.Pos)
		}
	}
	return first
}

// ownLabels returns the labels among labels that one set's statement
// events of the function declare.
func ownLabels(stmts map[ssa.Instruction][]string, labels []string) []string {
	var own []string
	for _, l := range labels {
		for _, declared := range stmts {
			if contains(declared, l) {
				own = append(own, l)
				break
			}
		}
	}
	return own
}
