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
	maxNodes  int   // bound on the node table (0: none)
	maxBytes  int64 // WithMemoryLimit's bytes; a quarter bounds an explicit machine (0: none)
	cluster   int
	growUpTo  int  // fds.KernelLimits.GrowUpTo
	reorder   bool // dynamic reordering (fds.WithReordering)
	parallel  int  // WithParallelism's n (0: runtime.GOMAXPROCS(0))
}

func newOptions(opts []Option) *options {
	o := &options{order: OrderClustered, cluster: defaultCluster, reorder: true}
	for _, f := range opts {
		f(o)
	}
	limits := fds.KernelLimits{Nodes: o.nodeTable, MaxNodes: o.maxNodes, GrowUpTo: o.growUpTo}
	if o.maxNodes > 0 {
		if limits.Nodes == 0 || limits.Nodes > o.maxNodes {
			limits.Nodes = o.maxNodes
		}
	}
	o.backend = func(n int) (fds.Backend, error) { return fds.NewKernelLimits(n, limits), nil }
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

// bytesPerNode is what WithMemoryLimit counts per BDD node: the native
// kernel's 49 bytes (node, reference count, two handle slots, mark,
// unique-table bucket and cache entry) with room for the old table while
// it doubles.
const bytesPerNode = 96

// WithMemoryLimit bounds the memory of the BDD node table at about bytes:
// an operation that would grow it beyond stops, and the computation
// (realizability, extraction, determinization, checking) fails with an
// error wrapping ErrMemoryBound instead of growing to the machine's limit.
// An explicit machine (Controller.Mealy, Counterstrategy.Moore) is bounded
// too, at an estimate of its live size: a quarter of bytes, as the garbage
// collector's headroom doubles the live heap and the node table takes its
// share; beyond it the enumeration fails with ErrMemoryBound as well. The
// rest of the Go heap (generated source, the AIG) is not counted.
func WithMemoryLimit(bytes int64) Option {
	return func(op *options) {
		op.maxNodes = max(64, int(bytes/bytesPerNode))
		op.maxBytes = bytes
	}
}

// WithNodeTable sets the initial BDD node table size.
func WithNodeTable(nodes int) Option { return func(op *options) { op.nodeTable = nodes } }

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

// WithGrowthBound sets the node-table size below which a full table
// doubles instead of being garbage-collected (about 49 bytes a node). The
// default, 0, collects as soon as the table is nearly full and grows only
// when a collection frees less than a quarter. Unlike split's fixpoints,
// the realizability fixpoint gains nothing from keeping its garbage: on
// AMBA n = 8 and 9 the CPU time is the same within the noise and the
// table 4× larger at n = 8 (BENCHMARKS.part.md). WithMemoryLimit still
// bounds the table.
func WithGrowthBound(nodes int) Option { return func(op *options) { op.growUpTo = nodes } }

// WithReordering turns dynamic variable reordering on or off (default on):
// the BDD kernel sifts each bit (with its primed twin) to a better
// position when the live nodes have grown fourfold since the last
// reordering, or once the nodes made since reach a share (1/33) of that
// reordering's work (halved after each reordering that gained under
// 10 %), starting from the static order (WithVarOrder).
// It repairs static orders that go wrong (AMBA n = 9: 8–10× less CPU, a
// 16–32× smaller node table) at some cost where the static order is good
// (AMBA n = 5 and 7: 2× the CPU). The BDD sizes then depend on when
// reorderings ran, which depends on when the Go runtime reports
// unreachable handles: the verdicts do not, but Stats' node counts may
// differ from run to run.
func WithReordering(on bool) Option { return func(op *options) { op.reorder = on } }

// WithParallelism sets how many goroutines Controller.Circuit may use to
// determinize a controller goal by goal, at most one per goal plus one;
// 1 determinizes on the calling goroutine alone. By default (or n ≤ 0)
// it uses runtime.GOMAXPROCS(0) for controllers whose realizability made
// enough BDD nodes to pay for the workers' spaces, and 1 for smaller ones
// and under WithMemoryLimit (so that the bound holds for the whole
// determinization).
// The caller's goroutine works in a BDD space of its own holding copies of
// what determinization reads (in the controller's under WithMemoryLimit),
// each other goroutine in a sibling of that space with its variables and
// order, into which the inputs of its goals are copied and out of which
// their functions are copied back. The circuit is the same whatever n: the
// functions are canonical in that one order and combined in goal order.
// Given n > 1 explicitly, WithMemoryLimit bounds every space alike, so a
// determinization on n goroutines may use up to n times the bound.
func WithParallelism(n int) Option { return func(op *options) { op.parallel = n } }
