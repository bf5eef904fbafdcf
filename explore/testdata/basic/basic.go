// Package basic holds small programs the interpreter tests run.
package basic

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

func Arith() {
	x := 7
	y := 3
	if x+y != 10 || x-y != 4 || x*y != 21 || x/y != 2 || x%y != 1 {
		panic("int arithmetic")
	}
	var b int8 = 127
	b++
	if b != -128 {
		panic("int8 wrap")
	}
	var u uint8 = 0
	u--
	if u != 255 {
		panic("uint8 wrap")
	}
	f := 1.5
	if f*2 != 3 {
		panic("float")
	}
	if x<<2 != 28 || x>>1 != 3 || -x>>1 != -4 {
		panic("shift")
	}
	s := "hello, " + "world"
	if len(s) != 12 || s[0] != 'h' || s[7:] != "world" {
		panic("string")
	}
}

type Shape interface {
	Area() float64
	Name() string
}

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }
func (r Rect) Name() string  { return "rect" }

type Square struct {
	Rect
	tag string
}

func (s *Square) Name() string { return "square" + s.tag }

func Interfaces() {
	shapes := []Shape{Rect{2, 3}, &Square{Rect{2, 2}, "!"}}
	total := 0.0
	names := ""
	for _, s := range shapes {
		total += s.Area()
		names += s.Name() + ";"
	}
	if total != 10 || names != "rect;square!;" {
		panic(fmt.Sprint("interfaces: ", total, names))
	}
	var sh Shape = Rect{1, 1}
	if _, ok := sh.(*Square); ok {
		panic("type assert")
	}
	switch v := sh.(type) {
	case Rect:
		if v.W != 1 {
			panic("type switch value")
		}
	default:
		panic("type switch")
	}
}

func Closures() {
	counter := func() func() int {
		n := 0
		return func() int { n++; return n }
	}()
	counter()
	counter()
	if counter() != 3 {
		panic("closure")
	}
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	sum := 0
	for _, f := range fs {
		sum += f()
	}
	if sum != 0+1+2 {
		panic(fmt.Sprintf("per-iteration loop variables: sum = %d", sum))
	}
}

func Maps() {
	m := map[string]int{}
	for i := 0; i < 100; i++ {
		m[strconv.Itoa(i%10)] += i
	}
	if len(m) != 10 || m["3"] != 3+13+23+33+43+53+63+73+83+93 {
		panic("maps")
	}
	delete(m, "3")
	if _, ok := m["3"]; ok {
		panic("delete")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, "") != "012456789" {
		panic("keys " + strings.Join(keys, ","))
	}
	type pt struct{ x, y int }
	pm := map[pt]string{{1, 2}: "a"}
	pm[pt{3, 4}] = "b"
	if pm[pt{1, 2}] != "a" || pm[pt{3, 4}] != "b" || len(pm) != 2 {
		panic("struct keys")
	}
	var im map[any]int = map[any]int{1: 1, "x": 2}
	if im[1] != 1 || im["x"] != 2 {
		panic("interface keys")
	}
}

func Defers() (result string) {
	defer func() {
		if r := recover(); r != nil {
			result = fmt.Sprint("recovered: ", r)
		}
	}()
	var a []int
	_ = a[5]
	return "not reached"
}

func CheckDefers() {
	if got := Defers(); got != "recovered: runtime error: index out of range [5] with length 0" {
		panic(got)
	}
	order := ""
	func() {
		for i := 0; i < 3; i++ {
			defer func() { order += strconv.Itoa(i) }()
		}
	}()
	if order != "210" {
		panic("defer order " + order)
	}
}

var ErrNotFound = errors.New("not found")

type MyErr struct{ Code int }

func (e *MyErr) Error() string { return "code " + strconv.Itoa(e.Code) }

func Errors() {
	err := fmt.Errorf("lookup: %w", ErrNotFound)
	if !errors.Is(err, ErrNotFound) {
		panic("errors.Is")
	}
	if err.Error() != "lookup: not found" {
		panic(err.Error())
	}
	var e error = fmt.Errorf("wrap: %w", &MyErr{42})
	var me *MyErr
	if !errors.As(e, &me) || me.Code != 42 {
		panic("errors.As")
	}
	if s := fmt.Sprintf("%v|%d|%s|%q|%x|%5.2f|%+v|%T", e, 42, "s", "q", 255, 3.14159, struct{ A int }{1}, me); s != "wrap: code 42|42|s|\"q\"|ff| 3.14|{A:1}|*basic.MyErr" {
		panic(s)
	}
}

func Generics() {
	if Max([]int{3, 9, 2}) != 9 || Max([]string{"a", "c", "b"}) != "c" {
		panic("generics")
	}
	s := Stack[int]{}
	s.Push(1)
	s.Push(2)
	if v, _ := s.Pop(); v != 2 {
		panic("generic type")
	}
}

func Max[T int | string](xs []T) T {
	m := xs[0]
	for _, x := range xs[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(x T) { s.items = append(s.items, x) }
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	x := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return x, true
}

func Panics() {
	var m map[string]int
	m["x"] = 1
}
