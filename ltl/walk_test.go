package ltl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/henceforth-go/henceforth/ltl"
)

func TestClassify(t *testing.T) {
	tests := map[string]ltl.Class{
		"p && !q -> r":                   ltl.Propositional,
		"true":                           ltl.Propositional,
		"Y p || O q":                     ltl.PurePast,
		"start(p) -> [q, end(r | s))":    ltl.PurePast,
		"[p, q)w":                        ltl.PurePast,
		"G(p -> F q)":                    ltl.PureFuture,
		"p U q":                          ltl.PureFuture,
		"G(p -> O q)":                    ltl.Mixed,
		"X Y p":                          ltl.Mixed,
		"G(start(p) -> [q, end(r | s)))": ltl.Mixed,
	}
	for src, want := range tests {
		assert.Equal(t, want, ltl.MustParse(src).Classify(), src)
	}
}

func TestIsPastSafety(t *testing.T) {
	assert.True(t, ltl.MustParse("G(start(p) -> [q, end(r | s)))").IsPastSafety())
	assert.True(t, ltl.MustParse("G !p").IsPastSafety())
	assert.True(t, ltl.MustParse("[] (p -> O q)").IsPastSafety())
	assert.False(t, ltl.MustParse("G(p -> F q)").IsPastSafety())
	assert.False(t, ltl.MustParse("H p").IsPastSafety())
	assert.False(t, ltl.MustParse("G p && G q").IsPastSafety())
}

func TestSubformulasShared(t *testing.T) {
	f := ltl.MustParse("(p U q) && !(p U q) || p")
	subs := f.Subformulas()
	assert.Equal(t, []string{"p", "q", "p U q", "!(p U q)", "p U q && !(p U q)", "p U q && !(p U q) || p"},
		stringsOf(subs))
	assert.Equal(t, 6, f.Size())
	assert.Equal(t, 5, f.Depth())
	assert.Equal(t, []string{"p", "q"}, f.Atoms())
}

func stringsOf(fs []ltl.Formula) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.String()
	}
	return out
}
