package fds

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/dalzilio/rudd"
)

// replacerMu serialises rudd.NewReplacer, which increments an unsynchronised
// package-level counter inside rudd; without it two Spaces built on different
// goroutines race.
var replacerMu sync.Mutex

// ruddBackend is the Backend over github.com/dalzilio/rudd (a Go translation of
// BuDDy). Its nodes are rudd.Node values (*int), kept alive by rudd's
// finalizer-based reference counting.
type ruddBackend struct {
	b   *rudd.BDD
	err error
}

// NewRudd returns a Backend with nvars variables over rudd. nodes is the
// initial node table size and cache the operation cache size (0 for rudd's
// defaults).
//
// rudd's node finalizers decrement reference counts under its lock while
// its operations increment them without it, so the race detector reports
// races inside rudd (and a lost update could free a live node): the
// backend is kept for comparison, not for production use.
func NewRudd(nvars, nodes, cache int) (Backend, error) {
	if nvars < 1 {
		nvars = 1
	}
	if nodes <= 0 {
		nodes = 1 << 16
	}
	if cache <= 0 {
		cache = 1 << 16
	}
	o := options(rudd.Nodesize(nodes), rudd.Cachesize(cache), rudd.Cacheratio(25))
	b, err := rudd.New(nvars, o...)
	if err != nil {
		return nil, fmt.Errorf("fds: creating rudd BDD with %d variables: %w", nvars, err)
	}
	return &ruddBackend{b: b}, nil
}

// options collects rudd's configuration functions, whose parameter type is
// unexported and so cannot be named here.
func options[T any](opts ...T) []T { return opts }

func (r *ruddBackend) node(n rudd.Node) Node {
	if n == nil {
		r.fail("")
		return r.b.False()
	}
	return n
}

func (r *ruddBackend) fail(op string) {
	if r.err != nil {
		return
	}
	msg := r.b.Error()
	if msg == "" {
		msg = "unknown error"
	}
	r.err = fmt.Errorf("fds: BDD operation %sfailed: %w", op, errors.New(strings.TrimSpace(msg)))
}

func rn(n Node) rudd.Node { return n.(rudd.Node) }

func (r *ruddBackend) True() Node  { return r.b.True() }
func (r *ruddBackend) False() Node { return r.b.False() }

func (r *ruddBackend) Var(level int) Node { return r.node(r.b.Ithvar(level)) }

func (r *ruddBackend) Not(f Node) Node {
	if r.err != nil {
		return r.b.False()
	}
	return r.node(r.b.Not(rn(f)))
}

var ruddOps = [...]rudd.Operator{
	OpAnd: rudd.OPand,
	OpOr:  rudd.OPor,
	OpXor: rudd.OPxor,
	OpImp: rudd.OPimp,
	OpIff: rudd.OPbiimp,
}

func (r *ruddBackend) Apply(op Op, f, g Node) Node {
	if r.err != nil {
		return r.b.False()
	}
	if op == OpDiff {
		// rudd's OPdiff returns g for diff(false, g) (rudd v1.1.1-0.20230806153452,
		// operations.go): compute f ∧ ¬g instead.
		return r.node(r.b.Apply(rn(f), r.b.Not(rn(g)), rudd.OPand))
	}
	return r.node(r.b.Apply(rn(f), rn(g), ruddOps[op]))
}

func (r *ruddBackend) Ite(f, g, h Node) Node {
	if r.err != nil {
		return r.b.False()
	}
	return r.node(r.b.Ite(rn(f), rn(g), rn(h)))
}

// emptyCube reports a cube without variables, which rudd's quantifiers
// reject.
func emptyCube(cube Node) bool { return *rn(cube) < 2 }

func (r *ruddBackend) Exist(f, cube Node) Node {
	if r.err != nil {
		return r.b.False()
	}
	if emptyCube(cube) {
		return f
	}
	return r.node(r.b.Exist(rn(f), rn(cube)))
}

func (r *ruddBackend) AndExist(f, g, cube Node) Node {
	if r.err != nil {
		return r.b.False()
	}
	if emptyCube(cube) {
		return r.node(r.b.And(rn(f), rn(g)))
	}
	return r.node(r.b.AppEx(rn(f), rn(g), rudd.OPand, rn(cube)))
}

func (r *ruddBackend) OrForall(f, g, cube Node) Node {
	if r.err != nil {
		return r.b.False()
	}
	if emptyCube(cube) {
		return r.node(r.b.Or(rn(f), rn(g)))
	}
	// ∀c. f ∨ g = ¬∃c. ¬f ∧ ¬g
	nf, ng := r.b.Not(rn(f)), r.b.Not(rn(g))
	return r.node(r.b.Not(r.b.AppEx(nf, ng, rudd.OPand, rn(cube))))
}

func (r *ruddBackend) Cube(levels []int) Node {
	if len(levels) == 0 {
		return r.b.True()
	}
	return r.node(r.b.Makeset(levels))
}

func (r *ruddBackend) Minterm(levels []int, values []bool) Node {
	f := r.b.True()
	for i, l := range levels {
		lit := r.b.Ithvar(l)
		if !values[i] {
			lit = r.b.NIthvar(l)
		}
		f = r.b.And(f, lit)
	}
	return r.node(f)
}

func (r *ruddBackend) NewRenaming(from, to []int) (Renaming, error) {
	replacerMu.Lock()
	defer replacerMu.Unlock()
	rep, err := r.b.NewReplacer(from, to)
	if err != nil {
		return nil, fmt.Errorf("fds: renaming: %w", err)
	}
	return rep, nil
}

func (r *ruddBackend) Rename(f Node, ren Renaming) Node {
	if r.err != nil {
		return r.b.False()
	}
	return r.node(r.b.Replace(rn(f), ren.(rudd.Replacer)))
}

func (r *ruddBackend) Equal(f, g Node) bool { return r.b.Equal(rn(f), rn(g)) }

func (r *ruddBackend) IsConst(f Node) (bool, bool) {
	n := *rn(f)
	return n < 2, n == 1
}

func (r *ruddBackend) Branch(f Node) (int, Node, Node) {
	n := rn(f)
	return r.b.Label(n), r.node(r.b.Low(n)), r.node(r.b.High(n))
}

func (r *ruddBackend) Size(roots ...Node) int {
	ns := make([]rudd.Node, len(roots))
	for i, f := range roots {
		ns[i] = rn(f)
	}
	count := 0
	_ = r.b.Allnodes(func(id, level, low, high int) error {
		if id > 1 {
			count++
		}
		return nil
	}, ns...)
	return count
}

func (r *ruddBackend) Walk(root Node, visit func(id, level, low, high int)) int {
	n := rn(root)
	_ = r.b.Allnodes(func(id, level, low, high int) error {
		if id > 1 {
			visit(id, level, low, high)
		}
		return nil
	}, n)
	return *n
}

// Stats parses rudd's textual statistics (the only way they are exposed).
func (r *ruddBackend) Stats() Stats {
	var s Stats
	for _, line := range strings.Split(r.b.Stats(), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fields := strings.Fields(val)
		if len(fields) == 0 {
			continue
		}
		n, err := strconv.Atoi(fields[0])
		if err != nil {
			continue
		}
		switch strings.TrimSpace(key) {
		case "Allocated":
			s.Allocated = n
		case "Used":
			s.Used = n
		case "Produced":
			s.Produced = n
		}
	}
	return s
}

func (r *ruddBackend) Err() error { return r.err }
