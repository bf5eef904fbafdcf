package explore

import "sort"

// The sort package's functions that take a less function (sort.Slice,
// sort.SliceStable, sort.SliceIsSorted) run natively, calling less as a
// nested call (nested.go); the rest of sort is interpreted.

func sortModel() model {
	return model{
		funcs: map[string]intrinsicFactory{
			"sort.Slice":         nests(simple(func(c *icall) ctrl { return sortSlice(c, false) }), false),
			"sort.SliceStable":   nests(simple(func(c *icall) ctrl { return sortSlice(c, true) }), false),
			"sort.SliceIsSorted": nests(simple(sortSliceIsSorted), false),
		},
	}
}

// sliceSorter adapts an interpreter slice and a less function value to
// sort.Interface; less runs as a nested call.
type sliceSorter struct {
	c    *icall
	s    Value
	esz  int
	less Value
	cc   ctrl
}

func (s *sliceSorter) Len() int { return s.s.sliceLen() }

func (s *sliceSorter) Swap(i, j int) {
	if s.cc != ctrlNext {
		return // less panicked or the execution stops: sort leaves at once in Go
	}
	cells := s.s.obj().cells[s.s.off():]
	for k := range s.esz {
		cells[i*s.esz+k], cells[j*s.esz+k] = cells[j*s.esz+k], cells[i*s.esz+k]
	}
}

func (s *sliceSorter) Less(i, j int) bool {
	if s.cc != ctrlNext {
		return false
	}
	res, cc := s.c.g.callNested(s.less, []Value{intV(int64(i)), intV(int64(j))})
	if cc != ctrlNext {
		s.cc = cc
		return false
	}
	return res.Bool()
}

func (c *icall) sliceArg(i int) (Value, *rtype, bool) {
	a := c.args[i]
	if a.p == nil {
		return Value{}, nil, false
	}
	it := a.iface()
	if it.t.kind != kSlice {
		return Value{}, nil, false
	}
	return it.v, it.t, true
}

func sortSlice(c *icall, stable bool) ctrl {
	s, t, ok := c.sliceArg(0)
	if !ok {
		return c.g.throwPlain("reflect: call of Swapper on non-slice value")
	}
	ss := &sliceSorter{c: c, s: s, esz: t.elem.size, less: c.args[1]}
	if stable {
		sort.Stable(ss)
	} else {
		sort.Sort(ss)
	}
	if ss.cc != ctrlNext {
		return ss.cc
	}
	return c.ret(Value{})
}

func sortSliceIsSorted(c *icall) ctrl {
	s, t, ok := c.sliceArg(0)
	if !ok {
		return c.g.throwPlain("reflect: call of ValueOf(x).Len on non-slice value")
	}
	ss := &sliceSorter{c: c, s: s, esz: t.elem.size, less: c.args[1]}
	sorted := sort.IsSorted(ss)
	if ss.cc != ctrlNext {
		return ss.cc
	}
	return c.ret(boolV(sorted))
}
