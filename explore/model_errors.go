package explore

import (
	"go/types"
)

// The errors package: errors.Is and errors.As use reflectlite; they are
// modelled here, calling the Is/As/Unwrap methods of the interpreted
// errors synchronously. The rest of package errors is interpreted.
// newErrorString makes the error values of other models (errors.New's
// *errors.errorString).

func errorsModel() model {
	return model{funcs: map[string]intrinsicFactory{
		"errors.Is": nests(simple(errorsIs), true),
		"errors.As": nests(simple(errorsAs), true),
	}}
}

// unwrapOnce returns the errors err wraps (Unwrap() error or
// Unwrap() []error).
func unwrapOnce(c *icall, err Value) ([]Value, ctrl) {
	it := err.iface()
	fc := c.m().stringMethodAny(it.t, "Unwrap")
	if fc == nil {
		return nil, ctrlNext
	}
	res, cc := c.g.callNested(funcV(fc.self), []Value{it.v})
	if cc != ctrlNext {
		return nil, cc
	}
	var sig *types.Signature
	if fc.fn != nil {
		sig = fc.fn.Signature
	}
	if sig != nil && sig.Results().Len() == 1 {
		if _, isSlice := sig.Results().At(0).Type().Underlying().(*types.Slice); isSlice {
			return sliceElems(res), ctrlNext
		}
	}
	if res.p == nil {
		return nil, ctrlNext
	}
	return []Value{res}, ctrlNext
}

// walkErrors visits err and the errors it wraps, depth first (as
// errors.Is and errors.As do), until visit returns true.
func walkErrors(c *icall, err Value, visit func(err Value) (bool, ctrl)) (bool, ctrl) {
	for depth := 0; depth < 100 && err.p != nil; depth++ {
		if ok, cc := visit(err); ok || cc != ctrlNext {
			return ok, cc
		}
		next, cc := unwrapOnce(c, err)
		if cc != ctrlNext {
			return false, cc
		}
		if len(next) != 1 {
			for _, e := range next {
				if ok, cc := walkErrors(c, e, visit); ok || cc != ctrlNext {
					return ok, cc
				}
			}
			return false, ctrlNext
		}
		err = next[0]
	}
	return false, ctrlNext
}

// callBoolMethod calls it.name(arg) if the type has such a method.
func callBoolMethod(c *icall, it *iface, name string, arg Value) (bool, ctrl) {
	fc := c.m().methodNamed(it.t, name)
	if fc == nil {
		return false, ctrlNext
	}
	res, cc := c.g.callNested(funcV(fc.self), []Value{it.v, arg})
	return cc == ctrlNext && res.Bool(), cc
}

func errorsIs(c *icall) ctrl {
	err, target := c.args[0], c.args[1]
	if err.p == nil || target.p == nil {
		return c.ret(boolV(err.p == target.p))
	}
	comparable := target.iface().t.comparable
	ok, cc := walkErrors(c, err, func(err Value) (bool, ctrl) {
		if comparable {
			if eq, _ := equal(c.m().errorIface, err, target); eq {
				return true, ctrlNext
			}
		}
		return callBoolMethod(c, err.iface(), "Is", target)
	})
	if cc != ctrlNext {
		return cc
	}
	return c.ret(boolV(ok))
}

func errorsAs(c *icall) ctrl {
	err, target := c.args[0], c.args[1]
	if target.p == nil {
		return c.g.throwPlain("errors: target cannot be nil")
	}
	tt := target.iface()
	if tt.t.kind != kPtr || tt.v.p == nil {
		return c.g.throwPlain("errors: target must be a non-nil pointer")
	}
	elem := tt.t.elem
	if elem.kind != kIface && !c.m().implements(elem, c.m().errorIface) {
		return c.g.throwPlain("errors: *target must be interface or implement error")
	}
	ok, cc := walkErrors(c, err, func(err Value) (bool, ctrl) {
		it := err.iface()
		if elem.kind == kIface && c.m().implements(it.t, elem) || it.t == elem {
			v := it.v
			if elem.kind == kIface {
				v = err
			}
			storeValue(elem, tt.v.obj(), tt.v.off(), v)
			return true, ctrlNext
		}
		return callBoolMethod(c, it, "As", target)
	})
	if cc != ctrlNext {
		return cc
	}
	return c.ret(boolV(ok))
}

// methodNamed returns t's method with the given name (any signature).
func (m *machine) methodNamed(t *rtype, name string) *fnCode {
	return m.stringMethodAny(t, name)
}

// stringErrorType is a synthesized error type used when errors is not
// loaded.
func (m *machine) stringErrorType() *rtype {
	return m.runtimeStringError("errorString", "")
}

// newErrorString makes an error value like errors.New(msg).
func (m *machine) newErrorString(msg string) Value {
	if et := m.ptrTo("errors", "errorString"); et != nil {
		so := newObject(1)
		so.cells[0] = strV(msg)
		return ifaceV(et, ptrV(so, 0))
	}
	return ifaceV(m.stringErrorType(), strV(msg))
}
