package ltl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	. "github.com/henceforth-go/henceforth/ltl"
)

func TestClassify(t *testing.T) {
	tests := map[string]Class{
		"p && !q -> r":                   Propositional,
		"true":                           Propositional,
		"Y p || O q":                     PurePast,
		"start(p) -> [q, end(r | s))":    PurePast,
		"[p, q)w":                        PurePast,
		"G(p -> F q)":                    PureFuture,
		"p U q":                          PureFuture,
		"G(p -> O q)":                    Mixed,
		"X Y p":                          Mixed,
		"G(start(p) -> [q, end(r | s)))": Mixed,
	}
	for src, want := range tests {
		assert.Equal(t, want, MustParse(src).Classify(), src)
	}
}

func TestIsPastSafety(t *testing.T) {
	assert.True(t, MustParse("G(start(p) -> [q, end(r | s)))").IsPastSafety())
	assert.True(t, MustParse("G !p").IsPastSafety())
	assert.True(t, MustParse("[] (p -> O q)").IsPastSafety())
	assert.False(t, MustParse("G(p -> F q)").IsPastSafety())
	assert.False(t, MustParse("H p").IsPastSafety())
	assert.False(t, MustParse("G p && G q").IsPastSafety())
}

func TestSubformulasShared(t *testing.T) {
	f := MustParse("(p U q) && !(p U q) || p")
	subs := f.Subformulas()
	assert.Equal(t, []string{"p", "q", "p U q", "!(p U q)", "p U q && !(p U q)", "p U q && !(p U q) || p"},
		stringsOf(subs))
	assert.Equal(t, 6, f.Size())
	assert.Equal(t, 5, f.Depth())
	assert.Equal(t, []string{"p", "q"}, f.Atoms())
}

func stringsOf(fs []Formula) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.String()
	}
	return out
}
