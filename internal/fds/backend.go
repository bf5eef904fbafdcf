package fds

import "context"

// Node is a backend's handle to the root of a BDD. Backends hand out
// pointer-shaped values (so storing one in a Node does not allocate) and keep
// the nodes it reaches alive for as long as the handle is reachable.
type Node = any

// Op is a binary Boolean operator for Backend.Apply.
type Op uint8

// The binary operators every backend implements.
const (
	OpAnd Op = iota
	OpOr
	OpXor
	OpImp
	OpIff
	OpDiff // f ∧ ¬g
)

// Stats describes the node table of a backend.
type Stats struct {
	Allocated   int // size of the node table (the peak, since tables only grow)
	Used        int // nodes in use at the last garbage collection or allocation
	Produced    int // nodes ever created
	Collections int // garbage collections
	Reorderings int // reorderings of the variables (Reorderer)
	// SiftVisits counts the nodes the reorderings' swaps read, over all
	// of them: with Produced, a measure of a computation's work that does
	// not depend on the machine's load.
	SiftVisits int
}

// Backend is the BDD package behind a Space: the small set of operations the
// finite-domain layer needs. Variables are identified by their level: their
// position in the initial variable order, 0 being the topmost (a backend
// that reorders, Reorderer, keeps this naming and reports the current
// position with Reorderer.Position). A backend is not safe for
// concurrent use. After a failure (for instance an exhausted node table) Err
// reports it and operations return the constant false until the Space is
// discarded.
type Backend interface {
	True() Node
	False() Node
	// Var returns the BDD of the variable at level: true exactly when it is.
	Var(level int) Node
	Not(f Node) Node
	Apply(op Op, f, g Node) Node
	Ite(f, g, h Node) Node
	// Exist quantifies the variables of cube (a conjunction of positive
	// variables made by Cube) existentially.
	Exist(f, cube Node) Node
	// AndExist is Exist(f ∧ g, cube), computed without building f ∧ g.
	AndExist(f, g, cube Node) Node
	// OrForall is ∀cube. f ∨ g, computed without building f ∨ g.
	OrForall(f, g, cube Node) Node
	// Cube returns the conjunction of the variables at levels.
	Cube(levels []int) Node
	// Minterm returns the conjunction of the literals: the variable at
	// levels[i] if values[i], its negation otherwise.
	Minterm(levels []int, values []bool) Node
	// NewRenaming prepares the substitution of from[i] by to[i]. No level may
	// occur in both slices.
	NewRenaming(from, to []int) (Renaming, error)
	// Rename substitutes variables in f; f must not depend on the target levels.
	Rename(f Node, r Renaming) Node
	Equal(f, g Node) bool
	// IsConst reports whether f is a constant and which.
	IsConst(f Node) (isConst, value bool)
	// Branch returns the level of f's root and its two cofactors; f must not be
	// constant.
	Branch(f Node) (level int, low, high Node)
	// Size is the number of internal nodes reachable from the roots.
	Size(roots ...Node) int
	// Walk calls visit for every internal node reachable from root with small
	// integer ids; 0 and 1 are the constants false and true. The root's id is
	// returned.
	Walk(root Node, visit func(id, level, low, high int)) (rootID int)
	Stats() Stats
	Err() error
}

// Interruptible is implemented by backends whose operations can be abandoned
// when a context is done (the native kernel).
type Interruptible interface {
	// SetContext makes later operations look at ctx. Once ctx is done, the
	// running operation is abandoned within a few thousand recursive steps,
	// Err reports an error wrapping ErrInterrupted and ctx.Err(), and
	// operations return false. The backend's tables stay consistent; a
	// later SetContext clears the interruption.
	SetContext(ctx context.Context)
}

// Builder is implemented by backends that rebuild a BDD from a list of its
// nodes in one operation (Space.FromNodes): much cheaper than one Ite per
// node, each a top-level operation of its own.
type Builder interface {
	// Build returns the BDD of nodes given children first: node i (id
	// i+2; ids 0 and 1 are false and true) tests the variable at
	// levels[i] and has cofactors low[i] (variable false) and high[i].
	// Levels need not respect the backend's order.
	Build(levels []int, low, high []int32, root int32) Node
}

// GraphBuilder is implemented by backends that rebuild a multi-rooted
// graph in one operation: BuildGraph is Build for every root in roots,
// converting each node once.
type GraphBuilder interface {
	BuildGraph(levels []int, low, high []int32, roots []int32) []Node
}

// Renaming is a prepared variable substitution of one backend.
type Renaming any
