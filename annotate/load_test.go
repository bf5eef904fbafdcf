package annotate

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/automaton"
)

func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	ctx := context.Background()
	pkgs, err := Load(ctx, filepath.Join("testdata", "loadmod", "good"))
	// The package's test variant replaces it, and the external test
	// package is a Package of its own.
	require.Len(t, pkgs, 2)
	assert.Equal(t, "example.com/loadmod/good [example.com/loadmod/good.test]", pkgs[0].ID)
	assert.Equal(t, "example.com/loadmod/good_test [example.com/loadmod/good.test]", pkgs[1].ID)

	// A spec in a _test.go file binds props of the package.
	ss := pkgs[0].Spec("startStop")
	require.NotNil(t, ss)
	assert.Equal(t, "example.com/loadmod/good.Start", ss.Atoms["started"].Func.FullName())
	assert.Equal(t, ReturnEvent, ss.Atoms["stopped"].Kind)
	assert.Empty(t, pkgs[0].Lint(ctx, automaton.Satisfiability{}))

	// Problems of every package come back together.
	var list ErrorList
	require.True(t, errors.As(err, &list), "got %v", err)
	require.Len(t, list, 1)
	assert.Equal(t, "x_test.go:6:32: ltl:spec external: unknown proposition \"unknown\"", messages(list)[0])
	assert.NotNil(t, pkgs[1].Prop("ext"))
	assert.Nil(t, pkgs[1].Spec("external"))
}

func TestLoadBrokenPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	pkgs, err := Load(context.Background(), filepath.Join("testdata", "loadmod", "broken"))
	assert.Empty(t, pkgs, "a package that does not type-check has no annotations")
	var list ErrorList
	require.True(t, errors.As(err, &list), "got %v", err)
	require.NotEmpty(t, list)
	for _, e := range list {
		assert.Equal(t, KindLoad, e.Kind)
	}
	assert.Contains(t, list.Error(), "broken.go:4:14: cannot use 1")
}

func TestLoadNoPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	_, err := Load(context.Background(), filepath.Join("testdata", "loadmod", "nosuchdir"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nosuchdir")
}
