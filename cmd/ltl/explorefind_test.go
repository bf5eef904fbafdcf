package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExploreFind(t *testing.T) {
	status, out, errs := runExplore(t, "-find", "F deadlock", "-run", "TestDeadlock$", bugsPkg)
	require.Equal(t, 0, status, "stdout:\n%s\nstderr:\n%s", out, errs)
	assert.Contains(t, out, "--- "+bugsPath+"TestDeadlock: witness")
	assert.Contains(t, out, "found    "+bugsPath+"TestDeadlock  witness of ")
	assert.Regexp(t, `replay: v[12]:`, out)

	status, out, _ = runExplore(t, "-find", "F deadlock", "-run", "TestPasses$", bugsPkg)
	assert.Equal(t, 1, status)
	assert.Contains(t, out, "none     "+bugsPath+"TestPasses  no interleaving satisfies F deadlock")

	status, out, _ = runExplore(t, "-json", "-find", "F terminated", "-run", "TestPasses$", bugsPkg)
	assert.Equal(t, 0, status)
	lines := jsonLines(t, out)
	require.Len(t, lines, 1)
	assert.Equal(t, "witness", lines[0]["kind"])
	assert.NotEmpty(t, lines[0]["replay"])

	status, _, errs = runExplore(t, "-find", "F at(G, nolabel)", "-run", "TestPasses$", bugsPkg)
	assert.Equal(t, 2, status)
	assert.Contains(t, errs, "no //ltl:event nolabel")
}
