package smv

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/henceforth-go/henceforth/internal/srcpos"
	"github.com/henceforth-go/henceforth/split"
)

// ParseProperty reads a property for p in the syntax of the text format:
// "INVARSPEC expr" or "LTLSPEC formula" (the keyword may be omitted for an
// invariant without temporal operators). p may come from Parse or from
// split's Go API. Names resolve to p's variables by their full names (x,
// flag[2], P[1].loc), to arrays of them indexed by any integer expression
// (flag[turn], P[i].loc inside a quantifier), to enumeration values, and to
// what p.Define named: Parse defines the parameter N, the DEFINEs of
// MODULE main, and each process's DEFINEs and parameters by their full
// names (P[1].crit, which a property may also write P[i].crit).
func ParseProperty(p *split.Program, src string) (*split.Property, error) {
	toks, err := lex("", src)
	if err != nil {
		return nil, err
	}
	ps := &parser{toks: toks}
	kw := token{kind: tIdent, text: "INVARSPEC"}
	if t := ps.peek(); t.kind == tIdent && (t.text == "INVARSPEC" || t.text == "LTLSPEC") {
		kw = ps.next()
	}
	spec, err := ps.spec(kw)
	if err != nil {
		return nil, err
	}
	if t := ps.peek(); t.kind != tEOF {
		return nil, srcpos.Errorf(t.pos, split.ErrSyntax, "unexpected %s after the property", t)
	}
	e := &elaborator{budget: maxElements, enumIndex: map[string]map[int]bool{}, prog: p, main: programScope(p)}
	for _, v := range p.Vars() {
		for i, s := range v.Enum() {
			if e.enumIndex[s] == nil {
				e.enumIndex[s] = map[int]bool{}
			}
			e.enumIndex[s][i] = true
		}
	}
	var prop *split.Property
	if kw.text == "LTLSPEC" {
		prop, err = e.ltlSpec(spec, e.main)
	} else {
		prop, err = e.invarSpec(spec, e.main)
	}
	if err != nil {
		return nil, err
	}
	return prop, prop.Validate()
}

// element matches the name of an element of an array: flag[2], P[3],
// grid[1][2] (the array's name and the last index).
var element = regexp.MustCompile(`^(.*)\[(-?[0-9]+)\]$`)

// ident matches a name the text format can write as one identifier.
var ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z_0-9]*$`)

// programScope rebuilds the names of p's main module that are not full
// variable names (which the elaborator looks up in p): p's definitions,
// its processes, and the arrays of variables and of processes its names
// form. A process (or an element of an array of processes) is a *procVal whose scope binds the process's
// locals, and the definitions named after it (P[1].crit), by their short
// names.
func programScope(p *split.Program) *scope {
	defines := p.Defines()
	sc := &scope{names: map[string]any{}}
	elems := map[string]any{}
	for _, v := range p.SharedVars() {
		elems[v.Name()] = split.Ref(v)
	}
	for _, pr := range p.Processes() {
		prefix := pr.Name() + "."
		mine := map[string]any{}
		for _, v := range pr.Locals() {
			mine[strings.TrimPrefix(v.Name(), prefix)] = split.Ref(v)
		}
		for name, x := range defines {
			if short, ok := strings.CutPrefix(name, prefix); ok {
				mine[short] = x
			}
		}
		locals := &scope{names: map[string]any{}}
		bindArrays(locals.names, mine)
		for name, x := range mine {
			if ident.MatchString(name) {
				locals.names[name] = x
			}
		}
		elems[pr.Name()] = &procVal{proc: pr, sc: locals}
	}
	bindArrays(sc.names, elems)
	for name, x := range elems {
		if ident.MatchString(name) {
			sc.names[name] = x
		}
	}
	for name, x := range defines {
		if ident.MatchString(name) {
			sc.names[name] = x
		}
	}
	return sc
}

// bindArrays binds in names each array (an *arrVal) whose elements are
// named in elems (flag for flag[1] and flag[2]; grid, an array of arrays,
// for grid[1][2]), unless its indices leave a gap.
func bindArrays(names map[string]any, elems map[string]any) {
	arrays := map[string]map[int]any{} // array name → index → element
	for name, x := range elems {
		for {
			m := element.FindStringSubmatch(name)
			if m == nil {
				break
			}
			k, err := strconv.Atoi(m[2])
			if err != nil {
				break
			}
			if arrays[m[1]] == nil {
				arrays[m[1]] = map[int]any{}
			}
			if _, seen := arrays[m[1]][k]; seen {
				break
			}
			arrays[m[1]][k] = x
			name, x = m[1], nil // an array: built from its own elements
		}
	}
	// Innermost arrays first, so that grid[1] is built before grid.
	order := slices.Collect(maps.Keys(arrays))
	slices.SortFunc(order, func(a, b string) int {
		return cmp.Or(strings.Count(b, "["), strings.Compare(a, b))
	})
	built := map[string]*arrVal{}
	for _, base := range order {
		idx := slices.Sorted(maps.Keys(arrays[base]))
		arr := &arrVal{lo: idx[0]}
		for i, k := range idx {
			x := arrays[base][k]
			if x == nil {
				if inner := built[fmt.Sprintf("%s[%d]", base, k)]; inner != nil {
					x = inner
				}
			}
			if k != arr.lo+i || x == nil {
				arr = nil // a gap: the elements are left to lookups
				break
			}
			arr.elems = append(arr.elems, x)
		}
		if arr == nil {
			continue
		}
		built[base] = arr
		if ident.MatchString(base) {
			names[base] = arr
		}
	}
}
