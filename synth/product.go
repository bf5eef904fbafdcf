package synth

import "fmt"

// product is the explicit graph a strategy check explores: nodes are states
// of the strategy together with two flags (the environment has kept its
// assumptions so far; the system has kept its guarantees so far), edges are
// labelled with the liveness clauses that hold on them.
type product struct {
	index     map[string]int
	nodes     []*pnode
	violation *Violation
	stepOf    func(e Edge) Step
}

type pnode struct {
	q            int
	vals         []int // the game's variables after the step into this node
	envOK, sysOK bool
	parent       int  // node this one was first reached from; -1 from the start
	via          Step // the step from parent
	out          []pedge
}

type pedge struct {
	to   int
	lab  label
	step Step
}

func newProduct(m *Mealy) *product {
	return &product{
		index: map[string]int{},
		stepOf: func(e Edge) Step {
			return Step{Inputs: namedValues(m.Inputs, e.Input), Outputs: namedValues(m.Outputs, e.Output)}
		},
	}
}

// node returns the product node of machine state q reached with the game
// variables vals, creating it if needed.
func (p *product) node(q int, vals []int, envOK, sysOK bool, parent int, via Step) int {
	k := fmt.Sprint(q, vals, envOK, sysOK)
	if i, ok := p.index[k]; ok {
		return i
	}
	i := len(p.nodes)
	p.index[k] = i
	p.nodes = append(p.nodes, &pnode{q: q, vals: vals, envOK: envOK, sysOK: sysOK, parent: parent, via: via})
	return i
}

func edgeValues(e Edge) []int { return append(append([]int(nil), e.Input...), e.Output...) }

func (p *product) addInitial(e Edge, envOK, sysOK bool) {
	p.node(e.To, edgeValues(e), envOK, sysOK, -1, p.stepOf(e))
}

func (p *product) addEdge(from int, e Edge, envOK, sysOK bool, lab label) {
	st := p.stepOf(e)
	to := p.node(e.To, edgeValues(e), envOK, sysOK, from, st)
	p.nodes[from].out = append(p.nodes[from].out, pedge{to: to, lab: lab, step: st})
}

// stem returns the steps from the start to node k.
func (p *product) stem(k int) []Step {
	var rev []Step
	for ; k >= 0; k = p.nodes[k].parent {
		rev = append(rev, p.nodes[k].via)
	}
	steps := make([]Step, len(rev))
	for i, s := range rev {
		steps[len(rev)-1-i] = s
	}
	return steps
}

// findLoop looks for a cycle through nodes with nodeOK, using edges with
// edgeOK (nil: all), on which every env liveness label 0..needEnv-1 and
// every sys liveness label 0..needSys-1 holds on some edge. It returns the
// lasso as a Violation (Msg to be filled in), or nil.
func (p *product) findLoop(nodeOK func(*pnode) bool, edgeOK func(label) bool, needEnv, needSys int) *Violation {
	usable := func(from int, e pedge) bool {
		return nodeOK(p.nodes[from]) && nodeOK(p.nodes[e.to]) && (edgeOK == nil || edgeOK(e.lab))
	}
	comp := p.sccs(usable)
	for _, members := range comp {
		in := map[int]bool{}
		for _, v := range members {
			in[v] = true
		}
		// The edges inside the component, and one witness per requirement.
		type ref struct{ from, k int }
		var inner []ref
		needs := needEnv + needSys
		witness := make([]*ref, needs)
		for _, v := range members {
			for k, e := range p.nodes[v].out {
				if !in[e.to] || !usable(v, e) {
					continue
				}
				r := ref{v, k}
				inner = append(inner, r)
				for i := range needEnv {
					if witness[i] == nil && e.lab.env[i] {
						witness[i] = &r
					}
				}
				for j := range needSys {
					if witness[needEnv+j] == nil && e.lab.sys[j] {
						witness[needEnv+j] = &r
					}
				}
			}
		}
		if len(inner) == 0 {
			continue
		}
		complete := true
		for _, w := range witness {
			complete = complete && w != nil
		}
		if !complete {
			continue
		}
		var route []ref
		if needs == 0 {
			route = []ref{inner[0]}
		} else {
			for _, w := range witness {
				route = append(route, *w)
			}
		}
		start := route[0].from
		var loop []Step
		at := start
		for _, r := range route {
			loop = append(loop, p.path(at, r.from, in, usable)...)
			e := p.nodes[r.from].out[r.k]
			loop = append(loop, e.step)
			at = e.to
		}
		loop = append(loop, p.path(at, start, in, usable)...)
		return &Violation{Kind: LivenessViolation, Stem: p.stem(start), Loop: loop}
	}
	return nil
}

// path returns the steps of a shortest path from a to b inside the node set in.
func (p *product) path(a, b int, in map[int]bool, usable func(int, pedge) bool) []Step {
	if a == b {
		return nil
	}
	type back struct {
		prev int
		step Step
	}
	seen := map[int]back{a: {prev: -1}}
	queue := []int{a}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range p.nodes[v].out {
			if !in[e.to] || !usable(v, e) {
				continue
			}
			if _, ok := seen[e.to]; ok {
				continue
			}
			seen[e.to] = back{v, e.step}
			if e.to == b {
				var rev []Step
				for x := b; x != a; x = seen[x].prev {
					rev = append(rev, seen[x].step)
				}
				out := make([]Step, len(rev))
				for i, s := range rev {
					out[len(rev)-1-i] = s
				}
				return out
			}
			queue = append(queue, e.to)
		}
	}
	return nil
}

// sccs returns the strongly connected components of the graph restricted to
// usable edges (Tarjan's algorithm, iterative).
func (p *product) sccs(usable func(int, pedge) bool) [][]int {
	n := len(p.nodes)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var out [][]int
	counter := 0
	type frame struct{ v, k int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		calls := []frame{{root, 0}}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		onStack[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.k < len(p.nodes[v].out) {
				e := p.nodes[v].out[f.k]
				f.k++
				if !usable(v, e) {
					continue
				}
				w := e.to
				if index[w] < 0 {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{w, 0})
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				var comp []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				out = append(out, comp)
			}
		}
	}
	return out
}
