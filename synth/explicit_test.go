package synth

// An explicit-state GR(1) solver used as a test oracle: it enumerates every
// state and move and evaluates clauses with the interpreter, independently
// of the BDD layer. It uses the transition form of the fixpoint (as Slugs
// does): W = νZ. ⋀_j μY. ⋁_i νX. pre((Js_j ∧ Z′) ∨ Y′ ∨ (¬Je_i ∧ X′)).

type explicitGame struct {
	spec   *Spec
	c      *checker
	states [][]int // all valuations of Inputs++Outputs
	// moves[s] lists, per legal input, the legal successor states.
	moves  [][][]int
	envJ   [][]map[int]bool // envJ[i][s][t]: assumption i holds on s→t
	sysJ   [][]map[int]bool
	init   [][]int // per legal initial input, the legal initial states
	inputs int
}

func newExplicitGame(spec *Spec) *explicitGame {
	c := newChecker(spec)
	eg := &explicitGame{spec: spec, c: c}
	all := append(append([]Var(nil), spec.Inputs...), spec.Outputs...)
	allValues(all, 1<<14, func(v []int) { eg.states = append(eg.states, v) })
	index := map[string]int{}
	for i, s := range eg.states {
		index[key(s)] = i
	}
	nIn := len(spec.Inputs)
	val := func(s int) valuation { return c.valuation(eg.states[s]) }
	// Initial moves.
	byInput := map[string][]int{}
	var order []string
	for s := range eg.states {
		in := key(eg.states[s][:nIn])
		if c.fails(EnvInit, val(s), nil) >= 0 {
			continue
		}
		if _, ok := byInput[in]; !ok {
			order = append(order, in)
			byInput[in] = []int{}
		}
		if c.fails(SysInit, val(s), nil) < 0 {
			byInput[in] = append(byInput[in], s)
		}
	}
	for _, in := range order {
		eg.init = append(eg.init, byInput[in])
	}
	eg.moves = make([][][]int, len(eg.states))
	nE, nS := len(c.justice(EnvLiveness)), len(c.justice(SysLiveness))
	eg.envJ = make([][]map[int]bool, nE)
	eg.sysJ = make([][]map[int]bool, nS)
	for i := range eg.envJ {
		eg.envJ[i] = make([]map[int]bool, len(eg.states))
	}
	for j := range eg.sysJ {
		eg.sysJ[j] = make([]map[int]bool, len(eg.states))
	}
	for s := range eg.states {
		cur := val(s)
		group := map[string][]int{}
		var gorder []string
		for t := range eg.states {
			next := val(t)
			if c.fails(EnvTrans, cur, next) >= 0 {
				continue
			}
			in := key(eg.states[t][:nIn])
			if _, ok := group[in]; !ok {
				gorder = append(gorder, in)
				group[in] = []int{}
			}
			if c.fails(SysTrans, cur, next) < 0 {
				group[in] = append(group[in], t)
			}
			l := c.labels(cur, next)
			for i := range nE {
				if eg.envJ[i][s] == nil {
					eg.envJ[i][s] = map[int]bool{}
				}
				eg.envJ[i][s][t] = l.env[i]
			}
			for j := range nS {
				if eg.sysJ[j][s] == nil {
					eg.sysJ[j][s] = map[int]bool{}
				}
				eg.sysJ[j][s][t] = l.sys[j]
			}
		}
		for _, in := range gorder {
			eg.moves[s] = append(eg.moves[s], group[in])
		}
	}
	return eg
}

func key(v []int) string {
	b := make([]byte, 0, len(v)*3)
	for _, x := range v {
		b = append(b, byte(x), byte(x>>8), ',')
	}
	return string(b)
}

// pre returns the states from which the system can force a transition in
// target: for every legal input, some legal successor t with target(s, t).
func (eg *explicitGame) pre(target func(s, t int) bool) []bool {
	out := make([]bool, len(eg.states))
	for s := range eg.states {
		ok := true
		for _, succ := range eg.moves[s] {
			some := false
			for _, t := range succ {
				if target(s, t) {
					some = true
					break
				}
			}
			if !some {
				ok = false
				break
			}
		}
		out[s] = ok
	}
	return out
}

func equalBools(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// winning returns the system's winning states and whether the game is
// realizable.
func (eg *explicitGame) winning() ([]bool, bool) {
	n := len(eg.states)
	nE, nS := len(eg.envJ), len(eg.sysJ)
	envJ := func(i, s, t int) bool {
		if nE == 0 {
			return true
		}
		return eg.envJ[i][s][t]
	}
	sysJ := func(j, s, t int) bool {
		if nS == 0 {
			return true
		}
		return eg.sysJ[j][s][t]
	}
	z := make([]bool, n)
	for i := range z {
		z[i] = true
	}
	for {
		zOld := append([]bool(nil), z...)
		for j := range max(nS, 1) {
			y := make([]bool, n)
			for {
				ynew := make([]bool, n)
				for i := range max(nE, 1) {
					x := append([]bool(nil), z...)
					for {
						xn := eg.pre(func(s, t int) bool {
							return (sysJ(j, s, t) && z[t]) || y[t] || (!envJ(i, s, t) && x[t])
						})
						if equalBools(xn, x) {
							break
						}
						x = xn
					}
					for s := range n {
						ynew[s] = ynew[s] || x[s]
					}
				}
				if equalBools(ynew, y) {
					break
				}
				y = ynew
			}
			z = y
		}
		if equalBools(z, zOld) {
			break
		}
	}
	for _, succ := range eg.init {
		some := false
		for _, s := range succ {
			some = some || z[s]
		}
		if !some {
			return z, false
		}
	}
	return z, true
}
