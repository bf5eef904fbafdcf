package explore

import (
	"regexp"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// The regexp package, modelled natively: a *regexp.Regexp is an
// interpreter object of the real type whose expr and longest fields are
// set; the compiled native regexp is cached per machine by expression, so
// regexps in package variables need no model state (and do not prevent
// the initialization snapshot). Compile errors are plain error values
// (not *syntax.Error).

type regexpKey struct {
	expr    string
	longest bool
	posix   bool
}

// regexpLayout holds the layout of regexp.Regexp.
type regexpLayout struct {
	t                   *rtype
	exprOff, longestOff int
}

func (m *machine) regexpLayout() (*regexpLayout, bool) {
	rt := m.named("regexp", "Regexp")
	if rt == nil {
		return nil, false
	}
	rm := &regexpLayout{t: m.rtypeOf(rt)}
	var ok1, ok2 bool
	rm.exprOff, ok1 = m.cellOffset(rt, "expr")
	rm.longestOff, ok2 = m.cellOffset(rt, "longest")
	return rm, ok1 && ok2
}

// nativeRegexp returns the compiled native regexp of a *regexp.Regexp.
func (c *icall) nativeRegexp(rm *regexpLayout) (*regexp.Regexp, bool) {
	o, off, ok := c.ptrArg(0)
	if !ok {
		return nil, false
	}
	k := regexpKey{expr: o.cells[off+rm.exprOff].Str(), longest: o.cells[off+rm.longestOff].a != 0}
	re, err := c.m().compileRegexp(k)
	return re, err == nil
}

func (m *machine) compileRegexp(k regexpKey) (*regexp.Regexp, error) {
	if re, ok := m.regexps[k]; ok {
		return re, nil
	}
	var re *regexp.Regexp
	var err error
	if k.posix {
		re, err = regexp.CompilePOSIX(k.expr)
	} else {
		re, err = regexp.Compile(k.expr)
	}
	if err != nil {
		return nil, err
	}
	if k.longest {
		re.Longest()
	}
	if m.regexps == nil {
		m.regexps = map[regexpKey]*regexp.Regexp{}
	}
	m.regexps[k] = re
	return re, nil
}

func stringsV(ss []string) Value {
	if ss == nil {
		return Value{}
	}
	o := newObject(len(ss))
	for i, s := range ss {
		o.cells[i] = strV(s)
	}
	return sliceV(o, 0, len(ss), len(ss))
}

func intsV(xs []int) Value {
	if xs == nil {
		return Value{}
	}
	o := newObject(len(xs))
	for i, x := range xs {
		o.cells[i] = intV(int64(x))
	}
	return sliceV(o, 0, len(xs), len(xs))
}

func nestedV[T any](xss [][]T, each func([]T) Value) Value {
	if xss == nil {
		return Value{}
	}
	o := newObject(len(xss))
	for i, xs := range xss {
		o.cells[i] = each(xs)
	}
	return sliceV(o, 0, len(xss), len(xss))
}

func regexpModel() model {
	compile := func(posix, must bool) intrinsicFactory {
		return func(m *machine, fn *ssa.Function) intrinsic {
			rm, ok := m.regexpLayout()
			return func(c *icall) ctrl {
				if !ok {
					return c.g.unsupported(c.pos, "regexp: unexpected layout of regexp.Regexp")
				}
				expr := c.args[0].Str()
				if _, err := c.m().compileRegexp(regexpKey{expr: expr, posix: posix}); err != nil {
					if must {
						name := "Compile"
						if posix {
							name = "CompilePOSIX"
						}
						return c.g.throw(ifaceV(c.m().stringType, strV("regexp: "+name+"("+quoteRegexp(expr)+"): "+err.Error())))
					}
					return c.retN(Value{}, c.m().newErrorString(err.Error()))
				}
				o := &object{cells: make([]Value, rm.t.size), id: c.g.newID(), owner: c.g.key}
				o.cells[rm.exprOff] = strV(expr)
				if must {
					return c.ret(ptrV(o, 0))
				}
				return c.retN(ptrV(o, 0), Value{})
			}
		}
	}
	method := func(f func(c *icall, re *regexp.Regexp) ctrl) intrinsicFactory {
		return func(m *machine, fn *ssa.Function) intrinsic {
			rm, ok := m.regexpLayout()
			return func(c *icall) ctrl {
				if !ok {
					return c.g.unsupported(c.pos, "regexp: unexpected layout of regexp.Regexp")
				}
				re, ok := c.nativeRegexp(rm)
				if !ok {
					return c.nilPanic()
				}
				return f(c, re)
			}
		}
	}
	s := func(c *icall, i int) string { return c.args[i].Str() }
	n := func(c *icall, i int) int { return int(c.args[i].Int()) }
	t := map[string]intrinsicFactory{
		"regexp.Compile":          compile(false, false),
		"regexp.MustCompile":      compile(false, true),
		"regexp.CompilePOSIX":     compile(true, false),
		"regexp.MustCompilePOSIX": compile(true, true),
		"regexp.QuoteMeta":        simple(func(c *icall) ctrl { return c.ret(strV(regexp.QuoteMeta(s(c, 0)))) }),
		"regexp.MatchString": simple(func(c *icall) ctrl {
			ok, err := regexp.MatchString(s(c, 0), s(c, 1))
			if err != nil {
				return c.retN(boolV(false), c.m().newErrorString(err.Error()))
			}
			return c.retN(boolV(ok), Value{})
		}),
		"(*regexp.Regexp).String":    method(func(c *icall, re *regexp.Regexp) ctrl { return c.ret(strV(re.String())) }),
		"(*regexp.Regexp).NumSubexp": method(func(c *icall, re *regexp.Regexp) ctrl { return c.ret(intV(int64(re.NumSubexp()))) }),
		"(*regexp.Regexp).SubexpNames": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(stringsV(re.SubexpNames()))
		}),
		"(*regexp.Regexp).SubexpIndex": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(intV(int64(re.SubexpIndex(s(c, 1)))))
		}),
		"(*regexp.Regexp).MatchString": method(func(c *icall, re *regexp.Regexp) ctrl { return c.ret(boolV(re.MatchString(s(c, 1)))) }),
		"(*regexp.Regexp).Match":       method(func(c *icall, re *regexp.Regexp) ctrl { return c.ret(boolV(re.Match(sliceBytes(c.args[1])))) }),
		"(*regexp.Regexp).FindString":  method(func(c *icall, re *regexp.Regexp) ctrl { return c.ret(strV(re.FindString(s(c, 1)))) }),
		"(*regexp.Regexp).FindStringIndex": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(intsV(re.FindStringIndex(s(c, 1))))
		}),
		"(*regexp.Regexp).FindStringSubmatch": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(stringsV(re.FindStringSubmatch(s(c, 1))))
		}),
		"(*regexp.Regexp).FindStringSubmatchIndex": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(intsV(re.FindStringSubmatchIndex(s(c, 1))))
		}),
		"(*regexp.Regexp).FindAllString": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(stringsV(re.FindAllString(s(c, 1), n(c, 2))))
		}),
		"(*regexp.Regexp).FindAllStringIndex": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(nestedV(re.FindAllStringIndex(s(c, 1), n(c, 2)), intsV))
		}),
		"(*regexp.Regexp).FindAllStringSubmatch": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(nestedV(re.FindAllStringSubmatch(s(c, 1), n(c, 2)), stringsV))
		}),
		"(*regexp.Regexp).ReplaceAllString": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(strV(re.ReplaceAllString(s(c, 1), s(c, 2))))
		}),
		"(*regexp.Regexp).ReplaceAllLiteralString": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(strV(re.ReplaceAllLiteralString(s(c, 1), s(c, 2))))
		}),
		"(*regexp.Regexp).ReplaceAllStringFunc": nests(method(func(c *icall, re *regexp.Regexp) ctrl {
			cc := ctrlNext
			out := re.ReplaceAllStringFunc(s(c, 1), func(m string) string {
				if cc != ctrlNext {
					return m
				}
				var r Value
				r, cc = c.g.callNested(c.args[2], []Value{strV(m)})
				return r.Str()
			})
			if cc != ctrlNext {
				return cc
			}
			return c.ret(strV(out))
		}), false),
		"(*regexp.Regexp).Split": method(func(c *icall, re *regexp.Regexp) ctrl {
			return c.ret(stringsV(re.Split(s(c, 1), n(c, 2))))
		}),
		"(*regexp.Regexp).Longest": func(m *machine, fn *ssa.Function) intrinsic {
			rm, ok := m.regexpLayout()
			return func(c *icall) ctrl {
				o, off, okp := c.ptrArg(0)
				if !ok || !okp {
					return c.nilPanic()
				}
				o.cells[off+rm.longestOff] = boolV(true)
				return c.ret(Value{})
			}
		},
	}
	return model{funcs: t}
}

// quoteRegexp quotes an expression as regexp.MustCompile's panic does.
func quoteRegexp(s string) string {
	if strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
