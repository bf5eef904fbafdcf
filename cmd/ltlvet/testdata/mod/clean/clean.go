// Package clean's annotations are fine; its prop is used by a spec in its
// test file only.
package clean

//ltl:prop started call Start
//ltl:prop stopped return Stop
//ltl:spec stops F stopped
func Start() {}

// Stop stops.
func Stop() {}
