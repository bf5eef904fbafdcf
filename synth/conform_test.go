package synth

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// handArbiter is a hand-written controller for trafficLight(t, false):
// alternate the green lights while cars wait.
type handArbiter struct {
	turnEW  bool
	started bool
	bug     string
}

func (h *handArbiter) Step(in map[string]int) (map[string]int, error) {
	if !h.started {
		h.started = true
		return map[string]int{"greenNS": 0, "greenEW": 0}, nil
	}
	out := map[string]int{"greenNS": 0, "greenEW": 0}
	switch {
	case h.bug == "both" && in["carNS"] == 1 && in["carEW"] == 1:
		out["greenNS"], out["greenEW"] = 1, 1
	case h.bug == "starveEW":
		out["greenNS"] = in["carNS"]
	case h.turnEW && in["carEW"] == 1:
		out["greenEW"] = 1
	case !h.turnEW && in["carNS"] == 1:
		out["greenNS"] = 1
	case in["carEW"] == 1:
		out["greenEW"] = 1
	case in["carNS"] == 1:
		out["greenNS"] = 1
	}
	h.turnEW = !h.turnEW
	return out, nil
}

func TestConforms(t *testing.T) {
	spec := trafficLight(t, false)
	ctx := context.Background()
	state := func(s Stepper) any { return *s.(*handArbiter) }
	mk := func(bug string) func() Stepper { return func() Stepper { return &handArbiter{bug: bug} } }

	res, err := Conforms(ctx, spec, mk(""), ConformOptions{State: state})
	require.NoError(t, err)
	assert.Nil(t, res.Violation)
	assert.True(t, res.Complete, "the arbiter has finitely many states: the check is exact")

	res, err = Conforms(ctx, spec, mk("both"), ConformOptions{State: state})
	require.NoError(t, err)
	require.NotNil(t, res.Violation)
	assert.Equal(t, SafetyViolation, res.Violation.Kind)
	assert.Equal(t, "G !(greenNS && greenEW)", res.Violation.Clause.Text)
	// Shortest: both cars at the first step after the initial one; a clause
	// without next constrains the source of each step, so the violation
	// shows on the step after.
	require.Len(t, res.Violation.Stem, 3)
	assert.Equal(t, map[string]int{"greenNS": 1, "greenEW": 1}, res.Violation.Stem[1].Outputs)

	res, err = Conforms(ctx, spec, mk("starveEW"), ConformOptions{State: state})
	require.NoError(t, err)
	require.NotNil(t, res.Violation)
	assert.Equal(t, LivenessViolation, res.Violation.Kind)
	assert.Contains(t, res.Violation.Msg, "carEW -> greenEW")
	assert.NotEmpty(t, res.Violation.Loop)

	// Without State only safety is checked, and the verdict is unknown.
	res, err = Conforms(ctx, spec, mk("starveEW"), ConformOptions{MaxDepth: 4})
	require.NoError(t, err)
	assert.Nil(t, res.Violation)
	assert.False(t, res.Complete)

	imp := spec.Clone()
	imp.Semantics = Implication
	_, err = Conforms(ctx, imp, mk(""), ConformOptions{})
	assert.True(t, errors.Is(err, ErrUnsupported))
}

// TestConformsSynthesized checks the synthesized controllers of the test
// specs with Conforms too (their Run is a Stepper whose state is its
// machine state).
func TestConformsSynthesized(t *testing.T) {
	ctx := context.Background()
	for _, spec := range []*Spec{trafficLight(t, false), liftSpec(t, 2)} {
		res, err := spec.Realizable(ctx)
		require.NoError(t, err)
		c, err := res.Controller(ctx)
		require.NoError(t, err)
		m, err := c.Mealy(ctx, 0)
		require.NoError(t, err)
		cr, err := Conforms(ctx, spec, func() Stepper { return m.Run() }, ConformOptions{
			State: func(s Stepper) any { return s.(*Run).State() },
		})
		require.NoError(t, err)
		assert.Nil(t, cr.Violation, spec.Name)
		assert.True(t, cr.Complete, spec.Name)
	}
}
