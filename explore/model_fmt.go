package explore

import (
	"fmt"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

// The fmt package. It is opaque (it is built on reflect): the model
// reimplements its observable behaviour with a formatter for fmt's verbs
// over interpreter values (printer): verbs, flags, width and precision,
// Error/String/GoString methods (called in the interpreter), %v of
// composites, sorted map keys, and the %!verb(type=value) error forms. Not
// supported: fmt.Formatter (Format methods are ignored) and fmt.State.
// The functions (Sprintf, Fprintf, Errorf…) are intrinsics over the
// formatter (fmtModel, at the end of the file); the fake addresses %p
// prints are the model's per-execution state (fmtState).

type printer struct {
	x   *execution
	g   *goroutine
	buf strings.Builder
	c   ctrl // non-ctrlNext if a method call failed (panic, unsupported)
	// erroring suppresses method calls while printing a bad verb's operand
	erroring bool
	// wrap accepts %w (fmt.Errorf)
	wrap bool
}

type fmtSpec struct {
	plus, minus, sharp, space, zero bool
	// plusV and sharpV are %+v and %#v (fmt clears plus and sharp then).
	plusV, sharpV   bool
	wid, prec       int
	hasWid, hasPrec bool
	verb            rune
}

func (s *fmtSpec) native() string {
	var b strings.Builder
	b.WriteByte('%')
	if s.plus {
		b.WriteByte('+')
	}
	if s.minus {
		b.WriteByte('-')
	}
	if s.sharp {
		b.WriteByte('#')
	}
	if s.space {
		b.WriteByte(' ')
	}
	if s.zero {
		b.WriteByte('0')
	}
	if s.hasWid {
		b.WriteString(strconv.Itoa(s.wid))
	}
	if s.hasPrec {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(s.prec))
	}
	b.WriteRune(s.verb)
	return b.String()
}

// sprint implements fmt.Sprint (ln=false) and fmt.Sprintln (ln=true) of
// interface values.
func (x *execution) sprint(g *goroutine, args []Value, ln bool) (string, ctrl) {
	p := &printer{x: x, g: g}
	prevString := false
	for i, a := range args {
		isString := a.p != nil && a.iface().t.kind == kString
		if ln && i > 0 || !ln && i > 0 && !isString && !prevString {
			p.buf.WriteByte(' ')
		}
		p.printArg(a, &fmtSpec{verb: 'v'})
		prevString = isString
		if p.c != ctrlNext {
			return "", p.c
		}
	}
	if ln {
		p.buf.WriteByte('\n')
	}
	return p.buf.String(), ctrlNext
}

// sprintf implements fmt.Sprintf.
func (x *execution) sprintf(g *goroutine, format string, args []Value) (string, ctrl) {
	return x.formatf(g, format, args, false)
}

// formatf implements Sprintf, and Errorf's formatting when wrap is set
// (%w then prints its operand like %v).
func (x *execution) formatf(g *goroutine, format string, args []Value, wrap bool) (string, ctrl) {
	p := &printer{x: x, g: g, wrap: wrap}
	argNum := 0
	end := len(format)
	for i := 0; i < end; {
		lasti := i
		for i < end && format[i] != '%' {
			i++
		}
		p.buf.WriteString(format[lasti:i])
		if i >= end {
			break
		}
		i++ // skip %
		s := &fmtSpec{}
	flags:
		for ; i < end; i++ {
			switch format[i] {
			case '#':
				s.sharp = true
			case '0':
				s.zero = true
			case '+':
				s.plus = true
			case '-':
				s.minus = true
			case ' ':
				s.space = true
			default:
				break flags
			}
		}
		// argument index
		if i < end && format[i] == '[' {
			j := strings.IndexByte(format[i:], ']')
			if j > 0 {
				if n, err := strconv.Atoi(format[i+1 : i+j]); err == nil && n >= 1 {
					argNum = n - 1
				}
				i += j + 1
			}
		}
		// width
		if i < end && format[i] == '*' {
			i++
			s.wid, s.hasWid, argNum = intFromArg(args, argNum)
			if !s.hasWid {
				p.buf.WriteString("%!(BADWIDTH)")
			}
			if s.wid < 0 {
				s.wid, s.minus, s.zero = -s.wid, true, false
			}
		} else {
			s.wid, s.hasWid, i = parsenum(format, i, end)
		}
		// precision (as fmt: a trailing '.' is a verb)
		if i+1 < end && format[i] == '.' {
			i++
			s.hasPrec = true
			if i < end && format[i] == '*' {
				i++
				s.prec, s.hasPrec, argNum = intFromArg(args, argNum)
				if s.prec < 0 {
					s.prec, s.hasPrec = 0, false
				}
				if !s.hasPrec {
					p.buf.WriteString("%!(BADPREC)")
				}
			} else {
				s.prec, _, i = parsenum(format, i, end)
			}
		}
		if i >= end {
			p.buf.WriteString("%!(NOVERB)")
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		s.verb = verb
		switch {
		case verb == '%':
			p.buf.WriteByte('%')
		case argNum >= len(args):
			fmt.Fprintf(&p.buf, "%%!%c(MISSING)", verb)
		default:
			p.printArg(args[argNum], s)
			argNum++
		}
		if p.c != ctrlNext {
			return "", p.c
		}
	}
	if argNum < len(args) {
		p.buf.WriteString("%!(EXTRA ")
		for i, a := range args[argNum:] {
			if i > 0 {
				p.buf.WriteString(", ")
			}
			if a.p == nil {
				p.buf.WriteString("<nil>")
				continue
			}
			p.buf.WriteString(a.iface().t.String())
			p.buf.WriteByte('=')
			p.printArg(a, &fmtSpec{verb: 'v'})
		}
		p.buf.WriteByte(')')
	}
	return p.buf.String(), p.c
}

// parsenum is fmt's: it gives up (returning end) on numbers over a million.
func parsenum(s string, start, end int) (num int, isnum bool, newi int) {
	for newi = start; newi < end && '0' <= s[newi] && s[newi] <= '9'; newi++ {
		if num > 1e6 || num < -1e6 {
			return 0, false, end
		}
		num = num*10 + int(s[newi]-'0')
		isnum = true
	}
	return
}

// intFromArg is fmt's: the integer operand for a '*' width or precision.
func intFromArg(args []Value, argNum int) (num int, isInt bool, newArgNum int) {
	newArgNum = argNum
	if argNum < len(args) {
		if a := args[argNum]; a.p != nil && a.iface().t.kind.isInteger() {
			it := a.iface()
			if it.t.kind.isSigned() {
				num, isInt = int(it.v.Int()), true
			} else if it.v.a <= 1<<62 {
				num, isInt = int(it.v.a), true
			}
		}
		newArgNum = argNum + 1
		if num > 1e6 || num < -1e6 {
			num, isInt = 0, false
		}
	}
	return
}

// printArg prints an interface-typed argument.
func (p *printer) printArg(a Value, s *fmtSpec) {
	if a.p == nil {
		switch s.verb {
		case 'T', 'v':
			p.pad("<nil>", s)
		default:
			fmt.Fprintf(&p.buf, "%%!%c(<nil>)", s.verb)
		}
		return
	}
	it := a.iface()
	if s.verb == 'v' || s.verb == 'w' {
		if s.plus {
			s.plus, s.plusV = false, true
		}
		if s.sharp {
			s.sharp, s.sharpV = false, true
		}
	}
	if s.verb == 'w' {
		if !p.wrap || !p.x.m.implements(it.t, p.x.m.errorIface) {
			p.badVerbValue(it.t, it.v, s)
			return
		}
		s.verb = 'v'
	}
	switch s.verb {
	case 'T':
		name := it.t.String()
		if s.hasPrec && s.prec < utf8.RuneCountInString(name) {
			name = string([]rune(name)[:s.prec])
		}
		p.pad(name, s)
		return
	case 'p':
		p.fmtPointer(it.t, it.v, s)
		return
	}
	p.printValue(it.t, it.v, s, 0)
}

func (p *printer) pad(str string, s *fmtSpec) {
	if !s.hasWid || utf8.RuneCountInString(str) >= s.wid {
		p.buf.WriteString(str)
		return
	}
	n := s.wid - utf8.RuneCountInString(str)
	switch {
	case s.minus:
		p.buf.WriteString(str)
		p.buf.WriteString(strings.Repeat(" ", n))
	case s.zero:
		p.buf.WriteString(strings.Repeat("0", n))
		p.buf.WriteString(str)
	default:
		p.buf.WriteString(strings.Repeat(" ", n))
		p.buf.WriteString(str)
	}
}

// handleMethods calls Error/String/GoString when fmt would.
func (p *printer) handleMethods(t *rtype, v Value, s *fmtSpec) bool {
	if p.bigFormat(t, v, s) {
		return true
	}
	if s.sharpV {
		if str, ok := p.callMethod(t, v, "GoString"); ok {
			p.buf.WriteString(str)
			return true
		}
		return false
	}
	switch s.verb {
	case 'v', 's', 'x', 'X', 'q':
	default:
		return false
	}
	for _, name := range []string{"Error", "String"} {
		if str, ok := p.callMethod(t, v, name); ok {
			p.fmtString(str, s)
			return true
		}
	}
	return false
}

// bigFormat prints the pointers to math/big's types that implement
// fmt.Formatter (*big.Int, *big.Float), whose Format method fmt calls and
// the model does not (it has no fmt.State): %v, %#v, %s and %d of a
// *big.Int without other flags, width or precision print what Format
// prints then, its String (or "<nil>"); every other verb or flag, and
// every verb of a *big.Float (whose %v is not its String), is
// unsupported, never a different text. It reports whether it handled v.
func (p *printer) bigFormat(t *rtype, v Value, s *fmtSpec) bool {
	if t.kind != kPtr {
		return false
	}
	nt, ok := t.elem.T.(*types.Named)
	if !ok || nt.Obj().Pkg() == nil || nt.Obj().Pkg().Path() != "math/big" {
		return false
	}
	if p.x.m.stringMethodAny(t, "Format") == nil {
		return false
	}
	plain := !s.plus && !s.plusV && !s.minus && !s.space && !s.zero && !s.sharp && !s.hasWid && !s.hasPrec
	if nt.Obj().Name() == "Int" && plain && (s.verb == 'v' || s.verb == 's' || s.verb == 'd') {
		if v.p == nil {
			p.buf.WriteString("<nil>")
		} else if str, ok := p.callMethod(t, v, "String"); ok {
			p.buf.WriteString(str)
		}
		return true
	}
	if p.c == ctrlNext {
		p.c = p.g.unsupported(p.g.sourcePos(), "fmt: %s of a %s: its Format method (fmt.Formatter) is not modelled", s.native(), t)
	}
	return true
}

// callMethod calls the method name() string of v if its type has one.
func (p *printer) callMethod(t *rtype, v Value, name string) (string, bool) {
	if p.c != ctrlNext {
		return "", false
	}
	if t.kind == kPtr && v.p == nil {
		if fc := p.x.m.stringMethod(t, name); fc != nil && fc.fn != nil && isPtrRecv(fc.fn) {
			p.buf.WriteString("<nil>")
			return "", false
		}
	}
	fc := p.x.m.stringMethod(t, name)
	if fc == nil {
		return "", false
	}
	outer := p.g.panic // a deferred fmt call runs while g panics
	res, c := p.g.callNested(funcV(fc.self), []Value{v})
	if c == ctrlPanic && (p.g.panic == nil || !p.g.panic.goexit) {
		// fmt recovers panics in methods and prints them (runtime.Goexit
		// goes on unwinding).
		pv := p.g.panic
		p.g.panic = outer
		msg := "?"
		if pv != nil {
			msg = p.x.describePanic(p.g, pv.val)
		}
		if t.kind == kPtr && v.p == nil {
			return "<nil>", true
		}
		return fmt.Sprintf("%%!%s(PANIC=%s method: %s)", "v", name, msg), true
	}
	if c != ctrlNext {
		p.c = c
		return "", false
	}
	return res.Str(), true
}

func isPtrRecv(fn interface{ String() string }) bool { return strings.HasPrefix(fn.String(), "(*") }

// stringMethod returns the method name() string of t, if any.
func (m *machine) stringMethod(t *rtype, name string) *fnCode {
	if t.native != nil {
		if intr, ok := t.native[name]; ok {
			fc := &fnCode{name: name, intr: intr, compiled: true, recoverPC: -1}
			fc.self = &closure{fn: fc}
			return fc
		}
	}
	ms := m.prog.SSA.MethodSets.MethodSet(t.T)
	for i := range ms.Len() {
		sel := ms.At(i)
		f := sel.Obj().(*types.Func)
		if f.Name() != name {
			continue
		}
		sig := f.Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
			return nil
		}
		if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
			return nil
		}
		return m.method(t, f)
	}
	return nil
}

func (p *printer) fmtString(str string, s *fmtSpec) {
	switch s.verb {
	case 'v':
		// '#' means Go syntax only as %#v (sharpV, handled by callers)
		c := *s
		c.sharp = false
		p.buf.WriteString(fmt.Sprintf(c.native(), str))
	case 's', 'x', 'X', 'q':
		p.buf.WriteString(fmt.Sprintf(s.native(), str))
	default:
		p.badVerbValue(p.x.m.stringType, strV(str), s)
	}
}

// badVerbValue prints %!verb(type=value) with the value formatted by %v,
// as fmt does.
func (p *printer) badVerbValue(t *rtype, v Value, s *fmtSpec) {
	fmt.Fprintf(&p.buf, "%%!%c(%s=", s.verb, t)
	p.erroring = true // like fmt: no Error/String methods here
	vs := *s          // fmt keeps the flags, width and precision
	vs.verb = 'v'
	p.printValue(t, v, &vs, 0)
	p.erroring = false
	p.buf.WriteByte(')')
}

// printValue prints v of type t; depth > 0 inside composites.
func (p *printer) printValue(t *rtype, v Value, s *fmtSpec, depth int) {
	if p.c != ctrlNext {
		return
	}
	if depth < 10 && !p.erroring && p.handleMethods(t, v, s) {
		return
	}
	k := t.kind
	verb := s.verb
	switch {
	case k == kBool:
		if verb == 't' || verb == 'v' {
			p.buf.WriteString(fmt.Sprintf(s.nativeAs('t'), v.Bool()))
			return
		}
		p.badVerbValue(t, v, s)
	case k.isInteger():
		var nv any = v.Uint()
		if k.isSigned() {
			nv = v.Int()
		}
		switch verb {
		case 'v':
			if s.sharpV && !k.isSigned() {
				// fmt's fmt0x64 with leading 0x: %#v of uint8(201) is 0xc9
				c := *s
				c.sharp = true
				p.buf.WriteString(fmt.Sprintf(c.nativeAs('x'), nv))
				return
			}
			p.buf.WriteString(fmt.Sprintf(s.nativeAs('d'), nv))
		case 'b', 'c', 'd', 'o', 'O', 'q', 'x', 'X', 'U':
			p.buf.WriteString(fmt.Sprintf(s.native(), nv))
		default:
			p.badVerbValue(t, v, s)
		}
	case k.isFloat() || k.isComplex():
		var nv any
		switch k {
		case kFloat32:
			nv = float32(v.Float())
		case kFloat64:
			nv = v.Float()
		case kComplex64:
			nv = complex64(v.Complex())
		default:
			nv = v.Complex()
		}
		switch verb {
		case 'v':
			// fmt formats %v as %g with the flags it has at that point
			c := *s
			if c.sharpV {
				c.sharp = false
			}
			p.buf.WriteString(fmt.Sprintf(c.nativeAs('g'), nv))
		case 'b', 'e', 'E', 'f', 'F', 'g', 'G', 'x', 'X':
			p.buf.WriteString(fmt.Sprintf(s.native(), nv))
		default:
			p.badVerbValue(t, v, s)
		}
	case k == kString:
		if s.sharpV {
			p.buf.WriteString(strconv.Quote(v.Str()))
			return
		}
		p.fmtString(v.Str(), s)
	case k == kIface:
		if v.p == nil {
			if s.sharpV {
				p.buf.WriteString(t.String() + "(nil)")
				return
			}
			p.pad("<nil>", s)
			return
		}
		it := v.iface()
		p.printValue(it.t, it.v, s, depth+1)
	case k == kStruct:
		if s.sharpV {
			p.buf.WriteString(t.String())
		}
		p.buf.WriteByte('{')
		for i, f := range t.fields {
			if i > 0 {
				if s.sharpV {
					p.buf.WriteString(", ")
				} else {
					p.buf.WriteByte(' ')
				}
			}
			if s.plusV || s.sharpV {
				p.buf.WriteString(f.name)
				p.buf.WriteByte(':')
			}
			p.printValue(f.t, viewAt(f.t, v, f.off), s, depth+1)
		}
		p.buf.WriteByte('}')
	case k == kArray || k == kSlice:
		p.printList(t, v, s, depth)
	case k == kMap:
		p.printMap(t, v, s, depth)
	case k == kPtr:
		if depth == 0 && v.p != nil {
			switch t.elem.kind {
			case kStruct, kArray, kSlice, kMap:
				if verb == 'v' {
					if s.sharpV {
						p.buf.WriteByte('&')
						p.printValue(t.elem, loadValue(t.elem, v.obj(), v.off()), s, depth+1)
						return
					}
					p.buf.WriteByte('&')
					p.printValue(t.elem, loadValue(t.elem, v.obj(), v.off()), s, depth+1)
					return
				}
			}
		}
		p.fmtPointer(t, v, s)
	case k == kChan || k == kFunc || k == kUnsafePointer:
		p.fmtPointer(t, v, s)
	default:
		p.buf.WriteString("?")
	}
}

func (s *fmtSpec) nativeAs(verb rune) string {
	c := *s
	c.verb = verb
	return c.native()
}

func (p *printer) printList(t *rtype, v Value, s *fmtSpec, depth int) {
	et := t.elem
	var n int
	var elem func(i int) Value
	if t.kind == kArray {
		n = t.len
		elem = func(i int) Value { return viewAt(et, v, i*et.size) }
	} else {
		n = v.sliceLen()
		elem = func(i int) Value {
			if et.kind.isAggregate() {
				return loadValue(et, v.obj(), v.off()+i*et.size)
			}
			return v.obj().cells[v.off()+i*et.size]
		}
	}
	if et.kind == kUint8 && t.kind == kSlice {
		switch s.verb {
		case 's', 'q', 'x', 'X':
			p.buf.WriteString(fmt.Sprintf(s.native(), sliceBytes(v)))
			return
		}
	}
	if s.sharpV {
		if t.kind == kSlice && v.p == nil {
			p.buf.WriteString(t.String() + "(nil)")
			return
		}
		p.buf.WriteString(t.String())
		p.buf.WriteByte('{')
		for i := range n {
			if i > 0 {
				p.buf.WriteString(", ")
			}
			p.printValue(et, elem(i), s, depth+1)
		}
		p.buf.WriteByte('}')
		return
	}
	p.buf.WriteByte('[')
	for i := range n {
		if i > 0 {
			p.buf.WriteByte(' ')
		}
		p.printValue(et, elem(i), s, depth+1)
	}
	p.buf.WriteByte(']')
}

func (p *printer) printMap(t *rtype, v Value, s *fmtSpec, depth int) {
	mo := v.mapObj()
	sharp := s.sharpV
	if sharp {
		if mo == nil {
			p.buf.WriteString(t.String() + "(nil)")
			return
		}
		p.buf.WriteString(t.String() + "{")
	} else {
		p.buf.WriteString("map[")
	}
	if mo != nil {
		type kv struct{ k, v Value }
		var ents []kv
		mo.each(func(k, v Value) bool { ents = append(ents, kv{k, v}); return true })
		sort.SliceStable(ents, func(i, j int) bool { return compareKeys(t.key, ents[i].k, ents[j].k) < 0 })
		for i, e := range ents {
			if i > 0 {
				if sharp {
					p.buf.WriteString(", ")
				} else {
					p.buf.WriteByte(' ')
				}
			}
			p.printValue(t.key, e.k, s, depth+1)
			p.buf.WriteByte(':')
			p.printValue(t.elem, e.v, s, depth+1)
		}
	}
	if sharp {
		p.buf.WriteByte('}')
	} else {
		p.buf.WriteByte(']')
	}
}

// compareKeys orders map keys as fmt does (internal/fmtsort).
func compareKeys(t *rtype, a, b Value) int {
	switch k := t.kind; {
	case k.isSigned():
		return cmp3(a.Int() < b.Int(), a.Int() > b.Int())
	case k.isInteger():
		return cmp3(a.a < b.a, a.a > b.a)
	case k == kString:
		return strings.Compare(a.Str(), b.Str())
	case k.isFloat():
		return cmp3(a.Float() < b.Float(), a.Float() > b.Float())
	case k == kBool:
		return cmp3(!a.Bool() && b.Bool(), a.Bool() && !b.Bool())
	case k == kPtr || k == kChan || k == kUnsafePointer:
		return cmp3(uintptr(a.p) < uintptr(b.p), uintptr(a.p) > uintptr(b.p))
	case k == kStruct:
		for _, f := range t.fields {
			if c := compareKeys(f.t, viewAt(f.t, a, f.off), viewAt(f.t, b, f.off)); c != 0 {
				return c
			}
		}
	case k == kArray:
		for i := range t.len {
			if c := compareKeys(t.elem, viewAt(t.elem, a, i*t.elem.size), viewAt(t.elem, b, i*t.elem.size)); c != 0 {
				return c
			}
		}
	case k == kIface:
		if a.p == nil || b.p == nil {
			return cmp3(a.p == nil && b.p != nil, a.p != nil && b.p == nil)
		}
		ai, bi := a.iface(), b.iface()
		if ai.t != bi.t {
			return strings.Compare(ai.t.String(), bi.t.String())
		}
		return compareKeys(ai.t, ai.v, bi.v)
	}
	return 0
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

func (p *printer) fmtPointer(t *rtype, v Value, s *fmtSpec) {
	var addr uint64
	switch t.kind {
	case kPtr, kChan, kFunc, kUnsafePointer, kMap, kSlice:
		if v.p != nil {
			addr = p.x.fakeAddr(v)
		}
	default:
		p.badVerbValue(t, v, s)
		return
	}
	switch s.verb {
	case 'v':
		if addr == 0 {
			p.pad("<nil>", s)
			return
		}
		if s.sharpV {
			fmt.Fprintf(&p.buf, "(%s)(0x%x)", t, addr)
			return
		}
		p.pad(fmt.Sprintf("0x%x", addr), s)
	case 'p':
		p.pad(fmt.Sprintf("0x%x", addr), s)
	case 'b', 'o', 'd', 'x', 'X':
		p.buf.WriteString(fmt.Sprintf(s.native(), addr))
	default:
		p.badVerbValue(t, v, s)
	}
}

// fmtState is the fmt model's per-execution state: the fake addresses
// given to the references %p (or %v of a pointer) printed.
type fmtState struct{ addrs map[any]uint64 }

// snapshot refuses: the addresses are keyed by objects the restored
// memory does not have.
func (st *fmtState) snapshot() (modelState, bool) { return nil, false }

func (st *fmtState) release() {}

// fakeAddr gives a reference a stable, deterministic fake address.
func (x *execution) fakeAddr(v Value) uint64 {
	st := x.modelState(fmtSlot).(*fmtState)
	key := any(v.p)
	a, ok := st.addrs[key]
	if !ok {
		a = 0xc000010000 + uint64(len(st.addrs))*0x100
		st.addrs[key] = a
	}
	return a + v.a*8
}

// formatValue prints a value with a verb (for panic messages and reports).
func (x *execution) formatValue(g *goroutine, t *rtype, v Value, verb rune) string {
	p := &printer{x: x, g: g}
	p.printValue(t, v, &fmtSpec{verb: verb}, 0)
	return p.buf.String()
}

// callStringMethod calls it's method name() string, if it has one.
func (x *execution) callStringMethod(g *goroutine, it *iface, name string) (string, bool) {
	s, ok, c := x.callStringMethodCtrl(g, it, name)
	return s, ok && c == ctrlNext
}

// callStringMethodCtrl is callStringMethod with the call's ctrl: ctrlNext,
// or what the calling intrinsic must return (ctrlPanic for a Goexit,
// ctrlStop, ctrlNeedCo).
func (x *execution) callStringMethodCtrl(g *goroutine, it *iface, name string) (string, bool, ctrl) {
	p := &printer{x: x, g: g}
	s, ok := p.callMethod(it.t, it.v, name)
	return s, ok, p.c
}

func fmtModel() model {
	sprintf := func(c *icall, fi, ai int) (string, ctrl) {
		return c.x().sprintf(c.g, c.args[fi].Str(), sliceElems(c.args[ai]))
	}
	sprint := func(c *icall, ai int, ln bool) (string, ctrl) {
		return c.x().sprint(c.g, sliceElems(c.args[ai]), ln)
	}
	retStr := func(s string, cc ctrl, c *icall) ctrl {
		if cc != ctrlNext {
			return cc
		}
		return c.ret(strV(s))
	}
	print := func(s string, cc ctrl, c *icall) ctrl {
		if cc != ctrlNext {
			return cc
		}
		c.x().writeOutput(c.g, false, s)
		return c.retN(intV(int64(len(s))), Value{})
	}
	t := map[string]intrinsicFactory{
		"fmt.Sprintf":  simple(func(c *icall) ctrl { s, cc := sprintf(c, 0, 1); return retStr(s, cc, c) }),
		"fmt.Sprint":   simple(func(c *icall) ctrl { s, cc := sprint(c, 0, false); return retStr(s, cc, c) }),
		"fmt.Sprintln": simple(func(c *icall) ctrl { s, cc := sprint(c, 0, true); return retStr(s, cc, c) }),
		"fmt.Printf":   simple(func(c *icall) ctrl { s, cc := sprintf(c, 0, 1); return print(s, cc, c) }),
		"fmt.Print":    simple(func(c *icall) ctrl { s, cc := sprint(c, 0, false); return print(s, cc, c) }),
		"fmt.Println":  simple(func(c *icall) ctrl { s, cc := sprint(c, 0, true); return print(s, cc, c) }),
		"fmt.Fprintf":  simple(func(c *icall) ctrl { s, cc := sprintf(c, 1, 2); return fprint(c, s, cc) }),
		"fmt.Fprint":   simple(func(c *icall) ctrl { s, cc := sprint(c, 1, false); return fprint(c, s, cc) }),
		"fmt.Fprintln": simple(func(c *icall) ctrl { s, cc := sprint(c, 1, true); return fprint(c, s, cc) }),
		"fmt.Appendf": simple(func(c *icall) ctrl {
			s, cc := sprintf(c, 1, 2)
			if cc != ctrlNext {
				return cc
			}
			return c.ret(appendBytes(c.args[0], s))
		}),
		"fmt.Append": simple(func(c *icall) ctrl {
			s, cc := sprint(c, 1, false)
			if cc != ctrlNext {
				return cc
			}
			return c.ret(appendBytes(c.args[0], s))
		}),
		"fmt.Appendln": simple(func(c *icall) ctrl {
			s, cc := sprint(c, 1, true)
			if cc != ctrlNext {
				return cc
			}
			return c.ret(appendBytes(c.args[0], s))
		}),
		"fmt.Errorf":               nests(func(m *machine, fn *ssa.Function) intrinsic { return m.errorf() }, true),
		"(*fmt.wrapError).Error":   simple(func(c *icall) ctrl { return c.ret(c.args[0].obj().cells[c.args[0].off()]) }),
		"(*fmt.wrapError).Unwrap":  simple(func(c *icall) ctrl { return c.ret(c.args[0].obj().cells[c.args[0].off()+1]) }),
		"(*fmt.wrapErrors).Error":  simple(func(c *icall) ctrl { return c.ret(c.args[0].obj().cells[c.args[0].off()]) }),
		"(*fmt.wrapErrors).Unwrap": simple(func(c *icall) ctrl { return c.ret(c.args[0].obj().cells[c.args[0].off()+1]) }),
	}
	// Formatting calls String, Error and GoString methods (printer).
	for name, f := range t {
		if strings.HasPrefix(name, "fmt.") && name != "fmt.Errorf" {
			t[name] = nests(f, true)
		}
	}
	return model{
		funcs:    t,
		slot:     fmtSlot,
		newState: func(*execution) modelState { return &fmtState{addrs: map[any]uint64{}} },
	}
}

func appendBytes(s Value, str string) Value {
	bs := strV(str)
	// []byte append from a string
	return appendValues(nil, &rtype{kind: kSlice, elem: &rtype{kind: kUint8, size: 1}}, s, bs, true)
}

// fprint writes to an io.Writer: the modelled os.Stdout/os.Stderr, or any
// writer's Write method (called as a continuation; its (n, err) results
// are Fprintf's results).
func fprint(c *icall, s string, cc ctrl) ctrl {
	if cc != ctrlNext {
		return cc
	}
	w := c.args[0]
	if w.p == nil {
		return c.nilPanic()
	}
	it := w.iface()
	if c.x().isStdStream(it.v) {
		c.x().writeOutput(c.g, false, s)
		return c.retN(intV(int64(len(s))), Value{})
	}
	fc := c.m().stringMethodAny(it.t, "Write")
	if fc == nil {
		return c.g.unsupported(c.pos, "fmt.Fprint to %s (no Write method)", it.t)
	}
	return c.g.callValue(c.fr, funcV(fc.self), []Value{it.v, bytesToSlice([]byte(s))}, c.dst, c.pos)
}

// errorf implements fmt.Errorf: *errors.errorString without %w,
// *fmt.wrapError with one %w, *fmt.wrapErrors with several.
func (m *machine) errorf() intrinsic {
	errString := m.ptrTo("errors", "errorString")
	wrapError := m.ptrTo("fmt", "wrapError")
	wrapErrors := m.ptrTo("fmt", "wrapErrors")
	errSlice := m.rtypeOf(types.NewSlice(m.errorIface.T))
	return func(c *icall) ctrl {
		format := c.args[0].Str()
		args := sliceElems(c.args[1])
		s, cc := c.x().formatf(c.g, format, args, true)
		if cc != ctrlNext {
			return cc
		}
		wrapped := wrappedArgs(format, args, m)
		switch {
		case len(wrapped) == 0 || errString == nil && wrapError == nil:
			if errString == nil {
				return c.ret(ifaceV(m.stringErrorType(), strV(s)))
			}
			o := newObject(1)
			o.cells[0] = strV(s)
			return c.ret(ifaceV(errString, ptrV(o, 0)))
		case len(wrapped) == 1 && wrapError != nil:
			o := newObject(2)
			o.cells[0] = strV(s)
			o.cells[1] = wrapped[0]
			return c.ret(ifaceV(wrapError, ptrV(o, 0)))
		case wrapErrors != nil:
			o := newObject(2)
			o.cells[0] = strV(s)
			so := newObject(len(wrapped))
			copy(so.cells, wrapped)
			o.cells[1] = sliceV(so, 0, len(wrapped), len(wrapped))
			_ = errSlice
			return c.ret(ifaceV(wrapErrors, ptrV(o, 0)))
		}
		return c.g.unsupported(c.pos, "fmt.Errorf with %%w: fmt's error types are not loaded")
	}
}

// wrappedArgs returns the error operands of %w verbs.
func wrappedArgs(format string, args []Value, m *machine) []Value {
	var out []Value
	argNum := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("#0+- 123456789.*[]", format[i]) >= 0 {
			if format[i] == '*' {
				argNum++
			}
			i++
		}
		if i >= len(format) {
			break
		}
		if format[i] == '%' {
			continue
		}
		if format[i] == 'w' && argNum < len(args) {
			a := args[argNum]
			if a.p != nil && m.implements(a.iface().t, m.errorIface) {
				out = append(out, a)
			}
		}
		argNum++
	}
	return out
}
