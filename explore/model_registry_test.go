package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModelsDisjoint checks the registry's invariants: a function,
// native or package variable is modelled by one model only, and every
// state slot belongs to exactly one model, which constructs its state.
func TestModelsDisjoint(t *testing.T) {
	owner := map[string]int{}
	slots := map[stateSlot]int{}
	for i, md := range models() {
		names := make([]string, 0, len(md.funcs)+len(md.natives)+len(md.globals))
		for k := range md.funcs {
			names = append(names, k)
		}
		for k := range md.natives {
			names = append(names, k)
		}
		for k := range md.globals {
			names = append(names, k)
		}
		for _, k := range names {
			if j, dup := owner[k]; dup {
				t.Errorf("%s is modelled by models %d and %d", k, j, i)
			}
			owner[k] = i
		}
		if md.slot == noState {
			assert.Nil(t, md.newState, "model %d has a state constructor but no slot", i)
			continue
		}
		assert.NotNil(t, md.newState, "model %d has a slot but no state constructor", i)
		if j, dup := slots[md.slot]; dup {
			t.Errorf("slot %d is used by models %d and %d", md.slot, j, i)
		}
		slots[md.slot] = i
	}
	assert.Len(t, slots, int(numSlots)-1, "every slot but noState belongs to a model")
}

// runTwice runs two executions of the entry on one machine (the second
// one from the initialization snapshot, if the first took one) and
// returns the machine and their outputs.
func runTwice(t *testing.T, fn string) (*machine, *Entry, [2]string) {
	t.Helper()
	p := loadPatterns(t, "./testdata/modelinit/...")
	e, err := p.Func(testdataPath + "/modelinit/" + fn)
	require.NoError(t, err)
	o := Options{Strategy: DFS}
	m := newMachine(p, &o)
	var out [2]string
	for n := range 2 {
		x := newExecution(m, e, &o, &dfsChooser{bound: -1}, n+1, 0)
		x.run()
		assert.Empty(t, x.findings)
		out[n] = x.out.String()
		x.release()
	}
	return m, e, out
}

// TestModelStateSnapshot: the standard logger's configuration and the
// math/rand generator's state after package initialization are carried
// by the initialization snapshot.
func TestModelStateSnapshot(t *testing.T) {
	m, e, out := runTwice(t, "configured.Logs")
	require.NotNil(t, m.snaps[e.Fn.Pkg], "initialization is snapshotted")
	assert.Contains(t, out[0], "configured: second draw ")
	assert.Equal(t, out[0], out[1])
}

// TestModelStateNoSnapshot: unique.Make's table prevents the snapshot.
func TestModelStateNoSnapshot(t *testing.T) {
	m, e, _ := runTwice(t, "interned.SameHandle")
	assert.Nil(t, m.snaps[e.Fn.Pkg], "unique.Make in initialization prevents the snapshot")
}
