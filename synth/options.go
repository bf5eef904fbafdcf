package synth

import "github.com/henceforth-go/henceforth/internal/fds"

// Option configures Realizable.
type Option func(*options)

type options struct {
	backend   func(nvars int) (fds.Backend, error)
	order     VarOrder
	noReuse   bool
	noEarly   bool
	nodeTable int
	rudd      bool
	cluster   int
}

func newOptions(opts []Option) *options {
	o := &options{order: OrderClustered, cluster: defaultCluster}
	for _, f := range opts {
		f(o)
	}
	nodes := o.nodeTable
	if o.rudd {
		o.backend = func(n int) (fds.Backend, error) { return fds.NewRudd(n, nodes, nodes/4) }
	} else {
		o.backend = func(n int) (fds.Backend, error) { return fds.NewKernel(n, nodes, 0), nil }
	}
	return o
}

// VarOrder selects the static BDD variable order.
type VarOrder uint8

const (
	// OrderClustered places variables that occur in the same clauses close
	// together (the FORCE heuristic over the clauses' variable sets), which
	// for specs like the AMBA arbiter keeps each master's signals adjacent.
	OrderClustered VarOrder = iota
	// OrderDeclared keeps the declaration order: inputs, then outputs.
	OrderDeclared
)

// WithVarOrder selects the variable order (default OrderClustered).
func WithVarOrder(o VarOrder) Option { return func(op *options) { op.order = o } }

// WithoutFixpointReuse disables the warm start of the innermost greatest
// fixpoint from its value in the previous outer iteration (for measuring
// what the reuse saves).
func WithoutFixpointReuse() Option { return func(op *options) { op.noReuse = true } }

// WithoutEarlyTermination disables stopping as soon as the initial states
// are lost (for measuring what it saves).
func WithoutEarlyTermination() Option { return func(op *options) { op.noEarly = true } }

// WithNodeTable sets the initial BDD node table size.
func WithNodeTable(nodes int) Option { return func(op *options) { op.nodeTable = nodes } }

// WithRudd runs on the github.com/dalzilio/rudd BDD package instead of the
// native kernel, for comparison: it is several times slower, and rudd's node
// finalizers race with its operations (a data race inside the library that
// the race detector reports), so it is not for production use.
func WithRudd() Option { return func(op *options) { op.rudd = true } }

// WithPartitionedTransitions sets the size (in BDD nodes) of the clusters of
// the system's transition relation, which the controllable predecessor
// conjoins one at a time while quantifying outputs early; 0 uses the
// monolithic relation.
func WithPartitionedTransitions(maxCluster int) Option {
	return func(op *options) { op.cluster = maxCluster }
}

// defaultCluster is the default cluster size of the partitioned ρs (the best
// of 100…10000 on AMBA n = 3).
const defaultCluster = 800
