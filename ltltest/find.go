package ltltest

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/henceforth-go/henceforth/explore"
)

// This file is scenario search from tests (explore.Find): Find asks for
// an interleaving of a body that satisfies a temporal formula and returns
// it; Never asserts there is none.
//
// The body runs under the explorer, which loads the package of the test
// (the current directory, as go test runs it) once per process; an
// explore.LoadConfig among the trailing arguments loads other packages
// instead (explore.LoadConfig{NoTests: true} loads only the package code,
// which is faster when the body needs nothing from the test files; the
// explorer and the libraries behind it are never interpreted either way).
// The body is a func(*testing.T) or a func() that captures no variables (a
// function literal inside the test is fine if it uses only package-level
// names). An explore.FindOptions among the trailing
// arguments sets the search mode, bounds and starting point; the other
// arguments form a testify-style message.
//
// Formula atoms (see explore.Find): deadlock, terminated, at(G, L) for
// "goroutine G is at label L" (G a goroutine number or the function it was
// started with, L an //ltl:event label), labels and call/return props as
// events, state props, and "quoted Go expressions" over package
// variables.

// Find asserts that some interleaving of body satisfies formula and
// returns the witness (shortest first), or nil after failing the test. A
// search cut by a bound fails too: it found nothing but proved nothing.
//
//	w := ltltest.Find(t, dekker.Run, "F(at(P0, m2) && at(P1, n2))")
//	t.Log(w) // the states, the interleaving and a replay token
func Find(t TestingT, body any, formula string, args ...any) *explore.Witness {
	t.Helper()
	// (Find runs whole in every shard: the test uses its witness.)
	if _, _, err := envShard(); err != nil {
		fail(t, "ltltest: cannot shard the search", err.Error(), nil)
		return nil
	}
	res, entry, msg, ok := search(t, body, formula, args)
	if !ok {
		return nil
	}
	if res.Witness != nil {
		return res.Witness
	}
	details := withLine(searchDetails(entry, formula, res), searchReport(t, entry, formula, res))
	if res.Complete {
		fail(t, "ltltest: no interleaving satisfies the formula", details, msg)
	} else {
		fail(t, "ltltest: no interleaving found, but the search was cut by a bound (unknown)", details, msg)
	}
	return nil
}

// RequireFind is Find, stopping the test when no witness is found.
func RequireFind(t TestingT, body any, formula string, args ...any) *explore.Witness {
	t.Helper()
	w := Find(t, body, formula, args...)
	if w == nil {
		t.FailNow()
	}
	return w
}

// Never asserts that no interleaving of body satisfies formula: it fails
// with the witness if one exists, and also when a bound cut the search
// (then nothing is proved).
//
//	ltltest.Never(t, dekker.Run, "F(at(P0, m8) && at(P1, n8))") // mutual exclusion
func Never(t TestingT, body any, formula string, args ...any) bool {
	t.Helper()
	if run, ok := searchShard(t, formula, nil); !run {
		return ok
	}
	res, entry, msg, ok := search(t, body, formula, args)
	if !ok {
		return false
	}
	switch {
	case res.Witness != nil:
		fail(t, "ltltest: an interleaving satisfies the formula", withLine(searchDetails(entry, formula, res)+"\n"+res.Witness.String(), searchReport(t, entry, formula, res)), msg)
		return false
	case !res.Complete:
		fail(t, "ltltest: the search was cut by a bound (unknown): cannot conclude that no interleaving satisfies the formula", withLine(searchDetails(entry, formula, res), searchReport(t, entry, formula, res)), msg)
		return false
	}
	return true
}

// RequireNever is Never, stopping the test when it fails.
func RequireNever(t TestingT, body any, formula string, args ...any) {
	t.Helper()
	if !Never(t, body, formula, args...) {
		t.FailNow()
	}
}

func searchDetails(entry, formula string, res *explore.FindResult) string {
	s := fmt.Sprintf("entry:   %s\nformula: %s\nsearch:  %s after %d executions, %d distinct states", entry, formula, res.Verdict(), res.Nodes, res.States)
	if res.Bound != "" {
		s += fmt.Sprintf("\nbound:   %s (raise it with explore.FindOptions)", res.Bound)
	}
	return s
}

// search resolves body and runs the search; ok is false after a failure
// was reported.
func search(t TestingT, body any, formula string, args []any) (res *explore.FindResult, entry string, msg []any, ok bool) {
	t.Helper()
	fo, lc, rest := exploreArgs[explore.FindOptions](args)
	_, msg = parseArgs(rest)
	p, e, err := findEntry(body, lc)
	if err != nil {
		fail(t, "ltltest: cannot explore the body", err.Error(), msg)
		return nil, "", msg, false
	}
	ctx, cancel := testContext(t)
	defer cancel()
	res, err = p.Find(ctx, e, formula, fo)
	if err != nil {
		fail(t, "ltltest: cannot search", "formula: "+formula+"\nerror:   "+err.Error(), msg)
		return nil, e.Name, msg, false
	}
	return res, e.Name, msg, true
}

// programs caches loaded programs per process, by load configuration.
var programs sync.Map // string → *loadedProgram

// loader loads the programs of this package's functions: the standard
// library is type-checked once per process, not once per program.
var loader explore.Loader

type loadedProgram struct {
	once sync.Once
	p    *explore.Program
	err  error
}

// findEntry loads the test's package (or lc) and resolves body to an
// entry; Explore uses it too.
func findEntry(body any, lc *explore.LoadConfig) (*explore.Program, *explore.Entry, error) {
	switch body.(type) {
	case func(*testing.T), func():
	default:
		return nil, nil, fmt.Errorf("the body must be a func(*testing.T) or a func(), not %T", body)
	}
	v := reflect.ValueOf(body)
	if v.IsNil() {
		return nil, nil, fmt.Errorf("the body is nil")
	}
	fn := runtime.FuncForPC(v.Pointer())
	if fn == nil {
		return nil, nil, fmt.Errorf("cannot find the body's function")
	}
	cfg := explore.LoadConfig{}
	if lc != nil {
		cfg = *lc
	}
	if cfg.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, nil, err
		}
		cfg.Dir = wd
	}
	key := fmt.Sprintf("%q", []any{cfg.Dir, cfg.Patterns, cfg.NoTests, cfg.BuildFlags, cfg.Env})
	lp, _ := programs.LoadOrStore(key, &loadedProgram{})
	l := lp.(*loadedProgram)
	l.once.Do(func() { l.p, l.err = loader.Load(context.Background(), cfg) })
	if l.err != nil {
		return nil, nil, l.err
	}
	e, err := l.p.Func(fn.Name())
	if err != nil {
		return nil, nil, err
	}
	return l.p, e, nil
}
