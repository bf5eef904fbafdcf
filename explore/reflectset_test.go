package explore

import "testing"

// reflect.Value.Set writes through addressable Values (Elem of a pointer,
// a slice's Index, a Field of one, reflect.New) and refuses the others
// with Go's panics; a used sync.Cond copied that way panics "sync.Cond is
// copied" (sync's TestCondCopy, errors' TestAs).
func TestReflectSet(t *testing.T) {
	assertCompletePasses(t, "reflectset", "TestSet", "TestSetRefused", "TestCondCopy")
}
