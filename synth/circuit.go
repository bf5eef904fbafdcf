package synth

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// Circuit is a deterministic controller in symbolic form: a shared decision
// graph (a multi-rooted BDD without complement edges) that computes, from
// the controller's latched state and the inputs of the step, whether the
// inputs are legal and the value of every output bit. Its size is the
// number of decision nodes, not the number of explicit states, so it stays
// small where Controller.Mealy is astronomically large.
//
// A step reads the Signals: the latches (the values of the game's variables
// and the goal counter at the previous step) followed by the input bits of
// the step. In the first step (Started false) the InitRoots apply, in the
// others the StepRoots. After a legal step every latch takes the value of
// its Next bit: an input bit or a computed bit.
//
// A Circuit is plain data: it is safe to share once built, and its methods
// (Run, WriteGo, WriteAIGER, WriteJSON, WriteDOT, Check) do not use the BDD
// space it came from.
type Circuit struct {
	Name    string
	Inputs  []Var
	Outputs []Var

	// Latches are the bits the controller keeps from one step to the next,
	// signals 0…len(Latches)-1. Every latch starts at 0.
	Latches []CircuitBit
	// InputBits are the bits of the step's inputs, signals
	// len(Latches)…len(Latches)+len(InputBits)-1: each input variable's
	// encoding (its value minus Lo), least significant bit first.
	InputBits []CircuitBit
	// ComputedBits are the bits a step computes: the outputs' encodings
	// (which the circuit's outputs read), then the game's auxiliary
	// variables and the goal counter.
	ComputedBits []CircuitBit

	// Nodes is the decision graph, children first: node i has id i+2; ids 0
	// and 1 are the constants false and true. Every node's children have
	// smaller ids.
	Nodes []CircuitNode

	// Init and Step hold the roots of the first step and of the others.
	Init, Step CircuitRoots

	// Next gives, for each latch, the signal or computed bit it takes after
	// a step: Next[l] ≥ 0 is the input signal Next[l], Next[l] < 0 the
	// computed bit -Next[l]-1.
	Next []int
}

// CircuitBit names one bit of a variable's encoding: bit Bit (0 = least
// significant) of Var, whose value is Lo plus the encoded number. Internal
// variables of the game (implication flags, the goal counter) have names
// that start with '#'.
type CircuitBit struct {
	Var string
	Bit int
}

func (b CircuitBit) String() string { return fmt.Sprintf("%s@%d", b.Var, b.Bit) }

// CircuitNode is a decision node: it reads Signal and continues with Hi when
// the signal is 1, Lo when it is 0.
type CircuitNode struct {
	Signal int32
	Lo, Hi int32
}

// CircuitRoots are the roots of one kind of step: Legal decides whether the
// environment may give the inputs (its assumptions), and Computed[k] the
// value of ComputedBits[k].
type CircuitRoots struct {
	Legal    int32
	Computed []int32
}

// Circuit determinizes the controller symbolically and returns it as a
// shared decision graph: one output valuation is picked for every state and
// legal input, bit by bit (each bit takes the value the winning moves
// force given the bits chosen before it, and where both values are
// possible whichever keeps its BDD small), as
// Slugs and the SYNTCOMP tools do. Its cost is a few quantifications of the
// controller's relation; nothing is enumerated.
//
// The first call fixes the variable order of the controller's BDD space:
// if dynamic reordering is on, it turns it off from then on (freezeOrder),
// so every call gives the same circuit. Determinization then works on
// copies of what it reads, in a Space of its own (detInputs), sifted first
// if the controller's order was never sifted. The finished decision graph
// is then sifted on its own (with only its roots alive), which usually
// makes it several times smaller.
func (c *Controller) Circuit(ctx context.Context) (*Circuit, error) {
	g := c.g
	release := g.bind(ctx)
	defer release()
	byGoal := c.stateGoals()
	in, err := c.detInputs(ctx, byGoal)
	var circ *Circuit
	if err == nil {
		circ, err = c.circuit(ctx, in, byGoal)
		if in.sp != g.sp {
			c.siblingMade += in.sp.Stats().Produced
		}
	}
	if err := interrupted(ctx, err); err != nil {
		return nil, err
	}
	return circ, nil
}

// freezeOrder turns the controller's dynamic reordering off for good, the
// first time, so that every later Circuit of the controller starts from
// the same order and gives the same circuit. Determinization makes many
// short-lived intermediates, each growth of which would trigger a sifting
// pass (on AMBA n = 4 those passes took 85 % of its CPU time); Slugs also
// stops reordering once it extracts a strategy. It reports whether
// determinization should sift its inputs once first (c.siftFirst): when
// dynamic reordering was on and never moved the variables.
//
// If dynamic reordering has already moved the variables (the fixpoint grew
// enough to trigger it), that order is kept as it is: it was found while
// the fixpoint's iterates were being built from the transition relation,
// and the per-goal relations and functions, made of the same iterates,
// are smaller in it than after one more pass for the finished iterates and
// ρe ∧ ρs alone (AMBA n = 5…12: circuits 11–38 % smaller, determinization
// up to 35 % cheaper; synth's BENCHMARKS.part.md). If it has not (small
// specs, whose fixpoint never triggered it: AMBA n ≤ 6), the order is still
// the declaration order, and one sifting pass, for determinization's inputs
// (detInputs), makes determinization several times cheaper (n = 4: 0.5 s
// against 1.8 s, measured with the pass over the controller's Space) for a
// smaller circuit. The pass is bounded as the circuit's (passSiftGrowth):
// on AMBA n = 2, 3, 4 it gave the same circuits as the kernel's bound, for
// 10–19 % fewer nodes made.
// The order never changes what a circuit computes: each bit is a move of
// the strategy in any order, and the independent check sees only the
// circuit.
func (c *Controller) freezeOrder() bool {
	if !c.frozen {
		sp := c.g.sp
		c.siftFirst = sp.SetAutoReorder(false) && sp.Stats().Reorderings == 0
		c.ownSpace = c.spacesPay()
		c.frozen = true
	}
	return c.siftFirst
}

// detInputs freezes the controller's order (freezeOrder) and returns the
// BDDs determinization reads, in the Space it is to work in.
//
// Goal by goal, where more Spaces pay (spacesPay, as for the workers;
// c.ownSpace, fixed by the first call so that every call works alike),
// that is a Space of its own: a sibling of the controller's into which the
// inputs are copied, and which is sifted first if freezeOrder says so.
// The controller's Space holds much more than they (the fixpoint's other iterates, whatever its caller
// built), spread over a table sized for the fixpoint's peak; the copies
// lie close together in a table sized for them, and the pass then
// chooses the order for what determinization reads alone (AMBA n = 3: it
// sifts 9.6 K nodes instead of 12.2 K, and the circuit has 4,046 decision
// nodes instead of 6,056, for determinization in 1.9× realizability's time
// instead of 2.8×; n = 12, whose order is the fixpoint's either way:
// determinization 5 % faster; synth's BENCHMARKS.part.md). The
// controller's Space is only read, so its order stays as the fixpoint left
// it.
//
// From the whole relation (!byGoal), under a memory bound, or for a
// smaller controller (on AMBA n = 2 a Space of its own gained nothing
// measured, 1.86× realizability's wall time over 20 runs against 1.74×,
// for a circuit of 1,142 decision nodes against 855), it is the
// controller's Space, sifted there if freezeOrder
// says so; an interrupted pass is run again by the next call.
func (c *Controller) detInputs(ctx context.Context, byGoal bool) (*goalInputs, error) {
	g := c.g
	sp := g.sp
	sift := c.freezeOrder()
	home := &goalInputs{sp: sp, tr: c.transitions(), win: c.win, sysJ: g.sysJ, envJ: g.envJ, x: c.mem.x,
		init: c.init, thetaE: g.thetaE, rhoE: g.rhoE}
	if !byGoal || !c.ownSpace {
		if sift && !c.sifted {
			sp.ReorderWithin(ctx, passSiftGrowth)
			c.sifted = ctx.Err() == nil
		}
		return home, sp.Err()
	}
	own, err := sp.Sibling(ctx)
	if err != nil {
		return nil, fmt.Errorf("synth: determinization space: %w", err)
	}
	in, err := home.copyTo(own)
	if err != nil {
		return nil, err
	}
	if sift {
		own.ReorderWithin(ctx, passSiftGrowth)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return in, own.Err()
}

// circuit determinizes the controller goal by goal (goalFunctions, which
// requires stateGoals) if byGoal, else from its whole relation, in in's
// Space (detInputs), which must be the controller's if !byGoal.
func (c *Controller) circuit(ctx context.Context, in *goalInputs, byGoal bool) (*Circuit, error) {
	g := c.g
	sp := in.sp
	spec := c.res.Spec
	circ := &Circuit{Name: spec.Name, Inputs: spec.Inputs, Outputs: spec.Outputs}

	// Signals: latches for every bit of X ∪ Y and the counter (unprimed
	// levels), then the step's input bits (primed levels of X).
	signal := map[int]int32{} // BDD level → signal, for the step's roots
	initSignal := map[int]int32{}
	state := append(append([]*fds.Var(nil), g.all...), g.counter)
	for _, v := range state {
		for b, l := range v.Levels(false) {
			signal[l] = int32(len(circ.Latches))
			circ.Latches = append(circ.Latches, CircuitBit{v.Name(), b})
		}
	}
	latchOf := map[CircuitBit]int{}
	for i, b := range circ.Latches {
		latchOf[b] = i
	}
	nLatch := len(circ.Latches)
	for _, v := range g.inputs {
		for b, l := range v.Levels(true) {
			s := int32(nLatch + len(circ.InputBits))
			signal[l] = s
			initSignal[l] = s
			circ.InputBits = append(circ.InputBits, CircuitBit{v.Name(), b})
		}
	}
	computed := append(append([]*fds.Var(nil), g.sys...), g.counter)
	var outLevels []int
	for _, v := range computed {
		for b, l := range v.Levels(true) {
			outLevels = append(outLevels, l)
			circ.ComputedBits = append(circ.ComputedBits, CircuitBit{v.Name(), b})
		}
	}
	circ.Next = make([]int, nLatch)
	for i := range circ.Next {
		circ.Next[i] = -1 // filled below
	}
	for k, b := range circ.InputBits {
		circ.Next[latchOf[b]] = nLatch + k
	}
	for k, b := range circ.ComputedBits {
		circ.Next[latchOf[b]] = -k - 1
	}

	// The first step: the initial relation over X′, Y′ and the counter′.
	initRel := in.init.Prime()
	initFns, err := determinize(ctx, sp, initRel, outLevels)
	if err != nil {
		return nil, err
	}
	var stepFns []fds.BDD
	if byGoal {
		cnt := g.counter.Levels(true)
		stepFns, err = c.goalFunctions(ctx, in, outLevels[:len(outLevels)-len(cnt)], cnt)
	} else {
		if err := c.relations(ctx); err != nil {
			return nil, err
		}
		stepFns, err = determinize(ctx, sp, c.trans, outLevels)
	}
	if err != nil {
		return nil, err
	}
	if err := sp.Err(); err != nil {
		return nil, err
	}
	b := newGraphBuilder(sp.Backend())
	initIDs := b.add(append([]fds.BDD{in.thetaE.Prime()}, initFns...), initSignal)
	circ.Init.Legal, circ.Init.Computed = initIDs[0], initIDs[1:]
	stepIDs := b.add(append([]fds.BDD{in.rhoE}, stepFns...), signal)
	circ.Step.Legal, circ.Step.Computed = stepIDs[0], stepIDs[1:]
	if b.err != nil {
		return nil, fmt.Errorf("synth: %s: %w", spec.Name, b.err)
	}
	circ.Nodes = b.nodes
	if err := sp.Err(); err != nil {
		return nil, err
	}
	pos := make([]int, len(circ.Latches)+len(circ.InputBits))
	for l, s := range signal {
		pos[s] = sp.Position(l)
	}
	if err := circ.sift(ctx, pos); err != nil {
		return nil, err
	}
	return circ, nil
}

// determinize picks, for the relation rel over the state, the step's
// inputs and the primed output levels outs, one value per output bit as a
// function of the state and inputs only, bit by bit: where rel forces bit k
// (given the bits already chosen) the function has the forced value, and
// elsewhere — where both values are possible, or rel allows no move — it
// is whatever makes its BDD small (restrict to the forced states). Where
// rel allows some move, the bits chosen together form one of its moves.
//
// A bit that rel forces wherever it allows a move (no state and input
// leave both values open) needs no fixing: rel ∧ (bit ↔ f) is rel itself.
// Such bits are only quantified, together with the next bit that is fixed
// (on AMBA about half the bits are forced that way).
//
// The bits are taken detWindow at a time: the window's projection win, rel
// with every bit after the window quantified, is computed once from rel,
// and each bit of the window is chosen from win and the window's fixes so
// far (fix, the conjunction of bit ↔ f for its chosen bits that are not
// forced): it can be 1 where ∃ window bits. win ∧ fix ∧ bit, and 0 where
// ∃ window bits. win ∧ fix ∧ ¬bit. win itself is not rewritten bit by bit:
// a forced bit needs no constraint (win already gives it one value), and
// fix is small beside win. Since no function depends on an output bit, ∃
// of the later bits commutes with fixing the earlier ones, so each bit
// sees the same projection as if rel itself were fixed bit by bit: the
// functions are the same, for one quantification of rel (and one
// relational product fixing the window's bits) per window instead of per
// bit.
func determinize(ctx context.Context, sp *fds.Space, rel fds.BDD, outs []int) ([]fds.BDD, error) {
	order := choiceOrder(sp, outs)
	sorted := make([]int, len(order)) // outs in the order they are chosen
	for n, k := range order {
		sorted[n] = outs[k]
	}
	fns := make([]fds.BDD, len(outs))
	var forced []int // chosen bits rel still mentions, each a function of the state and inputs in rel
	for w0 := 0; w0 < len(sorted); w0 += detWindow {
		w1 := min(w0+detWindow, len(sorted))
		// win: rel over the state, the inputs and the window's bits.
		win := rel.Exists(sp.CubeOfLevels(append(append([]int(nil), forced...), sorted[w1:]...)))
		fix := sp.True() // the window's non-forced bits ↔ their functions
		all := sp.CubeOfLevels(sorted[w0:w1])
		for n := w0; n < w1; n++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			k, v := order[n], sp.Level(sorted[n])
			// ∃ of every bit of the window, straight from win and the fixes
			// (not from a win rewritten after each bit, nor from its
			// projection on bit k): on AMBA n = 3…8 with windows of 4
			// bits, 1–11 % fewer nodes made than rewriting win, the same
			// functions.
			one := win.AndExists(fix.And(v), all)        // bit k can be 1
			zero := win.AndExists(fix.And(v.Not()), all) // bit k can be 0
			if !one.Intersects(zero) {
				// Forced wherever rel allows a move: one ∧ ¬zero is one,
				// and one ⊕ zero is one ∨ zero.
				fns[k] = one.Restrict(one.Or(zero))
			} else {
				fns[k] = one.Diff(zero).Restrict(one.Xor(zero))
				fix = fix.And(v.Iff(fns[k]))
			}
			if err := sp.Err(); err != nil {
				return nil, err
			}
		}
		if w1 < len(sorted) {
			// Fix the window's bits in rel and forget them and the forced
			// bits before them (a window with no fixed bit only postpones
			// their quantification).
			forced = append(forced, sorted[w0:w1]...)
			if !fix.IsTrue() {
				rel = rel.AndExists(fix, sp.CubeOfLevels(forced))
				forced = forced[:0]
			}
		}
		if err := sp.Err(); err != nil {
			return nil, err
		}
	}
	return fns, nil
}

// choiceOrder returns the indexes of outs in the order determinize
// chooses their bits: from the top of sp's current variable order down.
// The bits still to choose, which each step quantifies, are then the
// lower ones (on AMBA n = 4, measured without dynamic reordering, this
// halves the circuit's nodes against the opposite order or the
// declaration order).
func choiceOrder(sp *fds.Space, outs []int) []int {
	order := make([]int, len(outs))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(sp.Position(outs[a]), sp.Position(outs[b])) })
	return order
}

// detWindow is the number of output bits determinize chooses from one
// quantification of the relation. With each bit chosen from the window's
// projection and its fixes (not from a projection rewritten per bit), 5
// bits made the fewest nodes of 3, 4, 5, 6 and 8 on AMBA n = 3…5, fewer
// than 4 and 6 at n = 6 and 7 and than 4 at n = 8: 2–7 % fewer than 4 at
// every n = 3…8 (synth's BENCHMARKS.part.md). Before, with the projection rewritten per
// bit, windows of 1…6 bits cost about the same on AMBA n = 3 and 4 and all
// bits at once more, and at n = 9 4 bits took 22 % less CPU than 1.
const detWindow = 5

// graphBuilder copies BDDs into a Circuit's decision graph, sharing nodes
// between roots.
//
// The BDDs come from one backend, whose nodes are canonical: two node ids
// of one Walk, or of walks between which the backend made no node, are two
// functions, and their copies two nodes. So the copy of a node is found by
// its id (local), without hashing the copied nodes: an entry is used only
// if the node it names is the one being copied (same signal and children),
// which an entry of an earlier walk whose node the backend has freed since
// may fail — the node is then copied anew, which at worst duplicates a
// node of the graph, never changes a function.
type graphBuilder struct {
	be    fds.Backend
	nodes []CircuitNode
	// local maps Walk ids to the graph's ids (0 where none yet), kept
	// between walks.
	local []int32
	err   error
}

func newGraphBuilder(be fds.Backend) *graphBuilder {
	return &graphBuilder{be: be}
}

// add copies fs, whose variables must all be in signal, and returns their
// ids.
func (b *graphBuilder) add(fs []fds.BDD, signal map[int]int32) []int32 {
	if len(fs) == 0 {
		return nil
	}
	var sig []int32 // signal as a table, -1 where a level is no signal
	for l := range signal {
		if l >= len(sig) {
			sig = append(sig, make([]int32, l+1-len(sig))...)
		}
	}
	for i := range sig {
		sig[i] = -1
	}
	for l, s := range signal {
		sig[l] = s
	}
	ns := make([]fds.Node, len(fs))
	for i, f := range fs {
		ns[i] = f.Node()
	}
	sp := fs[0].Space()
	return b.addNodes(ns, func(level int) int32 {
		if level < len(sig) && sig[level] >= 0 {
			return sig[level]
		}
		if b.err == nil {
			v, _ := sp.VarAt(level)
			b.err = fmt.Errorf("a controller function depends on BDD level %d (%v), which is not a signal (a bug)", level, v)
		}
		return 0
	})
}

// addNodes copies the backend's BDDs ns, reading variable v as signal(v),
// and returns their ids: with one walk of them all where the backend
// offers it (fds.MultiWalker), else one Walk per root.
func (b *graphBuilder) addNodes(ns []fds.Node, signal func(v int) int32) []int32 {
	at := func(id int) int32 {
		if id < 2 {
			return int32(id)
		}
		return b.local[id]
	}
	visit := func(id, level, low, high int) {
		n := CircuitNode{Signal: signal(level), Lo: at(low), Hi: at(high)}
		if id >= len(b.local) {
			b.local = append(b.local, make([]int32, id+1-len(b.local)+len(b.local)/2)...)
		}
		if n.Lo == n.Hi {
			b.local[id] = n.Lo
			return
		}
		if x := b.local[id]; x >= 2 && b.nodes[x-2] == n {
			return
		}
		b.nodes = append(b.nodes, n)
		b.local[id] = int32(len(b.nodes) + 1)
	}
	out := make([]int32, len(ns))
	if mw, ok := b.be.(fds.MultiWalker); ok {
		for i, id := range mw.WalkAll(ns, visit) {
			out[i] = at(id)
		}
		return out
	}
	for i, n := range ns {
		out[i] = at(b.be.Walk(n, visit))
	}
	return out
}
