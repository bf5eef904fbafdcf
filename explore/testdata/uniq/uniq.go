// Package uniq interns recursive values with unique.Make.
package uniq

import (
	"testing"
	"unique"
)

type Formula struct{ h unique.Handle[node] }

type node struct {
	op     int
	quoted bool
	name   string
	l, r   Formula
}

func mk(n node) Formula { return Formula{unique.Make(n)} }

func Atom(name string) Formula { return mk(node{op: 1, name: name}) }

func And(l, r Formula) Formula { return mk(node{op: 2, l: l, r: r}) }

func (f Formula) Op() int { return f.h.Value().op }

func Interning(t *testing.T) {
	a, b := Atom("a"), Atom("a")
	if a != b {
		t.Error("atoms not interned")
	}
	if And(a, Atom("b")) != And(b, Atom("b")) {
		t.Error("conjunctions not interned")
	}
	if And(a, a).Op() != 2 || a.Op() != 1 {
		t.Error("Value")
	}
	if Atom("a") == Atom("c") {
		t.Error("different atoms equal")
	}
}
