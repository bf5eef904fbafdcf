package synth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// ErrRefuted is wrapped by the error of a check that found a behaviour on
// which a controller violates its specification.
var ErrRefuted = errors.New("the controller violates the specification")

// Check model-checks the circuit against spec on the semantics of its
// and-inverter graph (AIG); see CheckAIG.
func (c *Circuit) Check(ctx context.Context, spec *Spec, opts ...Option) error {
	a, err := c.AIG()
	if err != nil {
		return err
	}
	return CheckAIG(ctx, spec, a, opts...)
}

// CheckAIG model-checks a controller circuit against spec, independently of
// how it was synthesized: it builds the product of the circuit (its inputs
// and outputs matched to the spec's variable bits by name, as AIG.Write…
// names them; its latches opaque, starting at 0) with the environments
// that keep the spec's assumptions, computes the reachable states, and
// checks that
//
//   - the first outputs meet SYS_INIT and every step meets SYS_TRANS
//     (Strict semantics: as long as the environment has kept ENV_TRANS);
//   - no reachable cycle meets every liveness assumption infinitely often
//     while it meets some liveness guarantee only finitely often (a fair
//     cycle of the closed loop: the Emerson–Lei fixpoint on transitions).
//
// A circuit that keeps a goal counter in latches named "#goal@b" (as
// Circuit.AIG writes them) has its liveness guarantees proved through it
// when the counter allows: the check verifies, on the reachable steps,
// that the counter only moves from k to k+1 (mod the number of
// guarantees) on a step that meets guarantee k, and that no fair cycle
// keeps it at one value. The names are a hint, not trusted: where the
// proof fails, the guarantees are checked one by one as above.
//
// Under Implication semantics the game's monitor flags (whether each side
// has kept its safety part) are part of the product, computed by the
// spec's clauses, and the first guarantee is that the system's flag stays
// set infinitely often unless the environment's does not.
//
// It returns nil when the circuit realizes the spec, an error wrapping
// ErrRefuted naming the violated clause when it does not, ctx's error when
// ctx is done first, and one wrapping ErrMemoryBound when the BDDs exceed
// WithMemoryLimit (the other options choose the BDD engine as for
// Realizable, except that dynamic reordering is on only while the spec's
// compiled clauses are conjoined into its sections (ρe, ρs, …), each
// block's excursion bounded at 1.05× the fewest nodes seen, unless
// WithReordering(true) is given: the variables start in an order read off
// the circuit, the circuit's functions are built in it before the
// sections, and the variables are sifted before the step relation is
// built: a second pass follows the first if it removed a tenth of the
// live nodes or more).
// Nothing of the synthesis (its fixpoints, its strategy) is used: only the
// spec's clauses, compiled afresh, and the circuit.
func CheckAIG(ctx context.Context, spec *Spec, a *AIG, opts ...Option) error {
	return checkAIG(ctx, spec, a, defaultCheck(), opts...)
}

// checkMethod selects how checkAIG works; its verdicts are the same
// whichever it selects, only the cost differs (the zero value is the check
// before any of them was added, kept as the baseline of tests and
// benchmarks). The fields marked (tests) or (benchmarks) cross-check or
// time the others.
type checkMethod struct {
	// byGoal: prove the liveness guarantees by the circuit's goal counter
	// (goalProof) before checking them one by one.
	byGoal bool
	// circuitOrder: order the space by aigOrder instead of the spec's
	// order with the circuit's own latches on top.
	circuitOrder bool
	// muxOrder: refine aigOrder by the precedence of the circuit's
	// multiplexers (muxOrder).
	muxOrder bool
	// siftGates: sift the variables (1 + siftPasses passes) when the
	// circuit's functions are built and before they are conjoined into
	// the step relation.
	siftGates bool
	// unreadFirst: in the reachability, quantify the current bits the
	// step relation does not read from the frontier before each image
	// (stepImage) instead of in the relational product.
	unreadFirst bool
	// checkReach (tests): compute the reachable states by both images
	// (with and without unreadFirst) and fail the check if they differ.
	checkReach bool
	// goalOneTest: in goalProof, test the counter's moves on every
	// reachable step by one product for all its values instead of one per
	// value.
	goalOneTest bool
	// goalBadStates: with goalOneTest, test the counter's moves by the
	// states with a bad move (∃next. bad ∧ trans, then intersected with
	// the reachable states) instead of by reach ∧ bad against trans
	// (AMBA n = 12: 8.6 → 0.4 s).
	goalBadStates bool
	// goalOneSearch: in goalProof, search the steps that keep the counter
	// for fair cycles once for all its values instead of once per value
	// (AMBA n = 9: 4.9 s against 5.6 s; n = 10: 21.2 s against 13.7 s).
	goalOneSearch bool
	// treeStep: conjoin the circuit's step relation in a balanced tree
	// (conjoinTree) instead of a chain.
	treeStep bool
	// badStates: test SYS_TRANS on the reachable steps by the states with
	// a step that violates it (∃next. trans ∧ ¬ρs, computed without the
	// reachable states, then conjoined with them) instead of by the
	// product ∃next. (reach ∧ ¬ρs) ∧ trans: the same emptiness test.
	badStates bool
	// checkGoal (tests): run goalProof also with goalOneTest and
	// goalOneSearch both switched, and fail the check if the two
	// disagree.
	checkGoal bool
	// siftGrowth, if not 0, bounds each block's excursion in the
	// siftGates pass (fds.Space.ReorderWithin; passSiftGrowth by
	// default); 0: the kernel's own bound (fds.Space.Reorder).
	siftGrowth float64
	// siftSpec: conjoin the spec's compiled clauses into its sections
	// (game.assemble) with dynamic reordering on
	// (fds.Space.SetAutoReorder), off again for the rest of the check
	// unless WithReordering(true) was given. Like the other passes, it
	// only permutes the variables.
	siftSpec bool
	// specSiftGrowth, if not 0, bounds each block's excursion in the
	// dynamic reorderings of siftSpec (fds.Space.SetAutoReorderGrowth;
	// passSiftGrowth by default); 0: the kernel's own bound, 1.2. AMBA
	// n = 11, 12: the check made 21 % and 28 % fewer nodes, its sifting
	// read 30 % and 33 % fewer, and the sections took 1.8 and 4.3 s of CPU
	// instead of 5.0 and 9.2.
	specSiftGrowth float64
	// gatesFirst: build the circuit's functions (its outputs and latches
	// as BDDs) before the spec's sections are conjoined, in the order
	// read off the circuit, where they are about the size of the
	// decision graphs it was written from; siftSpec's dynamic reordering
	// then weighs them against the clauses. Built after the sections, in
	// an order sifted for the clauses alone, they were 2.6–9.2× larger
	// when the siftGates pass began (AMBA n = 8, 9, 11, 12: 170 K, 472 K,
	// 569 K and 581 K nodes against 65 K, 51 K, 70 K and 75 K), and the
	// check 1.1–1.5× slower. Up to n = 7 no reordering fires while the
	// sections are conjoined, and either way costs the same.
	gatesFirst bool
	// siftPasses is the number of sifting passes of siftGates beyond the
	// first (0: one pass; 1 by default: a second pass starts each block
	// from where the first left the others, AMBA n = 10: the check 41.3 →
	// 30.2 s, n = 11: 51.2 → 45.1 s, measured before gatesFirst; it runs
	// only if siftAgain says so). A pass only permutes the variables:
	// every BDD denotes the same function after it, so the verdict cannot
	// change.
	siftPasses int
	// siftAgainGain, if not 0, skips siftGates' further passes once a
	// pass removes less than this share of the live nodes (siftAgain;
	// 0.1 by default).
	siftAgainGain float64
	// siftPass (tests), when not nil, is told the figures of each of
	// siftGates' passes.
	siftPass func(fds.ReorderStats)

	// projectReach: compute the reachable states over the closed loop
	// without the outputs that no step reads (projectedStep: their
	// conjuncts o′ ↔ f_o left out of the relation), then the reachable
	// states themselves by one image over the whole relation (AMBA n = 10,
	// 4 of 34 outputs dropped: the reachability 22.0 → 15.1 s).
	projectReach bool
	// projected (tests), when not nil, is told how many outputs
	// projectReach dropped.
	projected func(dropped int)
	// projectGoal: with projectReach, search goalProof's fair cycles
	// within each counter value over the closed loop without the dropped
	// outputs too, when the counter and the liveness assumptions do not
	// read them (goalSearchProjected; AMBA n = 10: 8.2 → 4.8 s, n = 12:
	// 25.0 → 14.8 s).
	projectGoal bool
	// goalProjected (tests), when not nil, is called when goalProof
	// searches over the projected loop.
	goalProjected func()
	// factoredLoop: with projectReach, leave the closed loop's relation
	// as its two factors, the projected loop and the dropped outputs'
	// conjuncts, conjoined only if a later phase needs it whole
	// (closedLoop; AMBA n = 8…12: the check made 4–7 % fewer nodes; at
	// n = 12 its relation phase took 3.4–4.0 s of CPU against 5.2–7.7 s).
	factoredLoop bool
	// loopBuilt (tests), when not nil, is called when the closed loop's
	// relation is conjoined from its factors.
	loopBuilt func()

	// phase (benchmarks), when not nil, is called as each phase of the
	// check ends, with the phase's name; the caller times the calls.
	phase func(name string)
}

// siftGatesFrom is the number of and-gates from which checkMethod.siftGates
// sifts: below it the pass costs more than it saves (AMBA n = 2, 3,338
// gates: 0.06–0.07 s of CPU with it, 0.035–0.04 s without; n = 3, 22,089
// gates: even).
const siftGatesFrom = 8192

// siftAgain reports whether the siftGates pass that gave st leaves
// another worth running: whether it removed at least m.siftAgainGain of
// the live nodes. After one that gained less, the order is near a local
// optimum, and the next pass mostly confirms it: on AMBA n = 6…12 the
// first pass removed 73, 31, 8, 13, 24, 6 and 3 % of the live nodes and
// the second 6, 3.4, 2.1, 7.7, 0, 0.6 and 0 %, for as much time as the
// first (n = 11: 1.1 s, n = 12: 1.4 s).
func (m checkMethod) siftAgain(st fds.ReorderStats) bool {
	return m.siftAgainGain == 0 || float64(st.After) <= (1-m.siftAgainGain)*float64(st.Before)
}

// defaultCheck is CheckAIG's method.
func defaultCheck() checkMethod {
	return checkMethod{byGoal: true, circuitOrder: true, muxOrder: true, siftGates: true, unreadFirst: true, goalOneTest: true, treeStep: true, badStates: true, siftGrowth: passSiftGrowth, siftPasses: 1, siftAgainGain: 0.1, siftSpec: true, specSiftGrowth: passSiftGrowth, gatesFirst: true, projectReach: true, projectGoal: true, goalBadStates: true, factoredLoop: true}
}

// checkAIG is CheckAIG by method m.
func checkAIG(ctx context.Context, spec *Spec, a *AIG, m checkMethod, opts ...Option) error {
	if err := spec.Check(); err != nil {
		return err
	}
	if err := a.validate(); err != nil {
		return err
	}
	inBits, err := aigBitsOf(spec.Inputs, a.InputNames, "input")
	if err != nil {
		return err
	}
	outBits, err := aigBitsOf(spec.Outputs, a.OutputNames, "output")
	if err != nil {
		return err
	}
	// Declare each latch next to the spec variable it names (when it names
	// one): the reachable states relate latches to the current values, and
	// keeping related bits close keeps those BDDs small.
	all := append(append([]Var(nil), spec.Inputs...), spec.Outputs...)
	latchVar := aigLatchVars(all, a)
	latchName := make([]string, len(a.Latches))
	for l := range a.Latches {
		latchName[l] = "%latch" + strconv.Itoa(l)
	}
	// Dynamic reordering is off unless opts turn it on (but for the
	// spec's sections: checkMethod.siftSpec): the check's relations are
	// built once and used many times in the fair-cycle fixpoints, and
	// sifting them cost more than it saved (AMBA n = 4: 15.2 s of CPU
	// with it, 2.5 s without).
	o := newOptions(append([]Option{WithReordering(false)}, opts...))
	var base []int
	if o.order == OrderClustered {
		base = clusteredOrder(spec)
	} else {
		base = make([]int, len(all))
		for i := range base {
			base[i] = i
		}
	}
	after := map[int][]string{}
	var top []string
	var order []int
	// The circuit's gates are built as BDDs in an order read off the
	// circuit (aigOrder), each latch that names a spec variable beside it.
	// Without it the circuit's own memory (a goal counter) goes on top,
	// where it splits the closed loop into one part per value.
	items := aigOrder(a, inBits, base, latchVar)
	// The multiplexers of a circuit written from decision graphs order
	// the variables as the graphs did: with aigOrder's ranking alone the
	// functions of AMBA n = 10's circuit took 1.39 M nodes, 0.16 M with
	// muxOrder (0.06 M after sifting either).
	if m.circuitOrder && m.muxOrder {
		items, _ = muxOrder(a, inBits, latchVar, items)
	}
	if !m.circuitOrder {
		items = items[:0]
		for _, v := range base {
			items = append(items, aigItem{v: v, latch: -1})
		}
		for l, v := range latchVar {
			if v < 0 {
				top = append(top, latchName[l])
			}
		}
	}
	for _, it := range items {
		switch {
		case it.latch < 0:
			order = append(order, it.v)
		case len(order) == 0:
			top = append(top, latchName[it.latch])
		default:
			prev := order[len(order)-1]
			after[prev] = append(after[prev], latchName[it.latch])
		}
	}
	for l, v := range latchVar {
		if v >= 0 {
			after[v] = append(after[v], latchName[l])
		}
	}
	g, err := newGameWith(spec, order, o, top, after)
	if err != nil {
		return interrupted(ctx, err)
	}
	release := g.bind(ctx)
	defer release()
	err = (&aigCheck{g: g, a: a, in: inBits, out: outBits, latch: latchName, m: m}).run(ctx)
	return interrupted(ctx, err)
}

// validate checks the structure ParseAIGER guarantees, for graphs built in
// Go.
func (a *AIG) validate() error {
	if a.Inputs < 0 || a.MaxVar != a.Inputs+len(a.Latches)+len(a.Ands) {
		return fmt.Errorf("synth: AIG: M = %d is not I+L+A", a.MaxVar)
	}
	if len(a.InputNames) != a.Inputs || len(a.LatchNames) != len(a.Latches) || len(a.OutputNames) != len(a.Outputs) {
		return fmt.Errorf("synth: AIG: the symbol table does not name every input, latch and output")
	}
	maxLit := uint32(2*a.MaxVar + 1)
	for _, x := range a.Latches {
		if x.Next > maxLit {
			return fmt.Errorf("synth: AIG: latch literal %d out of range", x.Next)
		}
	}
	for _, x := range a.Outputs {
		if x > maxLit {
			return fmt.Errorf("synth: AIG: output literal %d out of range", x)
		}
	}
	for i, g := range a.Ands {
		lhs := uint32(2 * (a.Inputs + len(a.Latches) + 1 + i))
		if g.A >= lhs || g.B >= lhs {
			return fmt.Errorf("synth: AIG: and-gate %d uses a later literal", lhs)
		}
	}
	return nil
}

// aigBit is one bit of a spec variable's encoding.
type aigBit struct {
	v   int // index into the variables
	bit int
}

// aigBitsOf matches the circuit's input or output names with the bits of
// vars: every bit must be named exactly once.
func aigBitsOf(vars []Var, names []string, what string) ([]aigBit, error) {
	want := map[string]aigBit{}
	for i, v := range vars {
		if v.Bool {
			want[v.Name] = aigBit{i, 0}
			continue
		}
		for b := range intWidth(v) {
			want[fmt.Sprintf("%s@%d", v.Name, b)] = aigBit{i, b}
		}
	}
	bits := make([]aigBit, len(names))
	seen := map[string]bool{}
	for k, n := range names {
		b, ok := want[n]
		if !ok {
			return nil, fmt.Errorf("synth: circuit %s %d is named %q, which is no bit of the spec's %ss (%s): %w", what, k, n, what, varNames(vars), ErrRefuted)
		}
		if seen[n] {
			return nil, fmt.Errorf("synth: circuit %s %q appears twice: %w", what, n, ErrRefuted)
		}
		seen[n] = true
		bits[k] = b
	}
	if len(seen) != len(want) {
		for n := range want {
			if !seen[n] {
				return nil, fmt.Errorf("synth: the circuit has no %s %q: %w", what, n, ErrRefuted)
			}
		}
	}
	return bits, nil
}

// aigCheck is one run of CheckAIG.
type aigCheck struct {
	g     *game
	a     *AIG
	in    []aigBit
	out   []aigBit
	latch []string // the latches' variable names in g's Space

	m   checkMethod
	all fds.Cube // every bit, current and primed (intersects)
}

// ended reports the end of a phase to the method's phase hook, if any.
func (k *aigCheck) ended(name string) {
	if k.m.phase != nil {
		k.m.phase(name)
	}
}

func (k *aigCheck) run(ctx context.Context) error {
	g, a := k.g, k.a
	sp := g.sp
	// assemble conjoins the spec's compiled clauses into its sections,
	// after the circuit's functions are built (gatesFirst) or before.
	assemble := func() {
		if k.m.siftSpec {
			// With dynamic reordering on: the order read off the circuit
			// suits its gates, not always the clauses (measured with the
			// sections first, AMBA n = 11: 17 s for the sections, then
			// 51 s for the sifting pass to repair the order; 8.5 s and
			// 4.8 s with it). Below fds.AutoReorderMin live nodes it never
			// sifts.
			was := sp.SetAutoReorder(true)
			growth := sp.SetAutoReorderGrowth(k.m.specSiftGrowth)
			g.assemble(nil)
			sp.SetAutoReorderGrowth(growth)
			sp.SetAutoReorder(was)
		} else {
			g.assemble(nil)
		}
		k.ended("spec")
	}
	if !k.m.gatesFirst {
		assemble()
	}
	nIn, nL := a.Inputs, len(a.Latches)
	latchVars := make([]*fds.Var, nL)
	for l, n := range k.latch {
		latchVars[l] = sp.Lookup(n)
	}
	// A latch whose next value is an input, an output or a constant holds,
	// after the first step, the current value of that spec bit or that
	// constant: a structural fact of the circuit, used so that such copies
	// need no variables of their own. The other latches are state of the
	// product.
	copyOf := make([]fds.BDD, nL)
	inOf := map[uint32]aigBit{}
	for i, b := range k.in {
		inOf[uint32(2*(i+1))] = b
	}
	outOf := map[uint32]aigBit{}
	for o, x := range a.Outputs {
		if _, dup := outOf[x]; !dup {
			outOf[x] = k.out[o]
		}
	}
	for l, x := range a.Latches {
		neg := x.Next&1 == 1
		if x.Next <= 1 {
			copyOf[l] = sp.Const(neg)
		} else if b, ok := inOf[x.Next&^1]; ok {
			copyOf[l] = g.inputs[b.v].Bit(b.bit, false)
		} else if b, ok := outOf[x.Next]; ok {
			copyOf[l], neg = g.outputs[b.v].Bit(b.bit, false), false
		} else if b, ok := outOf[x.Next^1]; ok {
			copyOf[l], neg = g.outputs[b.v].Bit(b.bit, false), true
		}
		if neg && x.Next > 1 && copyOf[l].Space() != nil {
			copyOf[l] = copyOf[l].Not()
		}
	}
	latchLit := func(l int) fds.BDD {
		if copyOf[l].Space() != nil {
			return copyOf[l]
		}
		return latchVars[l].True(false)
	}
	// The literal of each AIG variable as a BDD over the latches (current)
	// and the step's inputs (primed): the inputs are read as the next values
	// of the spec's input variables. first: with every latch 0 (the first
	// step); later: with the latches as above.
	gates := func(first bool) ([]fds.BDD, error) {
		lits := make([]fds.BDD, a.MaxVar+1)
		lits[0] = sp.False()
		for i, b := range k.in {
			lits[i+1] = g.inputs[b.v].Bit(b.bit, true)
		}
		for l := range latchVars {
			if first {
				lits[nIn+1+l] = sp.False()
			} else {
				lits[nIn+1+l] = latchLit(l)
			}
		}
		// Free each gate's BDD after its last use.
		last := make([]int, a.MaxVar+1)
		for i, gate := range a.Ands {
			last[gate.A/2], last[gate.B/2] = i, i
		}
		end := len(a.Ands)
		for _, x := range a.Latches {
			last[x.Next/2] = end
		}
		for _, x := range a.Outputs {
			last[x/2] = end
		}
		base := nIn + nL + 1
		for i, gate := range a.Ands {
			if i%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			lits[base+i] = aigLit(lits, gate.A).And(aigLit(lits, gate.B))
			for _, x := range []uint32{gate.A, gate.B} {
				if v := int(x / 2); v >= base && last[v] == i {
					lits[v] = fds.BDD{}
				}
			}
		}
		return lits, sp.Err()
	}
	// The circuit's step as a relation: outputs and the latches that are
	// state as functions of the latches and inputs.
	// outParts has one conjunct per output (in the order of a.Outputs),
	// latchParts one per latch that is state.
	stepParts := func(lits []fds.BDD) (outParts, latchParts []fds.BDD) {
		for o, x := range a.Outputs {
			b := k.out[o]
			outParts = append(outParts, g.outputs[b.v].Bit(b.bit, true).Iff(aigLit(lits, x)))
		}
		for l, x := range a.Latches {
			if copyOf[l].Space() == nil {
				latchParts = append(latchParts, latchVars[l].True(true).Iff(aigLit(lits, x.Next)))
			}
		}
		return outParts, latchParts
	}
	conjoin := func(parts []fds.BDD) fds.BDD {
		if k.m.treeStep {
			return conjoinTree(sp, parts)
		}
		circ := sp.True()
		for _, p := range parts {
			circ = circ.And(p)
		}
		return circ
	}
	step := func(lits []fds.BDD) fds.BDD {
		outParts, latchParts := stepParts(lits)
		return conjoin(append(outParts, latchParts...))
	}
	firstLits, err := gates(true)
	if err != nil {
		return err
	}
	firstStep := step(firstLits)
	firstLits = nil
	laterLits, err := gates(false)
	if err != nil {
		return err
	}
	k.ended("gates")
	if k.m.gatesFirst {
		assemble()
	}
	if k.m.siftGates && len(a.Ands) >= siftGatesFrom {
		// One sifting pass while the live BDDs are the circuit's functions
		// and the spec's clauses, before the step relation multiplies
		// them: aigOrder places the variables for the functions alone,
		// and the relation conjoins each with its next-state variable
		// (AMBA n = 6: the relation is 2.3× smaller, the check 2× cheaper,
		// for 0.5 s of sifting; sifting the relation itself cost 41 s).
		for i := 0; i <= k.m.siftPasses; i++ {
			var st fds.ReorderStats
			if k.m.siftGrowth > 0 {
				st = sp.ReorderWithin(ctx, k.m.siftGrowth)
			} else {
				st = sp.Reorder(ctx)
			}
			if k.m.siftPass != nil {
				k.m.siftPass(st)
			}
			if !k.m.siftAgain(st) {
				break
			}
		}
		if err := sp.Err(); err != nil {
			return err
		}
		k.ended("sift")
	}
	impl := g.spec.Semantics == Implication
	// Later steps: the environment keeps ENV_TRANS (under Implication the
	// monitor flags follow their definition in ρs).
	outParts, latchParts := stepParts(laterLits)
	laterLits = nil
	// loop conjoins the closed loop's relation from the circuit's
	// conjuncts parts.
	loop := func(parts []fds.BDD) fds.BDD {
		r := g.rhoE.And(conjoin(parts))
		if impl {
			r = r.And(g.rhoS)
		}
		return r
	}
	// cl is the closed loop's relation; when the projection applies, as
	// the same without the outputs no step reads, for the reachability
	// (projectedStep), and the conjunction of their conjuncts.
	var cl *closedLoop
	if k.m.projectReach {
		rest := append([]fds.BDD{g.rhoE}, latchParts...)
		if impl {
			rest = append(rest, g.rhoS)
		}
		keep, drop, unread, unreadNext := k.projectedStep(outParts, rest)
		if k.m.projected != nil {
			k.m.projected(len(drop))
		}
		if len(drop) > 0 {
			cl = newClosedLoop(sp, loop(append(keep, latchParts...)), conjoin(drop), unread, unreadNext, k.m.loopBuilt)
		}
	}
	if cl == nil {
		cl = newClosedLoop(sp, loop(append(outParts, latchParts...)), sp.True(), nil, nil, nil)
	} else if !k.m.factoredLoop {
		cl.trans()
	}
	// The first step from the all-zero latches.
	first := g.thetaE.Prime().And(firstStep)
	if impl {
		first = first.And(g.thetaS.Prime())
	}
	init := first.Exists(sp.CurCube()).Unprime()
	if err := sp.Err(); err != nil {
		return err
	}
	k.ended("relation")
	if !impl {
		if bad := init.Diff(g.thetaS); !bad.IsFalse() {
			return k.refuted(g.clausesViolated(SysInit, init), "the first outputs violate SYS_INIT")
		}
	}
	// Reachable states, breadth first; the frontiers are kept to name the
	// first step that violates SYS_TRANS, which is checked once on every
	// reachable transition.
	product := func(s fds.BDD) fds.BDD { return s.AndExists(cl.trans(), sp.CurCube()) }
	image, other := product, cl.image(sp).of
	if k.m.unreadFirst {
		image, other = other, product
	}
	var reach fds.BDD
	var frontiers []fds.BDD
	if cl.projected() {
		// The reachable states projected on the bits some step reads,
		// then the reachable states themselves: the initial states and
		// the successors of the projected ones (projectedStep).
		projImage := newStepImage(sp, cl.proj).of
		if !k.m.unreadFirst {
			projImage = func(s fds.BDD) fds.BDD { return s.AndExists(cl.proj, sp.CurCube()) }
		}
		reach, frontiers, err = reachable(ctx, sp, init.Exists(cl.unread), projImage)
		if err == nil {
			reach = init.Or(image(reach).Unprime())
			err = sp.Err()
		}
	} else {
		reach, frontiers, err = reachable(ctx, sp, init, image)
	}
	if err != nil {
		return err
	}
	k.ended("reach")
	if k.m.checkReach {
		again, _, err := reachable(ctx, sp, init, other)
		if err != nil {
			return err
		}
		if !again.Equal(reach) {
			return fmt.Errorf("synth: %s: the two images reach different states", g.spec.Name)
		}
	}
	// Every successor of a reachable state is reachable, so a reachable
	// transition is a step of the closed loop from reach.
	if !impl && k.badStep(reach, cl) {
		if cl.projected() {
			// The projected frontiers leave the dropped outputs free:
			// name the step by the frontiers of the closed loop itself.
			if _, frontiers, err = reachable(ctx, sp, init, image); err != nil {
				return err
			}
		}
		trans := cl.trans()
		if err := sp.Err(); err != nil {
			return err
		}
		return k.transViolation(frontiers, trans)
	}
	frontiers = nil
	if err := sp.Err(); err != nil {
		return err
	}
	k.ended("systrans")
	// The circuit's goal counter, if it has one, may prove every liveness
	// guarantee at once, with fair-cycle searches that each stay within one
	// value of the counter; where it does not, each guarantee is checked
	// on its own below, which also names the one violated.
	if c, ok := goalCounterOf(a.LatchNames, latchLit); ok && k.m.byGoal {
		proved, err := goalProof(ctx, k, c, reach, cl)
		if err != nil {
			return err
		}
		if k.m.checkGoal {
			other := *k
			other.m.goalOneTest, other.m.goalOneSearch = !k.m.goalOneTest, !k.m.goalOneSearch
			again, err := goalProof(ctx, &other, c, reach, cl)
			if err != nil {
				return err
			}
			if again != proved {
				return fmt.Errorf("synth: %s: the goal proof says %v by %+v, %v by %+v", g.spec.Name, proved, k.m.goalMethod(), again, other.m.goalMethod())
			}
		}
		k.ended("goal-cycles")
		if proved {
			return sp.Err()
		}
	}
	// Fair cycles: for each guarantee j, the reachable states from which
	// some path avoids J^s_j while meeting every assumption infinitely
	// often.
	for j, js := range g.sysJ {
		// pre is the predecessors, by steps that avoid J^s_j, of the
		// transitions t; the fixpoints below stay within reach (z ⊆
		// reach), so r need not be restricted to it.
		r := cl.trans().Diff(js)
		fc := &fairCycles{sp: sp, r: r, envJ: g.envJ}
		// Every state of such a path has a step that avoids J^s_j, so when
		// J^s_j is a state condition the search can start from the
		// reachable states that do not meet it. A condition on transitions
		// says nothing of a state alone (reach.Diff(js) would be a
		// relation, which z.Prime() garbles): start from reach.
		z := reach
		if !js.DependsOnPrimed() {
			z = z.Diff(js)
		}
		var err error
		z, err = fc.emersonLei(ctx, z)
		if err != nil {
			return err
		}
		if !z.IsFalse() {
			what := "a liveness guarantee"
			if c := g.sysJClause[j]; c >= 0 {
				what = fmt.Sprintf("the liveness guarantee at %s (%s)", g.spec.Clauses[c].Pos, g.spec.Clauses[c].Expr)
			} else if impl {
				what = "the safety guarantees (under Implication semantics)"
			}
			return k.refuted(nil, "a reachable loop meets every liveness assumption but starves "+what)
		}
	}
	k.ended("fair")
	return sp.Err()
}

// projectedStep splits the circuit's output conjuncts (o′ ↔ f_o, one per
// output, outParts) into those the reachability needs (keep) and those it
// does not (drop): an output is dropped when no conjunct of the step
// (outParts and others, the rest of the closed loop's relation: ENV_TRANS,
// the state latches' conjuncts, under Implication ρs) reads its current
// bit and no conjunct but its own reads its next bit. unread and
// unreadNext are the current and next bits of the dropped outputs. The
// supports are the conjuncts',
// a superset of the relation's: a bit taken as read may not be, never
// the converse.
//
// Soundness: let T be the conjunction of every conjunct, P that of all but
// the dropped ones, and U the dropped outputs' bits. Each u′ of U′ occurs
// in its own conjunct u′ ↔ f_u alone, so ∃U′. T = P; and no conjunct reads
// U, so T and P do not depend on U. Hence for any set S,
// ∃U. Img_T(S) = Img_P(∃U. S), and by induction on the breadth-first
// layers the reachable states of P from ∃U. init are ∃U. reach, the
// reachable states of T projected. As T does not read U,
// Img_T(∃U. reach) = Img_T(reach), and since every reachable state is
// initial or a successor of one, reach = init ∨ Img_T(∃U. reach): the
// reachable states, exactly, by one image of T.
func (k *aigCheck) projectedStep(outParts, others []fds.BDD) (keep, drop []fds.BDD, unread, unreadNext []int) {
	// reads counts the conjuncts that read each level.
	reads := map[int]int{}
	count := func(f fds.BDD) {
		for _, l := range f.Support() {
			reads[l]++
		}
	}
	for _, f := range outParts {
		count(f)
	}
	for _, f := range others {
		count(f)
	}
	for o, f := range outParts {
		b := k.out[o]
		v := k.g.outputs[b.v]
		c, n := v.Levels(false)[b.bit], v.Levels(true)[b.bit]
		if reads[c] == 0 && reads[n] == 1 {
			drop = append(drop, f)
			unread, unreadNext = append(unread, c), append(unreadNext, n)
		} else {
			keep = append(keep, f)
		}
	}
	return keep, drop, unread, unreadNext
}

// badStep reports whether some step of the closed loop cl from the states
// reach violates SYS_TRANS.
func (k *aigCheck) badStep(reach fds.BDD, cl *closedLoop) bool {
	sp, rhoS := k.g.sp, k.g.rhoS
	if k.m.badStates {
		b := rhoS
		if cl.projected() {
			b = k.rhoSReading(cl.unreadNext)
		}
		return !reach.And(cl.violations(sp, rhoS, b)).IsFalse()
	}
	return !cl.sources(sp, reach.Diff(rhoS)).IsFalse()
}

// rhoSReading returns the conjuncts of ρs (under Strict semantics) that
// read a level of u: the SYS_TRANS clauses that do and the domains of the
// system's variables with a next bit in u. ρs is their conjunction with
// the other clauses and domains, which read none.
func (k *aigCheck) rhoSReading(u fds.Cube) fds.BDD {
	g := k.g
	in := map[int]bool{}
	for _, l := range u.Levels() {
		in[l] = true
	}
	reads := func(levels []int) bool {
		return slices.ContainsFunc(levels, func(l int) bool { return in[l] })
	}
	b := g.sp.True()
	for i, c := range g.spec.Clauses {
		if c.Section == SysTrans && reads(g.clause[i].Support()) {
			b = b.And(g.clause[i])
		}
	}
	for _, v := range g.sys {
		if reads(v.Levels(true)) {
			b = b.And(v.Dom(true))
		}
	}
	return b
}

// transViolation names the first step, of the reachability's frontiers,
// that violates SYS_TRANS, and the clauses it violates.
func (k *aigCheck) transViolation(frontiers []fds.BDD, trans fds.BDD) error {
	g := k.g
	for step, f := range frontiers {
		if bad := f.And(trans); !bad.Diff(g.rhoS).IsFalse() {
			return k.refuted(g.clausesViolated(SysTrans, bad), fmt.Sprintf("step %d can violate SYS_TRANS", step+2))
		}
	}
	return k.refuted(g.clausesViolated(SysTrans, trans), "a step can violate SYS_TRANS")
}

// goalMethod is the part of m that chooses how goalProof works, to name
// it in messages.
func (m checkMethod) goalMethod() struct{ OneTest, OneSearch bool } {
	return struct{ OneTest, OneSearch bool }{m.goalOneTest, m.goalOneSearch}
}

// conjoinTree returns the conjunction of fs (true for none), conjoining
// them in pairs, then the pairs in pairs, and so on: each conjunction
// joins parts of similar size, where a chain conjoins every part with the
// growing conjunction of all before it.
func conjoinTree(sp *fds.Space, fs []fds.BDD) fds.BDD {
	if len(fs) == 0 {
		return sp.True()
	}
	fs = append([]fds.BDD(nil), fs...)
	for len(fs) > 1 {
		half := fs[:0]
		for i := 0; i < len(fs); i += 2 {
			if i+1 < len(fs) {
				half = append(half, fs[i].And(fs[i+1]))
			} else {
				half = append(half, fs[i])
			}
		}
		fs = half
	}
	return fs[0]
}

// aigLit is the BDD of literal x given the BDDs of the variables.
func aigLit(lits []fds.BDD, x uint32) fds.BDD {
	b := lits[x/2]
	if x&1 == 1 {
		return b.Not()
	}
	return b
}

func (k *aigCheck) refuted(clauses []string, msg string) error {
	if len(clauses) > 0 {
		msg += ": " + strings.Join(clauses, "; ")
	}
	return fmt.Errorf("synth: %s: %s: %w", k.g.spec.Name, msg, ErrRefuted)
}

// clausesViolated names the clauses of section that some state or
// transition of f violates.
func (g *game) clausesViolated(section Section, f fds.BDD) []string {
	var out []string
	for i, c := range g.spec.Clauses {
		if c.Section != section {
			continue
		}
		if !f.Diff(g.clause[i]).IsFalse() {
			out = append(out, fmt.Sprintf("%s: %s", c.Pos, c.Expr))
		}
	}
	return out
}

// aigLatchVars returns, for each latch of a, the index in all (the spec's
// inputs and outputs) of the variable its name names ("NAME" or
// "NAME@…"), or -1 for a latch of the circuit's own memory.
func aigLatchVars(all []Var, a *AIG) []int {
	index := map[string]int{}
	for i, v := range all {
		index[v.Name] = i
	}
	latchVar := make([]int, len(a.Latches))
	for l := range a.Latches {
		name := a.LatchNames[l]
		if i := strings.LastIndexByte(name, '@'); i >= 0 {
			name = name[:i]
		}
		latchVar[l] = -1
		if i, ok := index[name]; ok {
			latchVar[l] = i
		}
	}
	return latchVar
}
