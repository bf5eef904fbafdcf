// Package symsplit has one symbolic function per place where the
// explorer needs a concrete value from a symbolic one (map keys, indexes,
// slice bounds, sizes, conversions, arguments of functions it does not
// run symbolically, structs with symbolic fields, memory read by modelled
// functions). Each bug needs a value other than the first one a solver
// would pick: the exploration must split the value (and find the bug) or
// say that it fixed it (verdict unknown), never pass.
package symsplit

import (
	"fmt"
	"strconv"
)

// MapLookup panics when k is the key of "three".
//
//ltl:symbolic
func MapLookup(k int) {
	m := map[int]string{1: "one", 2: "two", 3: "three"}
	if m[k] == "three" {
		panic("found three")
	}
}

// MapCommaOk panics when k is absent (and positive).
//
//ltl:symbolic
func MapCommaOk(k int) {
	m := map[int]bool{0: true, 1: true}
	if _, ok := m[k]; !ok && k > 0 {
		panic("absent")
	}
}

// MapUpdate stores under a symbolic key, then looks up a concrete one.
//
//ltl:symbolic
func MapUpdate(k int) {
	m := map[int]bool{}
	m[k] = true
	if m[7] {
		panic("seven")
	}
}

// MapDistinct inserts two symbolic keys: one entry if they are equal.
//
//ltl:symbolic
func MapDistinct(a, b uint8) {
	m := map[uint8]int{}
	m[a] = 1
	m[b] = 2
	if len(m) == 2 && m[a] == 1 && m[b] == 2 {
		return
	}
	if len(m) == 1 && m[a] == 2 {
		panic("same key")
	}
	panic("unreachable")
}

// MapDelete panics when k deletes the entry 2.
//
//ltl:symbolic
func MapDelete(k int) {
	m := map[int]int{1: 1, 2: 2}
	delete(m, k)
	if len(m) == 1 && m[1] == 1 {
		panic("deleted 2")
	}
}

// MapRange ranges over a map holding a symbolic key.
//
//ltl:symbolic
func MapRange(k int) {
	m := map[int]int{5: 1}
	m[k] = 2
	sum := 0
	for key, v := range m {
		sum += key * v
	}
	if len(m) == 2 && sum == 5+2*9 {
		panic("k is 9")
	}
}

var table = [4]int{0, 0, 7, 0}

// Index reads an in-range element.
//
//ltl:symbolic
func Index(i int) {
	if i >= 0 && i < 4 && table[i] == 7 {
		panic("seven")
	}
}

// IndexWrite writes an in-range element.
//
//ltl:symbolic
func IndexWrite(i int) {
	var a [3]int
	if i >= 0 && i < 3 {
		a[i] = 1
	}
	if a[1] == 1 {
		panic("one")
	}
}

// IndexWide reads an element of a large array: more values than the
// explorer splits.
//
//ltl:symbolic
func IndexWide(i uint8) {
	var a [256]int
	a[200] = 1
	if a[i] == 1 {
		panic("200")
	}
}

// SliceOut slices beyond the length for n > 4.
//
//ltl:symbolic
func SliceOut(n int) {
	s := []int{1, 2, 3, 4}
	_ = s[:n]
}

// SliceIn needs n == 3.
//
//ltl:symbolic
func SliceIn(n int) {
	s := []int{1, 2, 3, 4}
	if n >= 0 && n <= 4 && len(s[:n]) == 3 {
		panic("three")
	}
}

// StringSlice slices a string.
//
//ltl:symbolic
func StringSlice(lo uint8) {
	s := "hello"
	if lo <= 5 && s[lo:] == "lo" {
		panic("lo")
	}
}

// MakeSize needs a length of 5.
//
//ltl:symbolic
func MakeSize(n int) {
	if n < 0 || n > 8 {
		return
	}
	if s := make([]int, n); len(s) == 5 {
		panic("five")
	}
}

// MakeNegative panics for a negative length.
//
//ltl:symbolic
func MakeNegative(n int8) {
	if n > 3 {
		return
	}
	_ = make([]int, n)
}

// MakeBig allocates up to 1000 elements: more sizes than the explorer
// splits.
//
//ltl:symbolic
func MakeBig(n int) {
	if n < 0 || n > 1000 {
		return
	}
	_ = make([]int, n)
}

// ChanSize needs a buffer of 2.
//
//ltl:symbolic
func ChanSize(n int) {
	if n < 0 || n > 3 {
		return
	}
	if ch := make(chan int, n); cap(ch) == 2 {
		panic("two")
	}
}

// Iface compares an interface holding n.
//
//ltl:symbolic
func Iface(n int) {
	if n >= 0 && n < 5 {
		var x any = n
		if x == any(3) {
			panic("three")
		}
	}
}

// IfaceWide converts an unconstrained n to an interface.
//
//ltl:symbolic
func IfaceWide(n int) {
	var x any = n
	if x == any(3) {
		panic("three")
	}
}

// Sprint formats n.
//
//ltl:symbolic
func Sprint(n int) {
	if n >= 0 && n < 10 && fmt.Sprint(n) == "7" {
		panic("seven")
	}
}

// Itoa calls a native function.
//
//ltl:symbolic
func Itoa(n int) {
	if n >= 0 && n < 10 && strconv.Itoa(n) == "7" {
		panic("seven")
	}
}

// ToFloat converts to a float.
//
//ltl:symbolic
func ToFloat(n int) {
	if n >= 0 && n < 4 && float64(n)*0.5 == 1.5 {
		panic("1.5")
	}
}

// ToString converts a rune to a string.
//
//ltl:symbolic
func ToString(n int32) {
	if n >= 'a' && n <= 'c' && string(rune(n)) == "b" {
		panic("b")
	}
}

// MinMax uses the builtins.
//
//ltl:symbolic
func MinMax(a, b int) {
	if max(a, b) == 5 && min(a, b) == 2 && a == 2 {
		panic("a 2, b 5")
	}
}

// Println prints n before branching on it.
//
//ltl:symbolic
func Println(n int) {
	println(n)
	if n == 3 {
		panic("three")
	}
}

type pt struct{ x, y int }

// StructEq compares structs with a symbolic field.
//
//ltl:symbolic
func StructEq(a int) {
	if (pt{a, 2}) == (pt{3, 2}) {
		panic("3,2")
	}
}

// StructKey uses a struct with a symbolic field as a map key.
//
//ltl:symbolic
func StructKey(a int) {
	m := map[pt]bool{{3, 2}: true}
	if a >= 0 && a < 5 && m[pt{a, 2}] {
		panic("3,2")
	}
}

// StructSprint formats a struct with a symbolic field.
//
//ltl:symbolic
func StructSprint(a int) {
	if a >= 0 && a < 5 && fmt.Sprint(pt{a, 2}) == "{3 2}" {
		panic("3,2")
	}
}

// PointerSprint formats a pointer to a struct with a symbolic field.
//
//ltl:symbolic
func PointerSprint(a int) {
	p := &pt{2, 0}
	if a >= 0 && a < 5 {
		p.y = a
	}
	if fmt.Sprint(p) == "&{2 3}" {
		panic("&{2 3}")
	}
}

// Bytes converts symbolic bytes to a string.
//
//ltl:symbolic
func Bytes(c uint8) {
	if c >= 'w' && c <= 'y' {
		b := []byte{'a', c}
		if string(b) == "ax" {
			panic("ax")
		}
	}
}

// Recovered recovers the panic of a symbolic index and goes on: the
// index that words the message is fixed, the others are not covered.
//
//ltl:symbolic
func Recovered(i int) (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	var a [2]int
	return strconv.Itoa(a[i])
}
