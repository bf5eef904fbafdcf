package synth

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExplicitMachineMemoryBound: WithMemoryLimit bounds the explicit
// machine an enumeration builds, not only the BDDs. The spec's BDDs are
// tiny, but its controller, which remembers the last inputs, has 2^5
// states of 2^5 edges each: about 300 KB as a Mealy machine, more than a
// quarter of the bound of 64 KB.
func TestExplicitMachineMemoryBound(t *testing.T) {
	var ins []string
	for i := range 5 {
		ins = append(ins, fmt.Sprintf("x%d", i))
	}
	spec, err := FromLTL("copy", Bools(ins...), Bools("y"), nil, []string{"G(y <-> x0)"})
	require.NoError(t, err)
	ctx := context.Background()

	res, err := spec.Realizable(ctx, WithMemoryLimit(64<<10))
	require.NoError(t, err)
	c, err := res.Controller(ctx)
	require.NoError(t, err)
	_, err = c.Mealy(ctx, 0)
	require.ErrorIs(t, err, ErrMemoryBound)
	assert.Contains(t, err.Error(), "copy: controller: the explicit machine would take more than 16384 bytes")

	res, err = spec.Realizable(ctx, WithMemoryLimit(4<<20))
	require.NoError(t, err)
	c, err = res.Controller(ctx)
	require.NoError(t, err)
	m, err := c.Mealy(ctx, 0)
	require.NoError(t, err)
	assert.Len(t, m.States, 1+1<<5)
}
