package synth

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/henceforth-go/henceforth/internal/fds"
)

// WriteSlugsin prints spec in Slugs' low-level format, so that other tools
// can run the same input. Integer variables become bits named as Slugs'
// compiler names them (x@0.lo.hi, x@1, …, offset binary), with their range
// constraints added to the INIT and TRANS sections of their owner; clauses
// that use integers are printed through their BDD as a memory buffer
// ($ N … ? i). Implication semantics, which .slugsin cannot state, is
// written as the game of the thesis's Theorem 3.5, with two extra outputs
// sf_e and sf_s.
func WriteSlugsin(w io.Writer, spec *Spec) error {
	if err := spec.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	sw := &slugsinWriter{spec: spec, w: bw}
	if err := sw.write(); err != nil {
		return err
	}
	return bw.Flush()
}

type slugsinWriter struct {
	spec *Spec
	w    *bufio.Writer
	g    *game // compiled lazily, for clauses with integers
}

func (sw *slugsinWriter) write() error {
	spec := sw.spec
	sections := [numSections][]string{}
	for _, c := range spec.Clauses {
		f, err := sw.formula(c.Expr)
		if err != nil {
			return err
		}
		sections[c.Section] = append(sections[c.Section], f)
	}
	// Range constraints of integer variables.
	for _, group := range []struct {
		vars       []Var
		init, tran Section
	}{{spec.Inputs, EnvInit, EnvTrans}, {spec.Outputs, SysInit, SysTrans}} {
		for _, v := range group.vars {
			if v.Bool || rangeFull(v) {
				continue
			}
			cur, err := sw.rangeFormula(v, false)
			if err != nil {
				return err
			}
			next, err := sw.rangeFormula(v, true)
			if err != nil {
				return err
			}
			sections[group.init] = append(sections[group.init], cur)
			sections[group.tran] = append(sections[group.tran], next)
		}
	}
	outputs := bitNames(spec.Outputs)
	if spec.Semantics == Implication {
		// Theorem 3.5: sf_e and sf_s record whether each side's initial and
		// safety parts still hold.
		sfe, sfs := freshName(spec, "sf_e"), freshName(spec, "sf_s")
		outputs = append(outputs, sfe, sfs)
		conj := func(fs []string) string {
			if len(fs) == 0 {
				return "1"
			}
			out := fs[len(fs)-1]
			for i := len(fs) - 2; i >= 0; i-- {
				out = "& " + fs[i] + " " + out
			}
			return out
		}
		sysInit := []string{
			"! ^ " + sfe + " " + conj(sections[EnvInit]),
			"! ^ " + sfs + " " + conj(sections[SysInit]),
		}
		sysTrans := []string{
			"! ^ " + sfe + "' & " + sfe + " " + conj(sections[EnvTrans]),
			"! ^ " + sfs + "' & " + sfs + " " + conj(sections[SysTrans]),
		}
		sections[EnvInit], sections[EnvTrans] = nil, nil
		sections[SysInit], sections[SysTrans] = sysInit, sysTrans
		sections[EnvLiveness] = append([]string{sfe}, sections[EnvLiveness]...)
		sections[SysLiveness] = append([]string{sfs}, sections[SysLiveness]...)
	}
	fmt.Fprintf(sw.w, "# %s, written by henceforth's synth package (%s semantics)\n", spec.Name, spec.Semantics)
	fmt.Fprintf(sw.w, "[INPUT]\n%s\n", strings.Join(bitNames(spec.Inputs), "\n"))
	fmt.Fprintf(sw.w, "\n[OUTPUT]\n%s\n", strings.Join(outputs, "\n"))
	for sec := range numSections {
		if len(sections[sec]) == 0 {
			continue
		}
		fmt.Fprintf(sw.w, "\n[%s]\n%s\n", sec, strings.Join(sections[sec], "\n"))
	}
	return nil
}

func rangeFull(v Var) bool {
	span := v.Hi - v.Lo + 1
	return span&(span-1) == 0 && span > 1
}

// freshName returns base, or base with a numeric suffix, unused in spec.
func freshName(spec *Spec, base string) string {
	name := base
	for k := 2; ; k++ {
		if _, _, used := spec.Var(name); !used {
			return name
		}
		name = fmt.Sprintf("%s_%d", base, k)
	}
}

// bitNames lists the Boolean variables of vars as Slugs names them.
func bitNames(vars []Var) []string {
	var names []string
	for _, v := range vars {
		if v.Bool {
			names = append(names, v.Name)
			continue
		}
		for b := range intWidth(v) {
			names = append(names, bitName(v, b))
		}
	}
	return names
}

func intWidth(v Var) int {
	w := 0
	for span := v.Hi - v.Lo; span > 0; span >>= 1 {
		w++
	}
	return max(w, 1)
}

func bitName(v Var, b int) string {
	if b == 0 {
		return fmt.Sprintf("%s@0.%d.%d", v.Name, v.Lo, v.Hi)
	}
	return fmt.Sprintf("%s@%d", v.Name, b)
}

// formula prints a Boolean expression in prefix notation, through its BDD
// when it uses integers or is a large DAG.
func (sw *slugsinWriter) formula(e *Expr) (string, error) {
	if !usesIntegers(e) && e.treeSize(1<<16) < 1<<16 {
		var b strings.Builder
		writePrefix(&b, e, false)
		return b.String(), nil
	}
	g, err := sw.game()
	if err != nil {
		return "", err
	}
	f, err := g.compile(e, false)
	if err != nil {
		return "", err
	}
	return sw.bddFormula(f), nil
}

func (sw *slugsinWriter) rangeFormula(v Var, next bool) (string, error) {
	g, err := sw.game()
	if err != nil {
		return "", err
	}
	return sw.bddFormula(g.sp.Lookup(v.Name).Dom(next)), nil
}

func (sw *slugsinWriter) game() (*game, error) {
	if sw.g == nil {
		g, err := newGame(sw.spec, nil, newOptions(nil))
		if err != nil {
			return nil, err
		}
		g.memo = map[walkKey]fds.BDD{}
		sw.g = g
	}
	return sw.g, nil
}

func usesIntegers(e *Expr) bool {
	found := false
	e.walk(false, func(x *Expr, _ bool) {
		if x.Op.isComparison() && x.Op != ExprEq && x.Op != ExprNe || x.Op.isInt() {
			found = true
		}
		if (x.Op == ExprEq || x.Op == ExprNe) && !isBoolOperand(x.Args[0]) {
			found = true
		}
	})
	return found
}

// isBoolOperand reports whether an operand of = is syntactically Boolean;
// a variable is resolved by the caller's types, so the conservative answer
// for variables is false (the BDD path handles both).
func isBoolOperand(x *Expr) bool {
	switch x.Op {
	case ExprTrue, ExprFalse, ExprNot, ExprAnd, ExprOr, ExprXor, ExprImp, ExprIff:
		return true
	}
	return false
}

func writePrefix(b *strings.Builder, e *Expr, next bool) {
	switch e.Op {
	case ExprTrue:
		b.WriteString("1")
	case ExprFalse:
		b.WriteString("0")
	case ExprVar:
		b.WriteString(e.Name)
		if next {
			b.WriteString("'")
		}
	case ExprNext:
		writePrefix(b, e.Args[0], true)
	case ExprNot:
		b.WriteString("! ")
		writePrefix(b, e.Args[0], next)
	default:
		op := map[ExprOp]string{ExprAnd: "& ", ExprOr: "| ", ExprXor: "^ ", ExprImp: "| ! ", ExprIff: "! ^ ", ExprEq: "! ^ ", ExprNe: "^ "}[e.Op]
		b.WriteString(op)
		writePrefix(b, e.Args[0], next)
		b.WriteString(" ")
		writePrefix(b, e.Args[1], next)
	}
}

// bddFormula prints a BDD over the spec's bits as a memory buffer: one
// if-then-else per node, children before parents, the root last.
func (sw *slugsinWriter) bddFormula(f fds.BDD) string {
	if f.IsTrue() {
		return "1"
	}
	if f.IsFalse() {
		return "0"
	}
	g := sw.g
	type nodeInfo struct{ level, low, high int }
	nodes := map[int]nodeInfo{}
	root := g.sp.Backend().Walk(f.Node(), func(id, level, low, high int) {
		nodes[id] = nodeInfo{level, low, high}
	})
	index := map[int]int{}
	var entries []string
	ref := func(id int) string {
		switch id {
		case 0:
			return "0"
		case 1:
			return "1"
		}
		return fmt.Sprintf("? %d", index[id])
	}
	var visit func(id int)
	visit = func(id int) {
		if id < 2 {
			return
		}
		if _, done := index[id]; done {
			return
		}
		n := nodes[id]
		visit(n.low)
		visit(n.high)
		v, primed := g.sp.VarAt(n.level)
		bit := 0
		for b, l := range v.Levels(primed) {
			if l == n.level {
				bit = b
			}
		}
		sv, _, _ := sw.spec.Var(v.Name())
		name := v.Name()
		if !sv.Bool {
			name = bitName(sv, bit)
		}
		if primed {
			name += "'"
		}
		index[id] = len(entries)
		entries = append(entries, fmt.Sprintf("| & %s %s & ! %s %s", name, ref(n.high), name, ref(n.low)))
	}
	visit(root)
	return fmt.Sprintf("$ %d %s", len(entries), strings.Join(entries, " "))
}
