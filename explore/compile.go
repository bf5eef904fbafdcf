package explore

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// fnCode is the compiled form of one SSA function (or a trampoline the
// interpreter builds itself). Compilation is lazy: code is built on the
// first call.
type fnCode struct {
	fn      *ssa.Function // nil for trampolines
	name    string
	nparams int
	nregs   int
	// tmpl holds the initial register contents: constants, addresses of
	// globals, function values; zero elsewhere. len(tmpl) == nregs.
	tmpl   []Value
	code   []instrFn
	instrs []ssa.Instruction // parallel to code, for positions and reports
	// recoverPC is the start of the Recover block, or -1.
	recoverPC  int
	zeroResult Value
	intr       intrinsic // non-nil: the function is modelled natively
	compiled   bool
	self       *closure // the function as a value (no free variables)
	// event marks functions whose calls and returns the observer sees.
	event bool
}

// code returns the (possibly not yet compiled) code of fn.
func (m *machine) code(fn *ssa.Function) *fnCode {
	if fc, ok := m.fns[fn]; ok {
		return fc
	}
	fc := &fnCode{fn: fn, name: fn.String(), nparams: len(fn.Params) + len(fn.FreeVars), recoverPC: -1}
	fc.self = &closure{fn: fc}
	m.fns[fn] = fc
	if intr := m.lookupIntrinsic(fn); intr != nil {
		fc.intr = m.symbolicArgs(fn, intr)
		fc.compiled = true
	}
	if m.opts != nil && m.opts.observer != nil && m.opts.observer.CallEvents(fn) {
		fc.event = true
	}
	return fc
}

// compile builds fc's code. Functions without a body (assembly, opaque
// standard packages) compile to an "unsupported" stub.
func (m *machine) compile(fc *fnCode) {
	fc.compiled = true
	fn := fc.fn
	if fn == nil {
		return
	}
	if _, broken := m.broken[fn.Pkg]; broken && fn.Pkg != nil {
		m.stubBroken(fc)
		return
	}
	if what, ok := m.replaced(fn.Pkg); ok {
		m.stubUnsupported(fc, fmt.Sprintf("call of %s: package %s is modelled (%s)", fn, fn.Pkg.Pkg.Path(), what))
		return
	}
	if alt := m.pureGoFallback(fn); alt != nil {
		// the assembly function runs as its pure-Go version
		fc.fn, fc.name = alt, alt.String()
		fc.nparams = len(alt.Params) + len(alt.FreeVars)
		fn = alt
	}
	if len(fn.Blocks) == 0 {
		// Params are only built with a body: count the signature's.
		n := fn.Signature.Params().Len() + len(fn.FreeVars)
		if fn.Signature.Recv() != nil {
			n++
		}
		fc.nparams = n
		fc.nregs = n
		fc.tmpl = make([]Value, fc.nregs)
		msg := m.noBodyMessage(fn)
		fc.code = []instrFn{func(fr *frame) ctrl {
			return fr.g.unsupported(fr.g.callerPos(), "%s", msg)
		}}
		fc.instrs = []ssa.Instruction{nil}
		return
	}
	c := &compiler{m: m, fn: fn, fc: fc, slots: map[ssa.Value]int{}}
	c.run()
}

// pureGoFallback returns the pure-Go version of fn, a function without a
// body (assembly) of an interpreted standard package, or nil: the
// function of the same package named fn's name followed by "_g" (math/big's
// convention for its arithmetic kernels: addVV and addVV_g), with a body
// and an identical signature. The two compute the same results, so running
// the fallback is exact.
func (m *machine) pureGoFallback(fn *ssa.Function) *ssa.Function {
	if len(fn.Blocks) != 0 || fn.Pkg == nil || fn.Synthetic != "" || fn.Signature.Recv() != nil ||
		!isInterpretedStd(fn.Pkg.Pkg.Path()) {
		return nil
	}
	alt := fn.Pkg.Func(fn.Name() + "_g")
	if alt == nil || len(alt.Blocks) == 0 || !types.Identical(alt.Signature, fn.Signature) {
		return nil
	}
	return alt
}

func (m *machine) noBodyMessage(fn *ssa.Function) string {
	name := fn.String()
	if fn.Pkg != nil && !m.prog.isInterpreted(fn.Pkg.Pkg) {
		kind := "standard package"
		if m.prog.libraries[fn.Pkg.Pkg] {
			kind = "package (a library of the explorer's own, reached only through it)"
		}
		return fmt.Sprintf("call of %s: the %s %q is not interpreted and this function is not modelled", name, kind, fn.Pkg.Pkg.Path())
	}
	if fn.Synthetic != "" {
		return fmt.Sprintf("call of %s (%s) without a body", name, fn.Synthetic)
	}
	return fmt.Sprintf("call of %s: function has no Go body (assembly or linkname)", name)
}

type compiler struct {
	m     *machine
	fn    *ssa.Function
	fc    *fnCode
	slots map[ssa.Value]int
	tmpl  []Value
	// blockStart[i] is the pc of block i's first instruction.
	blockStart []int
	// fixups patch jump targets once all blocks are laid out.
	fixups []func()
}

func (c *compiler) newSlot() int {
	c.tmpl = append(c.tmpl, Value{})
	return len(c.tmpl) - 1
}

// def returns the register of a value-producing instruction.
func (c *compiler) def(v ssa.Value) int {
	if s, ok := c.slots[v]; ok {
		return s
	}
	s := c.newSlot()
	c.slots[v] = s
	return s
}

// use returns the register holding operand v, materializing constants,
// globals and functions into the template.
func (c *compiler) use(v ssa.Value) int {
	if s, ok := c.slots[v]; ok {
		return s
	}
	s := c.newSlot()
	c.slots[v] = s
	switch v := v.(type) {
	case *ssa.Const:
		c.tmpl[s] = c.m.constValue(v)
	case *ssa.Global:
		o := c.m.global(v)
		c.tmpl[s] = ptrV(o, 0)
	case *ssa.Function:
		c.tmpl[s] = funcV(c.m.code(v).self)
	case *ssa.Builtin:
		// only used as a callee; no value
	}
	return s
}

func (c *compiler) run() {
	fn, fc := c.fn, c.fc
	for _, p := range fn.Params {
		c.def(p)
	}
	for _, fv := range fn.FreeVars {
		c.def(fv)
	}
	// Lay out blocks in order, skipping phis and debug refs.
	var code []instrFn
	var instrs []ssa.Instruction
	c.blockStart = make([]int, len(fn.Blocks))
	for _, b := range fn.Blocks {
		c.blockStart[b.Index] = len(code)
		for _, ins := range b.Instrs {
			switch ins.(type) {
			case *ssa.Phi, *ssa.DebugRef:
				continue
			}
			if v, ok := ins.(ssa.Value); ok {
				c.def(v)
			}
		}
		for _, ins := range b.Instrs {
			switch ins.(type) {
			case *ssa.Phi, *ssa.DebugRef:
				continue
			}
			code = append(code, nil)
			instrs = append(instrs, ins)
		}
	}
	// Phis get registers before compilation of edges.
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			if phi, ok := ins.(*ssa.Phi); ok {
				c.def(phi)
			}
		}
	}
	pc := 0
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			switch ins.(type) {
			case *ssa.Phi, *ssa.DebugRef:
				continue
			}
			code[pc] = c.withStmtEvent(ins, c.safeInstr(ins))
			pc++
		}
	}
	for _, f := range c.fixups {
		f()
	}
	if fn.Recover != nil {
		fc.recoverPC = c.blockStart[fn.Recover.Index]
	}
	fc.code = code
	fc.instrs = instrs
	fc.nregs = len(c.tmpl)
	fc.tmpl = c.tmpl
	if res := fn.Signature.Results(); res.Len() == 1 {
		fc.zeroResult = c.m.rtypeOf(res.At(0).Type()).zero
	} else if res.Len() > 1 {
		vs := make([]Value, res.Len())
		for i := range vs {
			vs[i] = c.m.rtypeOf(res.At(i).Type()).zero
		}
		fc.zeroResult = tupleV(vs...)
	}
}

// safeInstr compiles ins, turning compile-time "unsupported" into a
// runtime finding at the instruction.
func (c *compiler) safeInstr(ins ssa.Instruction) (f instrFn) {
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unsupportedErr)
			if !ok {
				panic(r)
			}
			pos := ins.Pos()
			if !pos.IsValid() {
				pos = c.fn.Pos()
			}
			f = func(fr *frame) ctrl { return fr.g.unsupported(pos, "%s", u.msg) }
		}
	}()
	var ops [8]*ssa.Value
	for _, op := range ins.Operands(ops[:0]) {
		if g, ok := (*op).(*ssa.Global); ok && c.m.globalUnsupported(g) {
			unsupportedf("use of %s: package %q is not interpreted and the variable is not modelled", g.String(), g.Pkg.Pkg.Path())
		}
	}
	return c.symbolicInstr(ins, c.instr(ins))
}

// unsupportedErr aborts compilation of one instruction.
type unsupportedErr struct{ msg string }

func unsupportedf(format string, args ...any) {
	panic(unsupportedErr{fmt.Sprintf(format, args...)})
}

func (c *compiler) instr(ins ssa.Instruction) instrFn {
	switch ins := ins.(type) {
	case *ssa.Alloc:
		return c.alloc(ins)
	case *ssa.BinOp:
		return c.binop(ins)
	case *ssa.UnOp:
		return c.unop(ins)
	case *ssa.Call:
		return c.call(ins)
	case *ssa.ChangeType:
		return c.move(ins, ins.X)
	case *ssa.ChangeInterface:
		return c.move(ins, ins.X)
	case *ssa.Convert:
		return c.convert(ins)
	case *ssa.MultiConvert:
		unsupportedf("conversion involving type parameters (%s)", ins)
	case *ssa.SliceToArrayPointer:
		return c.sliceToArrayPointer(ins)
	case *ssa.MakeInterface:
		return c.makeInterface(ins)
	case *ssa.MakeClosure:
		return c.makeClosure(ins)
	case *ssa.MakeMap:
		return c.makeMap(ins)
	case *ssa.MakeChan:
		return c.makeChan(ins)
	case *ssa.MakeSlice:
		return c.makeSlice(ins)
	case *ssa.Slice:
		return c.slice(ins)
	case *ssa.FieldAddr:
		return c.fieldAddr(ins)
	case *ssa.Field:
		return c.field(ins)
	case *ssa.IndexAddr:
		return c.indexAddr(ins)
	case *ssa.Index:
		return c.index(ins)
	case *ssa.Lookup:
		return c.lookup(ins)
	case *ssa.Select:
		return c.selectInstr(ins)
	case *ssa.Range:
		return c.rangeInstr(ins)
	case *ssa.Next:
		return c.next(ins)
	case *ssa.TypeAssert:
		return c.typeAssert(ins)
	case *ssa.Extract:
		d, t, i := c.def(ins), c.use(ins.Tuple), ins.Index
		return func(fr *frame) ctrl {
			r := fr.regs
			r[d] = r[t].obj().cells[i]
			return ctrlNext
		}
	case *ssa.Jump:
		return c.jump(ins.Block(), ins.Block().Succs[0])
	case *ssa.If:
		return c.ifInstr(ins)
	case *ssa.Return:
		return c.ret(ins)
	case *ssa.RunDefers:
		return c.runDefers(ins)
	case *ssa.Panic:
		x := c.use(ins.X)
		return func(fr *frame) ctrl {
			v := fr.regs[x]
			if v.isNil() {
				// panic(nil) is a *runtime.PanicNilError since Go 1.21.
				return fr.g.throw(fr.g.x.m.panicNilValue())
			}
			return fr.g.throw(v)
		}
	case *ssa.Go:
		return c.goInstr(ins)
	case *ssa.Defer:
		return c.deferInstr(ins)
	case *ssa.Send:
		return c.send(ins)
	case *ssa.Store:
		return c.store(ins)
	case *ssa.MapUpdate:
		return c.mapUpdate(ins)
	}
	unsupportedf("SSA instruction %T (%s)", ins, ins)
	return nil
}

// move copies a value unchanged (representation-preserving conversions).
func (c *compiler) move(dst, src ssa.Value) instrFn {
	d, s := c.def(dst), c.use(src)
	return func(fr *frame) ctrl {
		fr.regs[d] = fr.regs[s]
		return ctrlNext
	}
}

// edge returns the register moves for the phis of succ entered from pred.
func (c *compiler) edgeMoves(pred, succ *ssa.BasicBlock) (dsts, srcs []int) {
	idx := -1
	for i, p := range succ.Preds {
		if p == pred {
			idx = i
			break
		}
	}
	for _, ins := range succ.Instrs {
		phi, ok := ins.(*ssa.Phi)
		if !ok {
			break
		}
		dsts = append(dsts, c.def(phi))
		srcs = append(srcs, c.use(phi.Edges[idx]))
	}
	return
}

// edgeFn returns a function performing the phi moves of an edge (nil if
// there are none) using parallel-assignment semantics.
func edgeFn(dsts, srcs []int) func(r []Value) {
	switch len(dsts) {
	case 0:
		return nil
	case 1:
		d, s := dsts[0], srcs[0]
		return func(r []Value) { r[d] = r[s] }
	}
	overlap := false
	for _, s := range srcs {
		for _, d := range dsts {
			if s == d {
				overlap = true
			}
		}
	}
	if !overlap {
		return func(r []Value) {
			for i, d := range dsts {
				r[d] = r[srcs[i]]
			}
		}
	}
	n := len(dsts)
	return func(r []Value) {
		var buf [8]Value
		tmp := buf[:0]
		if n > len(buf) {
			tmp = make([]Value, 0, n)
		}
		for _, s := range srcs {
			tmp = append(tmp, r[s])
		}
		for i, d := range dsts {
			r[d] = tmp[i]
		}
	}
}

func (c *compiler) jump(from, to *ssa.BasicBlock) instrFn {
	moves := edgeFn(c.edgeMoves(from, to))
	var target int
	c.fixups = append(c.fixups, func() { target = c.blockStart[to.Index] })
	back := to.Index <= from.Index
	switch {
	case moves == nil && !back:
		return func(fr *frame) ctrl { fr.pc = target; return ctrlNext }
	case moves == nil:
		return func(fr *frame) ctrl {
			fr.pc = target
			return fr.g.x.backEdge(fr)
		}
	case !back:
		return func(fr *frame) ctrl {
			moves(fr.regs)
			fr.pc = target
			return ctrlNext
		}
	}
	return func(fr *frame) ctrl {
		moves(fr.regs)
		fr.pc = target
		return fr.g.x.backEdge(fr)
	}
}

func (c *compiler) ifInstr(ins *ssa.If) instrFn {
	b := ins.Block()
	cond := c.use(ins.Cond)
	tm := edgeFn(c.edgeMoves(b, b.Succs[0]))
	fm := edgeFn(c.edgeMoves(b, b.Succs[1]))
	var tt, ft int
	c.fixups = append(c.fixups, func() {
		tt = c.blockStart[b.Succs[0].Index]
		ft = c.blockStart[b.Succs[1].Index]
	})
	back := b.Succs[0].Index <= b.Index || b.Succs[1].Index <= b.Index
	// Symbolic conditions exist only with symbolic inputs; otherwise the
	// fast path does not check for them.
	branch := c.m.symbolicMode()
	if tm == nil && fm == nil && !back && !branch {
		return func(fr *frame) ctrl {
			if fr.regs[cond].a != 0 {
				fr.pc = tt
			} else {
				fr.pc = ft
			}
			return ctrlNext
		}
	}
	return func(fr *frame) ctrl {
		v := fr.regs[cond]
		if v.p != nil {
			// A symbolic condition: the solver decides (and may fork).
			taken, cc := fr.g.x.branch(fr, ins, v)
			if cc != ctrlNext {
				return cc
			}
			v.a = 0
			if taken {
				v.a = 1
			}
		}
		if v.a != 0 {
			if tm != nil {
				tm(fr.regs)
			}
			fr.pc = tt
		} else {
			if fm != nil {
				fm(fr.regs)
			}
			fr.pc = ft
		}
		if back {
			return fr.g.x.backEdge(fr)
		}
		return ctrlNext
	}
}

func (c *compiler) ret(ins *ssa.Return) instrFn {
	f := c.retInner(ins)
	if !c.fc.event {
		return f
	}
	fn, pos := c.fn, ins.Pos()
	return func(fr *frame) ctrl {
		if cc := fr.g.returnEvent(fn, pos); cc != ctrlNext {
			return cc
		}
		return f(fr)
	}
}

func (c *compiler) retInner(ins *ssa.Return) instrFn {
	switch len(ins.Results) {
	case 0:
		return func(fr *frame) ctrl { return fr.g.ret(Value{}) }
	case 1:
		s := c.use(ins.Results[0])
		return func(fr *frame) ctrl { return fr.g.ret(fr.regs[s]) }
	}
	srcs := make([]int, len(ins.Results))
	for i, r := range ins.Results {
		srcs[i] = c.use(r)
	}
	return func(fr *frame) ctrl {
		vs := make([]Value, len(srcs))
		for i, s := range srcs {
			vs[i] = fr.regs[s]
		}
		return fr.g.ret(tupleV(vs...))
	}
}

func (c *compiler) runDefers(ins *ssa.RunDefers) instrFn { return runDefersInstr }

// runDefersInstr runs the frame's deferred calls, last first. It stays at
// the same pc until none remain.
func runDefersInstr(fr *frame) ctrl {
	n := len(fr.defers)
	if n == 0 {
		return ctrlNext
	}
	fr.pc-- // come back here until all defers ran
	cc := fr.g.stepDefer(fr)
	if cc == ctrlYield {
		fr.pc++ // the run loop resets pc to this instruction
	}
	return cc
}

// constValue converts an SSA constant of any type to a Value.
func (m *machine) constValue(k *ssa.Const) Value {
	rt := m.rtypeOf(k.Type())
	if k.Value == nil {
		return rt.zero
	}
	return m.constOf(rt, k.Value)
}

func (m *machine) constOf(rt *rtype, v constant.Value) Value {
	// In instantiated generic code, T(byte(0)) with T = string is an
	// integer constant of string type (a rune conversion).
	if v.Kind() == constant.Int && rt.kind == kString {
		r, _ := constant.Int64Val(v)
		return strV(string(rune(r)))
	}
	// Zero values of type-parameter-derived types may be represented as
	// an integer 0 whatever the type.
	if v.Kind() == constant.Int && constant.Sign(v) == 0 && !rt.kind.isInteger() && !rt.kind.isFloat() && !rt.kind.isComplex() {
		return rt.zero
	}
	if v.Kind() == constant.Bool && rt.kind != kBool || v.Kind() == constant.String && rt.kind != kString && rt.kind != kSlice {
		unsupportedf("constant %s of type %s", v, rt)
	}
	switch rt.kind {
	case kBool:
		return boolV(constant.BoolVal(v))
	case kString:
		return strV(constant.StringVal(v))
	case kFloat32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return floatV(float64(f))
	case kFloat64:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return floatV(f)
	case kComplex64, kComplex128:
		cv := constant.ToComplex(v)
		re, _ := constant.Float64Val(constant.Real(cv))
		im, _ := constant.Float64Val(constant.Imag(cv))
		if rt.kind == kComplex64 {
			re, im = float64(float32(re)), float64(float32(im))
		}
		return complexV(complex(re, im))
	case kIface:
		// An untyped constant converted to an interface is folded by
		// the SSA builder into MakeInterface; a Const of interface type
		// is nil.
		return Value{}
	case kSlice:
		// T("") for T = []byte in generic code: an empty, non-nil slice
		// (no cells, so sharing it is safe).
		if v.Kind() == constant.String && constant.StringVal(v) == "" {
			return sliceV(newObject(0), 0, 0, 0)
		}
	}
	if rt.kind.isInteger() {
		iv := constant.ToInt(v)
		if rt.kind.isSigned() {
			x, _ := constant.Int64Val(iv)
			return intV(x)
		}
		x, _ := constant.Uint64Val(iv)
		return uintV(x)
	}
	unsupportedf("constant %s of type %s", v, rt)
	return Value{}
}

// callerPos is the position of the call site that entered the top frame.
func (g *goroutine) callerPos() token.Pos {
	if g.depth >= 2 {
		return g.frames[g.depth-2].pos()
	}
	if g.top != nil {
		return g.top.pos()
	}
	return token.NoPos
}

// funcName returns the name of a function as Go's runtime prints it
// (runtime.FuncForPC, CallersFrames, tracebacks): its package's import
// path as the linker escapes it, then "F", "(*T).M" or "T.M", "F.func1"
// for a closure and "F.func1.2" for one nested in it, "G[...]" and
// "(*U[...]).M" for an instance of a generic function or type, and
// "(*T).M-fm" for a method value's wrapper.
func funcName(fn *ssa.Function) string {
	if fn == nil {
		return "?"
	}
	var suffix []string // closure indices, outermost first
	for p := fn.Parent(); p != nil; fn, p = p, p.Parent() {
		for i, a := range p.AnonFuncs {
			if a == fn || a == fn.Origin() {
				suffix = append([]string{strconv.Itoa(i + 1)}, suffix...)
				break
			}
		}
	}
	name := declName(fn)
	if len(suffix) > 0 {
		name += ".func" + strings.Join(suffix, ".")
	}
	return name
}

// declName is funcName of a function that is not a closure.
func declName(fn *ssa.Function) string {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return runtimeName(fn.String()) // a synthetic function of no package
	}
	name := obj.Name()
	if obj.Signature().TypeParams().Len() > 0 {
		name += "[...]"
	}
	// The receiver: a wrapper's own (a pointer wrapper of a value method
	// is "(*T).M"), else the method's (a thunk's or a bound wrapper's
	// signature has none).
	recv := fn.Signature.Recv()
	if recv == nil || strings.HasSuffix(fn.Name(), "$thunk") {
		recv = obj.Signature().Recv()
	}
	if recv != nil {
		t, ptr := recv.Type(), false
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t, ptr = p.Elem(), true
		}
		r := "?"
		if n, ok := types.Unalias(t).(*types.Named); ok {
			r = n.Obj().Name()
			if n.TypeParams().Len() > 0 || n.TypeArgs().Len() > 0 {
				r += "[...]"
			}
		} else if _, ok := t.(*types.Interface); ok {
			r = "interface"
		}
		if ptr {
			r = "(*" + r + ")"
		}
		name = r + "." + name
	}
	if strings.HasSuffix(fn.Name(), "$bound") {
		name += "-fm"
	}
	return escapePath(obj.Pkg().Path()) + "." + name
}

// escapePath escapes an import path as the linker does in symbol names
// (and so in what runtime.FuncForPC reports): control bytes, space, '%',
// '"' and non-ASCII bytes anywhere, and the dots of the last element,
// become "%xx". unescapeSymbol undoes it.
func escapePath(path string) string {
	slash := strings.LastIndex(path, "/")
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c <= ' ' || c == '%' || c == '"' || c >= 0x7f || c == '.' && i > slash {
			fmt.Fprintf(&b, "%%%02x", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// shortFuncName names fn for trace tables and for the goroutine names of
// scenario formulas: SSA's form qualified by the package name only
// ("(*pkg.T).M", "pkg.F.func1"), unlike funcName, which prints Go's
// runtime names ("path/pkg.(*T).M") for stacks.
func shortFuncName(fn *ssa.Function) string {
	if fn == nil {
		return "?"
	}
	name := fn.String()
	if fn.Pkg != nil {
		name = strings.ReplaceAll(name, fn.Pkg.Pkg.Path()+".", fn.Pkg.Pkg.Name()+".")
	}
	return runtimeName(name)
}

// runtimeName rewrites SSA closure names to the runtime's: F$1$2 becomes
// F.func1.2, a bound method value wrapper M$bound becomes M-fm.
func runtimeName(name string) string {
	name = strings.ReplaceAll(name, "$bound", "-fm")
	name = strings.ReplaceAll(name, "$thunk", "")
	if i := strings.Index(name, "$"); i >= 0 {
		rest := strings.Split(name[i+1:], "$")
		name = name[:i] + ".func" + strings.Join(rest, ".")
	}
	return name
}
