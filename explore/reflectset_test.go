package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// reflect.Value.Set writes through addressable Values (Elem of a pointer,
// a slice's Index, a Field of one, reflect.New) and refuses the others
// with Go's panics; a used sync.Cond copied that way panics "sync.Cond is
// copied" (sync's TestCondCopy, errors' TestAs).
func TestReflectSet(t *testing.T) {
	for _, test := range []string{"TestSet", "TestSetRefused", "TestCondCopy"} {
		t.Run(test, func(t *testing.T) {
			r := exploreTestdata(t, "reflectset", test, Options{})
			assert.Equal(t, "pass", r.Verdict(), "%v", r.Findings)
			assert.True(t, r.Complete, "bound %q", r.Bound)
		})
	}
}
