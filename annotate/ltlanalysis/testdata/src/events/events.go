package events

import "strings"

var _ = strings.ToUpper

type T struct{ f func() }

const limit = 3

func (T) M()      {}
func (*T) PM()    {}
func Gen[E any]() {}

var (
	t       T
	counter int
	fv      = func() {}
	x, y    int
)

//ltl:prop e1 call Nope // want `ltl:prop e1: undefined: Nope`
//ltl:prop e2 return counter // want `ltl:prop e2: counter is a variable, not a function: events name functions and methods`
//ltl:prop e3 call (*T).f // want `ltl:prop e3: \(\*T\).f undefined \(type \*T has no method f\)`
//ltl:prop e4 call t.M // want `ltl:prop e4: t.M is a method value: name the method through its type, as T.M`
//ltl:prop e5 call len // want `ltl:prop e5: len is a builtin, not a function`
//ltl:prop e6 go T // want `ltl:prop e6: T is a type, not a function`
//ltl:prop e7 call strings.NoSuch // want `ltl:prop e7: undefined: strings.NoSuch`
//ltl:prop e8 call 1+2 // want `ltl:prop e8: 1 \+ 2 does not name a function: want F, pkg.F, T.M or \(\*T\).M`
//ltl:prop e9 call T.PM // want `ltl:prop e9: invalid method expression T.PM \(needs pointer receiver \(\*T\).PM\)`
//ltl:prop e10 call T.f // want `ltl:prop e10: T.f undefined \(type T has no method f\)`
//ltl:prop e15 call t.f // want `ltl:prop e15: t.f is a field, not a method`
//ltl:prop e16 call limit // want `ltl:prop e16: limit is a constant, not a function`
//ltl:prop e17 return fv // want `ltl:prop e17: fv is a variable, not a function: events name functions and methods`
//ltl:prop e18 go strings // want `ltl:prop e18: use of package strings not in selector`
//ltl:prop e19 call Nope extra // want `ltl:prop e19: syntax error: expected end of expression, found extra`
//ltl:prop ok1 call Gen
//ltl:prop ok4 call Gen[int]
//ltl:prop ok2 return (*T).M
//ltl:prop ok3 go strings.ToUpper
//ltl:spec all G(ok1 || ok2 || ok3 || ok4 || onIf || onInc || afterIf)

//ltl:event e11 // want `ltl:event e11: attached to nothing: an event stands inside a function body`
func f() {
	//ltl:event e12 // want `ltl:event e12: attached to nothing: an event stands on the line before a statement \(with no blank line between\) or at the end of one`

	//ltl:event onIf
	if x > 0 { //ltl:event e13 // want `ltl:event e13: attached to nothing`
		y++ //ltl:event onInc
	} //ltl:event afterIf
	//ltl:event e14 // want `ltl:event e14: attached to nothing`
}
