// Package clean has no problems. Its prop started is used only by a spec in
// its test file: the analyzer must not call it unused when it analyzes the
// package without its tests.
package clean

//ltl:prop started call Start
//ltl:prop stopped return Stop
//ltl:spec stops F stopped
func Start() {}

// Stop stops.
func Stop() {}
