// Package reflectset sets values through reflect.Value.Set, as the
// standard library's tests (errors' TestAs, sync's TestCondCopy) and
// testify do.
package reflectset

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

type point struct {
	X, y int
}

type myErr struct{ msg string }

func (e myErr) Error() string { return e.msg }

// TestSet sets an int, a struct field, a slice element, an interface
// and a struct through reflect.
func TestSet(t *testing.T) {
	var n int
	v := reflect.ValueOf(&n).Elem()
	v.Set(reflect.ValueOf(42))
	if n != 42 || v.Int() != 42 || !v.CanSet() {
		t.Errorf("n = %d, v.Int() = %d, CanSet %v", n, v.Int(), v.CanSet())
	}
	p := point{1, 2}
	reflect.ValueOf(&p).Elem().Field(0).Set(reflect.ValueOf(7))
	s := []string{"a", "b"}
	reflect.ValueOf(s).Index(1).Set(reflect.ValueOf("c"))
	var err error
	reflect.ValueOf(&err).Elem().Set(reflect.ValueOf(myErr{"boom"}))
	var q point
	reflect.ValueOf(&q).Elem().Set(reflect.ValueOf(p))
	if p != (point{7, 2}) || s[1] != "c" || err == nil || err.Error() != "boom" || q != p {
		t.Errorf("p = %v, s = %v, err = %v, q = %v", p, s, err, q)
	}
	// errors' TestAs clears its targets this way
	target := &err
	reflect.ValueOf(target).Elem().Set(reflect.Zero(reflect.TypeOf(target).Elem()))
	if err != nil {
		t.Errorf("err = %v after setting the zero value", err)
	}
	np := reflect.New(reflect.TypeOf(point{}))
	np.Elem().Field(0).Set(reflect.ValueOf(3))
	if got := np.Interface().(*point); got.X != 3 {
		t.Errorf("New: %v", got)
	}
}

// TestSetRefused checks Set's panics.
func TestSetRefused(t *testing.T) {
	p := point{}
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { reflect.ValueOf(1).Set(reflect.ValueOf(2)) }, "reflect: reflect.Value.Set using unaddressable value"},
		{func() { reflect.ValueOf(&p).Elem().Field(1).Set(reflect.ValueOf(2)) }, "reflect: reflect.Value.Set using value obtained using unexported field"},
		{func() { reflect.ValueOf(&p).Elem().Field(0).Set(reflect.ValueOf("x")) }, "reflect.Set: value of type string is not assignable to type int"},
	} {
		if got := panicOf(tc.f); got != tc.want {
			t.Errorf("panic %q, want %q", got, tc.want)
		}
	}
	if reflect.ValueOf(&p).Elem().Field(1).CanSet() || reflect.ValueOf(p).Field(0).CanSet() {
		t.Error("CanSet of an unexported field or an unaddressable value")
	}
}

// TestCondCopy copies a Cond that was used, hidden from vet, as sync's
// test does: using the copy panics.
func TestCondCopy(t *testing.T) {
	c := sync.Cond{L: &sync.Mutex{}}
	c.Signal()
	var c2 sync.Cond
	reflect.ValueOf(&c2).Elem().Set(reflect.ValueOf(&c).Elem())
	func() {
		defer func() {
			// the panic value is a string, as sync's test asserts
			if r, ok := recover().(string); !ok || r != "sync.Cond is copied" {
				t.Errorf("panic %#v, want the string sync.Cond is copied", r)
			}
		}()
		c2.Signal()
	}()
	c.Broadcast() // the original is fine
}

func panicOf(f func()) (msg string) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case error:
			msg = r.Error()
		default:
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}
