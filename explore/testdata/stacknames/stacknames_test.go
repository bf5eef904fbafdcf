package stacknames

import (
	"testing"
)

const pkg = "github.com/henceforth-go/henceforth/explore/testdata/stacknames."

func check(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func checkAll(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got  %q\nwant %q", got, want)
		return
	}
	for i := range got {
		check(t, got[i], want[i])
	}
}

func TestNames(t *testing.T) {
	c := &Catcher{}
	check(t, c.Try(), pkg+"(*Catcher).Try stacknames.go:22")
	check(t, c.Peek(), pkg+"Catcher.Peek stacknames.go:25")
	a, b := Outer()
	check(t, a, pkg+"Outer.func1 stacknames.go:31")
	check(t, b, pkg+"Outer.func1.1 stacknames.go:30")
	a, b = Gen(1)
	check(t, a, pkg+"Gen[...] stacknames.go:39")
	check(t, b, pkg+"Gen[...].func1 stacknames.go:38")
	a, b = Gen("s")
	check(t, a, pkg+"Gen[...] stacknames.go:39")
	check(t, b, pkg+"Gen[...].func1 stacknames.go:38")
}

func TestMethodValue(t *testing.T) {
	c := &Catcher{}
	f := c.Try
	check(t, f(), pkg+"(*Catcher).Try stacknames.go:22")
	g := (*Catcher).Try
	check(t, g(c), pkg+"(*Catcher).Try stacknames.go:22")
	h := c.Stack
	checkAll(t, h(), []string{pkg + "(*Catcher).Stack stacknames.go:108", pkg + "TestMethodValue stacknames_test.go:49"})
}

func TestCallers(t *testing.T) {
	var got []string
	func() {
		got = callers()
	}()
	checkAll(t, got, []string{pkg + "TestCallers.func1 stacknames_test.go:55", pkg + "TestCallers stacknames_test.go:56"})
}

func TestStack(t *testing.T) {
	var got []string
	func() {
		got = stack()
	}()
	checkAll(t, got, []string{pkg + "TestStack.func1 stacknames_test.go:63", pkg + "TestStack stacknames_test.go:64"})
}

func TestLines(t *testing.T) {
	check(t, here(0), pkg+"TestLines stacknames_test.go:69")
	check(t, here(
		0,
	), pkg+"TestLines stacknames_test.go:70")
	got := ""
	func() {
		defer func() {
			got = here(0)
		}()
	}()
	check(t, got, pkg+"TestLines.func1.1 stacknames_test.go:76")
	x := 1
	if x > 0 &&
		here(0) != pkg+"TestLines stacknames_test.go:82" {
		t.Error("a call in a condition")
	}
	if x > 0 {
		check(t, here(
			0), pkg+"TestLines stacknames_test.go:86")
	}
}

func TestDeferredNamed(t *testing.T) {
	var got []string
	func() {
		defer record(&got)
		got = nil
	}()
	checkAll(t, got, []string{pkg + "record stacknames_test.go:100", pkg + "TestDeferredNamed.func1 stacknames_test.go:96", pkg + "TestDeferredNamed stacknames_test.go:96"})
}

func record(dst *[]string) { *dst = stack() }

func TestFailErrorf(t *testing.T) {
	t.Errorf("failed here")
}

func TestFailFatalInHelper(t *testing.T) {
	c := &Catcher{n: 1}
	c.fatal(t,
		"spanning")
}

func (c *Catcher) fatal(t *testing.T, msg string) {
	if c.n > 0 {
		t.Fatal(msg)
	}
}

func TestFailPanic(t *testing.T) {
	c := Catcher{n: 2}
	func() {
		c.boom()
	}()
}

func (c Catcher) boom() {
	if c.n > 1 {
		panic("boom")
	}
}

func TestMoreLines(t *testing.T) {
	c := &Catcher{}
	got := c.
		Stack()
	checkAll(t, got, []string{pkg + "(*Catcher).Stack stacknames.go:108", pkg + "TestMoreLines stacknames_test.go:134"})
	var st []string
	early := func(x int) {
		defer record(&st)
		if x > 0 {
			return
		}
		st = nil
	}
	early(1)
	checkAll(t, st, []string{pkg + "record stacknames_test.go:100", pkg + "TestMoreLines.func1 stacknames_test.go:140", pkg + "TestMoreLines stacknames_test.go:144"})
	h := func(
		x int,
	) string {
		return here(x)
	}
	check(t, h(
		1), pkg+"TestMoreLines stacknames_test.go:151")
}

func TestFailErrorfSpanning(t *testing.T) {
	x := 1
	if x > 0 &&
		x < 2 {
		t.Errorf(
			"spanning %d",
			x)
	}
}

func TestFailDeferredPanic(t *testing.T) {
	defer func() {
		panic("deferred")
	}()
	t.Log("body")
}
