// Package stdfixes holds tests the standard library's own test packages
// run in shapes the explorer once got wrong.
package stdfixes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// repeat returns the value strings.Repeat panics with, or nil.
func repeat(s string, n int) (r any) {
	defer func() { r = recover() }()
	strings.Repeat(s, n)
	return nil
}

// TestNativePanicRecovered recovers the panics of a native function with
// their values.
func TestNativePanicRecovered(t *testing.T) {
	if r := repeat("-", -1); r != "strings: negative Repeat count" {
		t.Fatalf("negative count: recovered %v", r)
	}
	r := repeat("-", int(^uint(0)>>1))
	err, ok := r.(error)
	if !ok || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("huge count: recovered %v", r)
	}
	if r := repeat("-", 3); r != nil {
		t.Fatalf("count 3: recovered %v", r)
	}
}

// TestNativePanicUnrecovered panics in a native function.
func TestNativePanicUnrecovered(t *testing.T) {
	strings.Repeat("-", -1)
}

// TestCopyStringIntoNil copies an empty string into a nil slice.
func TestCopyStringIntoNil(t *testing.T) {
	var b []byte
	if n := copy(b, ""); n != 0 {
		t.Fatalf("copy = %d", n)
	}
	if n := copy(b, "abc"); n != 0 {
		t.Fatalf("copy = %d", n)
	}
	var r strings.Builder
	strings.NewReplacer("a", "").WriteString(&r, "")
}

// TestOpenMissing asserts the error of opening a missing file: a
// *fs.PathError, as errors_test's TestAsType requires.
func TestOpenMissing(t *testing.T) {
	_, err := os.Open("non-existing")
	pe, ok := err.(*fs.PathError)
	if !ok {
		t.Fatalf("error %T %v", err, err)
	}
	if pe.Op != "open" || pe.Path != "non-existing" {
		t.Fatalf("error %#v", pe)
	}
	type timeout interface {
		Timeout() bool
		error
	}
	to, ok := errors.AsType[timeout](err)
	if !ok || to.Timeout() {
		t.Fatalf("AsType: %v %v", to, ok)
	}
	if !strings.HasSuffix(err.Error(), "open non-existing: no such file or directory") {
		t.Fatalf("Error() = %q", err.Error())
	}
	if errors.Unwrap(err) == nil {
		t.Fatalf("no Unwrap")
	}
	var target *fs.PathError
	if !errors.As(err, &target) || target != pe {
		t.Fatalf("As")
	}
}

// TestBuilderCopyPanics writes to a copy of a non-empty strings.Builder,
// which panics as strings' own TestBuilderCopyPanic expects.
func TestBuilderCopyPanics(t *testing.T) {
	var a strings.Builder
	a.WriteString("x")
	b := a
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "copied by value") {
			t.Errorf("write to a copied Builder: recovered %v", r)
		}
	}()
	b.WriteString("y")
}

func TestNilBuilderResetPanics(t *testing.T) {
	var b *strings.Builder
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "nil pointer dereference") {
			t.Errorf("Reset of a nil *Builder: recovered %v", r)
		}
	}()
	b.Reset()
}
