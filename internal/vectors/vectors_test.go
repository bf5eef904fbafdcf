package vectors

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/ltl"
)

func TestRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.jsonl")
	require.NoError(t, os.WriteFile(path, []byte("{\"n\": 1}\n{\"n\": 2}\n"), 0o644))
	type vector struct{ N int }
	vs, err := Read[vector](path)
	require.NoError(t, err)
	assert.Equal(t, []vector{{1}, {2}}, vs)

	require.NoError(t, os.WriteFile(path, []byte("{\"n\": 1}\n{\"n\": \n"), 0o644))
	_, err = Read[vector](path)
	assert.ErrorContains(t, err, path+":2: ")

	_, err = Read[vector](filepath.Join(t.TempDir(), "none.jsonl"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestNotations(t *testing.T) {
	assert.Equal(t, ltl.Sets{{}, {"q"}, {"p", "r"}}, ParseStates("{} {q} {p,r}"))
	assert.Equal(t, ltl.Sets{}, ParseStates(""))
	assert.Equal(t, ltl.Sets{{"p"}, {"q"}}, ParseEvents("p q"))
	assert.Equal(t, ltl.Sets{}, ParseEvents("eps"))
	assert.Equal(t, []bool{true, false, true}, ParseBools("T F T"))
}
