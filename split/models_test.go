package split

import (
	"fmt"

	"github.com/henceforth-go/henceforth/ltl"
)

// Models built with the Go API. The same models exist in the text format in
// testdata/*.smv; tests check both.

// muxSem is MUX-SEM (Fig 4.1 of the thesis), and with withLast the
// auxiliary variable last of Fig 4.2. Locations: 0 non-critical, 1 request
// x, 2 critical, 3 release x. Every process is scheduled infinitely often
// (unconditional fairness); with compassion1, P[1] also has the strong
// fairness of Table 4.10: GF(at l1 ∧ x) → GF at l2.
func muxSem(n int, withLast, compassion1 bool) *Program {
	p := NewProgram(fmt.Sprintf("mux-sem-%d", n))
	x := p.Bool("x")
	p.Init(Ref(x))
	var last *Var
	if withLast {
		last = p.Int("last", 0, n)
		p.Init(Is(last, 0))
	}
	for i := 1; i <= n; i++ {
		pr := p.Process(fmt.Sprintf("P[%d]", i))
		pr.SetTemplate("P")
		loc := pr.Int("loc", 0, 3)
		pr.Init(Is(loc, 0))
		pr.Command("noncritical", Is(loc, 0), Set(loc, OneOf(Int(0), Int(1))))
		enter := []Update{Set(loc, Int(2)), Set(x, False())}
		if withLast {
			enter = append(enter, Set(last, Int(i)))
		}
		pr.Command("request", And(Is(loc, 1), Ref(x)), enter...)
		pr.Command("critical", Is(loc, 2), Set(loc, Int(3)))
		pr.Command("release", Is(loc, 3), Set(loc, Int(0)), Set(x, True()))
		pr.Scheduled()
		if compassion1 && i == 1 {
			pr.Compassion(And(Is(loc, 1), Ref(x)), Is(loc, 2))
		}
	}
	return p
}

// mutex is "no two processes at location crit of variable loc".
func mutex(p *Program, crit int) *Property {
	var cs []Expr
	ps := p.Processes()
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			li := ps[i].Locals()[0]
			lj := ps[j].Locals()[0]
			cs = append(cs, Not(And(Is(li, crit), Is(lj, crit))))
		}
	}
	return NewInvariant("mutex", And(cs...))
}

// procLoc returns the first local (the location) of process i (0-based).
func procLoc(p *Program, i int) *Var { return p.Processes()[i].Locals()[0] }

// ltlResponse is G(a → F b) over two predicates.
func ltlResponse(name string, a, b Expr) *Property {
	f := ltl.Always(ltl.Implies(ltl.QuotedAtom(a.String()), ltl.Eventually(ltl.QuotedAtom(b.String()))))
	return NewLTL(name, f, map[string]Expr{a.String(): a, b.String(): b})
}

// muxSemNonDet is MUX-SEM-NON-DET (Fig 4.5).
func muxSemNonDet(n int) (*Program, *Property) {
	p := NewProgram(fmt.Sprintf("mux-sem-non-det-%d", n))
	x := p.Bool("x")
	p.Init(Ref(x))
	for i := 1; i <= n; i++ {
		pr := p.Process(fmt.Sprintf("P[%d]", i))
		pr.SetTemplate("user")
		loc := pr.Int("loc", 0, 3)
		pr.Init(Is(loc, 0))
		pr.Command("noncritical", Is(loc, 0), Set(loc, OneOf(Int(0), Int(1))))
		pr.Command("request", And(Is(loc, 1), Ref(x)), Set(loc, Int(2)), Set(x, False()))
		pr.Command("critical", Is(loc, 2), Set(loc, OneOf(Int(2), Int(3))))
		pr.Command("release", Is(loc, 3), Set(loc, Int(0)), Set(x, True()))
		pr.Scheduled()
		pr.Compassion(And(Is(loc, 1), Ref(x)), Is(loc, 2))
		pr.Compassion(Is(loc, 2), Is(loc, 3))
	}
	l1 := procLoc(p, 0)
	return p, ltlResponse("nostarvation", Is(l1, 1), Is(l1, 2))
}

// dining is DINING-PHIL (Fig 4.3).
func dining(n int) (*Program, *Property) {
	p := NewProgram(fmt.Sprintf("dining-%d", n))
	f := make([]*Var, n+1)
	for i := 1; i <= n; i++ {
		f[i] = p.Bool(fmt.Sprintf("f[%d]", i))
		p.Init(Ref(f[i]))
	}
	for i := 1; i <= n; i++ {
		first, second := i, i%n+1
		if i == 1 {
			first, second = 2, 1
		}
		pr := p.Process(fmt.Sprintf("P[%d]", i))
		pr.SetTemplate("phil")
		loc := pr.Int("loc", 0, 5)
		pr.Init(Is(loc, 0))
		pr.Command("think", Is(loc, 0), Set(loc, OneOf(Int(0), Int(1))))
		pr.Command("take1", And(Is(loc, 1), Ref(f[first])), Set(loc, Int(2)), Set(f[first], False()))
		pr.Command("take2", And(Is(loc, 2), Ref(f[second])), Set(loc, Int(3)), Set(f[second], False()))
		pr.Command("eat", Is(loc, 3), Set(loc, Int(4)))
		pr.Command("put2", Is(loc, 4), Set(loc, Int(5)), Set(f[second], True()))
		pr.Command("put1", Is(loc, 5), Set(loc, Int(0)), Set(f[first], True()))
		pr.Scheduled()
		pr.Compassion(And(Is(loc, 1), Ref(f[first])), Is(loc, 2))
		pr.Compassion(And(Is(loc, 2), Ref(f[second])), Is(loc, 3))
	}
	l1 := procLoc(p, 0)
	return p, ltlResponse("access", Is(l1, 1), Is(l1, 3))
}

// condTerm is COND-TERM (Fig 4.4) with y in 0..m.
func condTerm(n, m int) (*Program, *Property) {
	p := NewProgram(fmt.Sprintf("cond-term-%d", n))
	y := p.Int("y", 0, m)
	p.Init(Is(y, m))
	for i := 1; i <= n; i++ {
		pr := p.Process(fmt.Sprintf("P[%d]", i))
		pr.SetTemplate("worker")
		loc := pr.Int("loc", 0, 4)
		pr.Init(Is(loc, 0))
		pr.Command("test", Is(loc, 0), Set(loc, Ite(Ne(Ref(y), Int(0)), Int(1), Int(4))))
		pr.Command("choose", Is(loc, 1), Set(loc, OneOf(Int(2), Int(3))))
		pr.Command("dec", Is(loc, 2), Set(y, Max(Sub(Ref(y), Int(1)), Int(0))), Set(loc, Int(0)))
		pr.Command("inc", Is(loc, 3), Set(y, Min(Add(Ref(y), Int(1)), Int(m))), Set(loc, Int(0)))
		pr.Scheduled()
		pr.Compassion(Is(loc, 3), False())
	}
	l1 := procLoc(p, 0)
	e := Is(l1, 4)
	return p, NewLTL("termination", ltl.Eventually(ltl.QuotedAtom(e.String())), map[string]Expr{e.String(): e})
}

// pairwise is the invariant "no two processes at location crit".
func pairwise(p *Program, crit int) *Property { return mutex(p, crit) }

// peterson is the N-process filter lock of testdata/peterson.smv.
func peterson(n int) (*Program, *Property) {
	p := NewProgram(fmt.Sprintf("peterson-%d", n))
	level := make([]*Var, n+1)
	victim := make([]*Var, n)
	for i := 1; i <= n; i++ {
		level[i] = p.Int(fmt.Sprintf("level[%d]", i), 0, n-1)
		p.Init(Is(level[i], 0))
	}
	for l := 1; l < n; l++ {
		victim[l] = p.Int(fmt.Sprintf("victim[%d]", l), 1, n)
		p.Init(Is(victim[l], 1))
	}
	for i := 1; i <= n; i++ {
		pr := p.Process(fmt.Sprintf("P[%d]", i))
		pr.SetTemplate("filter")
		loc := pr.Int("loc", 0, 5)
		lv := pr.Int("l", 0, n-1)
		pr.Init(And(Is(loc, 0), Is(lv, 0)))
		// victim[l] := i and the wait condition, for the variable level l.
		var setVictim []Update
		for l := 1; l < n; l++ {
			setVictim = append(setVictim, Set(victim[l], Ite(Is(lv, l), Int(i), Ref(victim[l]))))
		}
		var others []Expr
		for k := 1; k <= n; k++ {
			if k != i {
				others = append(others, Lt(Ref(level[k]), Ref(lv)))
			}
		}
		var notVictim []Expr
		for l := 1; l < n; l++ {
			notVictim = append(notVictim, And(Is(lv, l), Ne(Ref(victim[l]), Int(i))))
		}
		free := Or(And(others...), Or(notVictim...))
		pr.Command("noncritical", Is(loc, 0), Set(loc, OneOf(Int(0), Int(1))), Set(lv, Int(1)))
		pr.Command("announce", Is(loc, 1), Set(level[i], Ref(lv)), Set(loc, Int(2)))
		pr.Command("yield", Is(loc, 2), append(setVictim, Set(loc, Int(3)))...)
		pr.Command("climb", And(Is(loc, 3), Lt(Ref(lv), Int(n-1)), free), Set(lv, Add(Ref(lv), Int(1))), Set(loc, Int(1)))
		pr.Command("enter", And(Is(loc, 3), Is(lv, n-1), free), Set(loc, Int(4)))
		pr.Command("critical", Is(loc, 4), Set(loc, Int(5)))
		pr.Command("exit", Is(loc, 5), Set(level[i], Int(0)), Set(lv, Int(0)), Set(loc, Int(0)))
		pr.Scheduled()
	}
	return p, pairwise(p, 4)
}

// szymanski is the protocol of testdata/szymanski.smv.
func szymanski(n int) (*Program, *Property) {
	p := NewProgram(fmt.Sprintf("szymanski-%d", n))
	flag := make([]*Var, n+1)
	for i := 1; i <= n; i++ {
		flag[i] = p.Int(fmt.Sprintf("flag[%d]", i), 0, 4)
		p.Init(Is(flag[i], 0))
	}
	all := func(pred func(j int) Expr) Expr {
		var es []Expr
		for j := 1; j <= n; j++ {
			es = append(es, pred(j))
		}
		return And(es...)
	}
	some := func(pred func(j int) Expr) Expr {
		var es []Expr
		for j := 1; j <= n; j++ {
			es = append(es, pred(j))
		}
		return Or(es...)
	}
	for i := 1; i <= n; i++ {
		pr := p.Process(fmt.Sprintf("P[%d]", i))
		pr.SetTemplate("szymanski")
		loc := pr.Int("loc", 0, 11)
		pr.Init(Is(loc, 0))
		pr.Command("noncritical", Is(loc, 0), Set(loc, OneOf(Int(0), Int(1))))
		pr.Command("intent", Is(loc, 1), Set(flag[i], Int(1)), Set(loc, Int(2)))
		pr.Command("waitopen", And(Is(loc, 2), all(func(j int) Expr { return Lt(Ref(flag[j]), Int(3)) })), Set(loc, Int(3)))
		pr.Command("enter", Is(loc, 3), Set(flag[i], Int(3)), Set(loc, Int(4)))
		pr.Command("check", Is(loc, 4), Set(loc, Ite(some(func(j int) Expr { return Is(flag[j], 1) }), Int(5), Int(7))))
		pr.Command("wait", Is(loc, 5), Set(flag[i], Int(2)), Set(loc, Int(6)))
		pr.Command("waitclosed", And(Is(loc, 6), some(func(j int) Expr { return Is(flag[j], 4) })), Set(loc, Int(7)))
		pr.Command("close", Is(loc, 7), Set(flag[i], Int(4)), Set(loc, Int(8)))
		pr.Command("waitlower", And(Is(loc, 8), all(func(j int) Expr { return Or(Bool(j >= i), Lt(Ref(flag[j]), Int(2))) })), Set(loc, Int(9)))
		pr.Command("critical", Is(loc, 9), Set(loc, Int(10)))
		pr.Command("waithigher", And(Is(loc, 10), all(func(j int) Expr {
			return Or(Bool(j <= i), Lt(Ref(flag[j]), Int(2)), Gt(Ref(flag[j]), Int(3)))
		})), Set(loc, Int(11)))
		pr.Command("exit", Is(loc, 11), Set(flag[i], Int(0)), Set(loc, Int(0)))
		pr.Scheduled()
	}
	return p, pairwise(p, 9)
}

// bakery is the bounded bakery of testdata/bakery.smv.
func bakery(n int) (*Program, *Property, *Property) {
	b := n + 1
	p := NewProgram(fmt.Sprintf("bakery-%d", n))
	number := make([]*Var, n+1)
	for i := 1; i <= n; i++ {
		number[i] = p.Int(fmt.Sprintf("number[%d]", i), 0, b)
		p.Init(Is(number[i], 0))
	}
	for i := 1; i <= n; i++ {
		pr := p.Process(fmt.Sprintf("P[%d]", i))
		pr.SetTemplate("customer")
		loc := pr.Int("loc", 0, 4)
		j := pr.Int("j", 1, n)
		pr.Init(And(Is(loc, 0), Is(j, 1)))
		pr.Command("noncritical", Is(loc, 0), Set(loc, OneOf(Int(0), Int(1))))
		for v := 1; v <= b; v++ {
			var below, prev []Expr
			for k := 1; k <= n; k++ {
				below = append(below, Lt(Ref(number[k]), Int(v)))
				prev = append(prev, Is(number[k], v-1))
			}
			g := And(Is(loc, 1), And(below...), Or(Bool(v == 1), Or(prev...)))
			pr.Command(fmt.Sprintf("doorway[%d]", v), g, Set(number[i], Int(v)), Set(j, Int(1)), Set(loc, Int(2)))
		}
		// number[j] for the variable j.
		var nj Expr = Ref(number[n])
		for k := n - 1; k >= 1; k-- {
			nj = Ite(Is(j, k), Ref(number[k]), nj)
		}
		mine := Ref(number[i])
		ok := Or(Is(j, i), Eq(nj, Int(0)), Lt(mine, nj), And(Eq(mine, nj), Lt(Int(i), Ref(j))))
		pr.Command("wait", And(Is(loc, 2), ok),
			Set(j, Ite(Lt(Ref(j), Int(n)), Add(Ref(j), Int(1)), Ref(j))),
			Set(loc, Ite(Lt(Ref(j), Int(n)), Int(2), Int(3))))
		pr.Command("critical", Is(loc, 3), Set(loc, Int(4)))
		pr.Command("exit", Is(loc, 4), Set(number[i], Int(0)), Set(loc, Int(0)))
		pr.Scheduled()
		var open []Expr
		for k := 1; k <= n; k++ {
			open = append(open, Lt(Ref(number[k]), Int(b)))
		}
		pr.Compassion(And(Is(loc, 1), And(open...)), Is(loc, 2))
	}
	l1 := procLoc(p, 0)
	return p, pairwise(p, 3), ltlResponse("nostarvation", Is(l1, 1), Is(l1, 3))
}

// german is the regrouped German protocol of testdata/german.smv.
func german(n int) (*Program, *Property) {
	const (
		cI, cS, cE        = 0, 1, 2
		empty, reqS, reqE = 0, 1, 2
		inv, gntS, gntE   = 1, 2, 3
		invAck            = 1
	)
	p := NewProgram(fmt.Sprintf("german-%d", n))
	var conj []Expr
	for i := 1; i <= n; i++ {
		pr := p.Process(fmt.Sprintf("Q[%d]", i))
		pr.SetTemplate("line")
		arr := func(name string, mk func(string) *Var) []*Var {
			vs := make([]*Var, n+1)
			for c := 1; c <= n; c++ {
				vs[c] = mk(fmt.Sprintf("%s[%d]", name, c))
			}
			return vs
		}
		cache := arr("cache", func(s string) *Var { return pr.Enum(s, "I", "S", "E") })
		chan1 := arr("chan1", func(s string) *Var { return pr.Enum(s, "Empty", "ReqS", "ReqE") })
		chan2 := arr("chan2", func(s string) *Var { return pr.Enum(s, "Empty", "Inv", "GntS", "GntE") })
		chan3 := arr("chan3", func(s string) *Var { return pr.Enum(s, "Empty", "InvAck") })
		shr := arr("shr_set", func(s string) *Var { return pr.Bool(s) })
		invSet := arr("inv_set", func(s string) *Var { return pr.Bool(s) })
		cmd := pr.Enum("cur_cmd", "Empty", "ReqS", "ReqE")
		ptr := pr.Int("cur_ptr", 1, n)
		ex := pr.Bool("ex_gntd")
		var init []Expr
		for c := 1; c <= n; c++ {
			init = append(init, Is(cache[c], cI), Is(chan1[c], empty), Is(chan2[c], empty), Is(chan3[c], empty), Not(Ref(shr[c])), Not(Ref(invSet[c])))
		}
		pr.Init(And(append(init, Is(cmd, empty), Is(ptr, 1), Not(Ref(ex)))...))
		copyInv := func() []Update {
			var us []Update
			for k := 1; k <= n; k++ {
				us = append(us, Set(invSet[k], Ref(shr[k])))
			}
			return us
		}
		noShr := func() Expr {
			var es []Expr
			for k := 1; k <= n; k++ {
				es = append(es, Not(Ref(shr[k])))
			}
			return And(es...)
		}
		for c := 1; c <= n; c++ {
			pr.Command(fmt.Sprintf("send_req_s[%d]", c), And(Is(chan1[c], empty), Is(cache[c], cI)), Set(chan1[c], Int(reqS)))
			pr.Command(fmt.Sprintf("send_req_e[%d]", c), And(Is(chan1[c], empty), Or(Is(cache[c], cI), Is(cache[c], cS))), Set(chan1[c], Int(reqE)))
			pr.Command(fmt.Sprintf("recv_req_s[%d]", c), And(Is(cmd, empty), Is(chan1[c], reqS)),
				append([]Update{Set(cmd, Int(reqS)), Set(ptr, Int(c)), Set(chan1[c], Int(empty))}, copyInv()...)...)
			pr.Command(fmt.Sprintf("recv_req_e[%d]", c), And(Is(cmd, empty), Is(chan1[c], reqE)),
				append([]Update{Set(cmd, Int(reqE)), Set(ptr, Int(c)), Set(chan1[c], Int(empty))}, copyInv()...)...)
			pr.Command(fmt.Sprintf("send_inv[%d]", c), And(Is(chan2[c], empty), Ref(invSet[c]), Or(Is(cmd, reqE), And(Is(cmd, reqS), Ref(ex)))),
				Set(chan2[c], Int(inv)), Set(invSet[c], False()))
			pr.Command(fmt.Sprintf("send_inv_ack[%d]", c), And(Is(chan2[c], inv), Is(chan3[c], empty)),
				Set(chan2[c], Int(empty)), Set(chan3[c], Int(invAck)), Set(cache[c], Int(cI)))
			pr.Command(fmt.Sprintf("recv_inv_ack[%d]", c), And(Is(chan3[c], invAck), Not(Is(cmd, empty))),
				Set(chan3[c], Int(empty)), Set(shr[c], False()), Set(ex, False()))
			pr.Command(fmt.Sprintf("send_gnt_s[%d]", c), And(Is(cmd, reqS), Is(ptr, c), Is(chan2[c], empty), Not(Ref(ex))),
				Set(chan2[c], Int(gntS)), Set(shr[c], True()), Set(cmd, Int(empty)))
			pr.Command(fmt.Sprintf("send_gnt_e[%d]", c), And(Is(cmd, reqE), Is(ptr, c), Is(chan2[c], empty), Not(Ref(ex)), noShr()),
				Set(chan2[c], Int(gntE)), Set(shr[c], True()), Set(ex, True()), Set(cmd, Int(empty)))
			pr.Command(fmt.Sprintf("recv_gnt_s[%d]", c), Is(chan2[c], gntS), Set(cache[c], Int(cS)), Set(chan2[c], Int(empty)))
			pr.Command(fmt.Sprintf("recv_gnt_e[%d]", c), Is(chan2[c], gntE), Set(cache[c], Int(cE)), Set(chan2[c], Int(empty)))
		}
		pr.Scheduled()
		for a := 1; a <= n; a++ {
			for b := 1; b <= n; b++ {
				if a != b {
					conj = append(conj, Not(And(Is(cache[a], cE), Not(Is(cache[b], cI)))))
				}
			}
		}
	}
	return p, NewInvariant("coherence", And(conj...))
}
